"""Twins of Go's table-driven tests: `func TestX(t *testing.T)` whose loop `for _, tc :=
range TABLE {...}` (directly, or in `t.Run(..., func(t *testing.T) {...})`) checks
`if X != tc.F { t.Fatalf(...) }` (either side, or `!reflect.DeepEqual(X, tc.F)`) before
anything that could end an iteration early, TABLE being a package-level `var TABLE =
[]T{...}` of entries with a literal F. A passing run checks F for every entry, so the
test's k + 1 copies each range over their own copy of the table (F changed in each entry
of a twin's), all renamed; benchmarks over the table range over a copy drawn at random.
The test may use `tc.F` nowhere else but in its failure messages, and the table nowhere
else but in benchmarks: anything else and the test gets no twins."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from . import mutation
from .native_exprs import literal
from .native_go_checks import Loop, loops
from .native_sites import untold
from .native_tests import Site
from .native_tokens import Token, Unreadable, pairs, split, tokenize


@dataclass
class Table:
    path: str
    name: str
    at: int  # the token of its name
    span: tuple[int, int]  # `var` .. the closing brace, as token indices
    entries: list[tuple[int, int]]  # each entry's tokens, braces excluded
    fields: list[str] | None  # the struct's field names in order, if known


def tables(path: str, tokens: list[Token], match, types: dict[str, list[str] | None]) -> dict[str, Table]:
    """The package-level `var NAME = []T{{...}, ...}` declarations of a file."""
    found, depth = {}, 0
    for i, tok in enumerate(tokens):
        depth += (tok.text in "([{") - (tok.text in ")]}") if tok.kind == "p" else 0
        if depth or tok.text != "var" or i + 5 >= len(tokens) or tokens[i + 2].text != "=":
            continue
        if tokens[i + 1].kind != "id" or tokens[i + 3].text != "[" or tokens[i + 4].text != "]":
            continue
        j = i + 5
        fields = types.get(tokens[j].text)
        if tokens[j].text == "struct" and tokens[j + 1].text == "{":
            fields, j = struct_fields(tokens, j + 1, match[j + 1], match), match[j + 1]
        if j + 1 >= len(tokens) or tokens[j + 1].text != "{":
            continue
        items = split(tokens, j + 2, match[j + 1], match)
        if all(tokens[a].text == "{" and match[a] == b - 1 for a, b in items):
            entries = [(a + 1, b - 1) for a, b in items]
            found[tokens[i + 1].text] = Table(path, tokens[i + 1].text, i + 1, (i, match[j + 1]), entries, fields)
    return found


def struct_types(tokens: list[Token], match) -> dict[str, list[str] | None]:
    """`type NAME struct {...}` -> its field names in order."""
    return {
        tokens[i + 1].text: struct_fields(tokens, i + 3, match[i + 3], match)
        for i in range(len(tokens) - 3)
        if tokens[i].text == "type" and tokens[i + 2].text == "struct" and tokens[i + 3].text == "{"
    }


def struct_fields(tokens: list[Token], lo: int, hi: int, match) -> list[str] | None:
    names = []
    for a, b in split(tokens, lo + 1, hi, match, sep=";"):
        parts = split(tokens, a, b, match)
        if any(e - s != 1 for s, e in parts[:-1]) or parts[-1][1] - parts[-1][0] < 2:
            return None  # an embedded field, or one this cannot read
        names += [tokens[s].text for s, _ in parts]
    return names


def sites(tokens: list[Token], match, table: Table, field: str, k: int) -> list[Site]:
    """Each entry's literal value of `field` that a twin may change."""
    found = []
    for lo, hi in table.entries:
        items = split(tokens, lo, hi, match)
        keyed = [(s, e) for s, e in items if e - s > 2 and tokens[s + 1].text == ":"]
        if keyed:
            value = next(((s + 2, e) for s, e in keyed if tokens[s].text == field), None)
        elif table.fields and field in table.fields and len(items) == len(table.fields):
            value = items[table.fields.index(field)]
        else:
            value = None
        expr = literal(tokens[value[0] : value[1]], "go", k) if value else None
        leaves = untold(tokens, [(lo, hi)], expr.leaves) if expr and not expr.uses else ()
        if leaves:
            found.append(Site(leaves))
    return found


def plan(plan, sources: dict[str, str], edits: dict[str, list], draw, rng, k: int) -> set[tuple[str, int]]:
    """Add the twins of the package's table-driven tests to `plan` and `edits` (path ->
    [(start, end, text)]); gives the (path, start) of each test it twinned."""
    toks, matches = {}, {}
    for path, source in sources.items():
        try:
            toks[path] = tokenize(source, "go")
            matches[path] = pairs(toks[path])
        except Unreadable:
            continue
    types = {name: f for path in toks for name, f in struct_types(toks[path], matches[path]).items()}
    tabs = {name: t for path in toks for name, t in tables(path, toks[path], matches[path], types).items()}
    tests = [(path, *found) for path in toks for found in loops(toks[path], matches[path])]
    ranged = Counter(loop.table for *_, loop in tests if loop)
    done = set()
    for path, name, span, loop in tests:
        table = tabs.get(loop.table) if loop and ranged[loop.table] == 1 else None
        benches = _benchmark_uses(toks, table, path, loop) if table else None
        if benches is None:
            continue
        drawn = [(s, _others(s, k, rng)) for s in sites(toks[table.path], matches[table.path], table, loop.field, k)]
        drawn = [(s, others) for s, others in drawn if others]
        if not drawn:
            continue
        names = [draw("test") for _ in range(k + 1)]
        copies = [draw("table") for _ in range(k + 1)]
        t, tt = toks[path], toks[table.path]
        tests_text = [
            _text(sources[path], t, span, {loop.at: copies[i], loop.test[0] + 1: names[i]}, []) for i in range(k + 1)
        ]
        tables_text = [
            _text(sources[table.path], tt, table.span, {table.at: copies[i]}, _values(drawn, i)) for i in range(k + 1)
        ]
        rng.shuffle(tests_text)
        rng.shuffle(tables_text)
        edits.setdefault(path, []).append((t[span[0]].start, t[span[1]].end, "\n\n".join(tests_text)))
        edits.setdefault(table.path, []).append(
            (tt[table.span[0]].start, tt[table.span[1]].end, "\n\n".join(tables_text))
        )
        for bench_path, i in benches:
            tok = toks[bench_path][i]
            edits.setdefault(bench_path, []).append((tok.start, tok.end, rng.choice(copies)))
        plan.fresh[names[0]] = name.text
        plan.twins.update({n: names[0] for n in names[1:]})
        plan.covered.add((path, f"{name.text}:{sources[path].count(chr(10), 0, t[span[0]].start) + 1}"))
        done.add((path, t[span[0]].start))
    return done


def _others(site: Site, k: int, rng) -> list | None:
    return mutation.alternatives([leaf.value for leaf in site.leaves], k, rng)


def _values(drawn, i: int) -> list[tuple[int, int, str]]:
    out = []
    for site, others in drawn:
        values = [leaf.value for leaf in site.leaves] if i == 0 else others[i - 1]
        out += [(leaf.start, leaf.end, leaf.render(v)) for leaf, v in zip(site.leaves, values, strict=True)]
    return out


def _text(source: str, tokens: list[Token], span: tuple[int, int], names: dict[int, str], values) -> str:
    """tokens[span] as source, with the tokens at `names` renamed and `values` printed."""
    start, end = tokens[span[0]].start, tokens[span[1]].end
    edits = [(tokens[i].start, tokens[i].end, text) for i, text in names.items()] + values
    text = source[start:end]
    for a, b, new in sorted(edits, reverse=True):
        text = text[: a - start] + new + text[b - start :]
    return text


def _benchmark_uses(toks, table: Table, path: str, loop: Loop) -> list[tuple[str, int]] | None:
    """Where benchmarks use the table, if nothing else but its declaration and the loop does."""
    found = []
    for where, tokens in toks.items():
        benches = [s for name, s, _ in _funcs(tokens, "Benchmark")]
        for i, tok in enumerate(tokens):
            if tok.text != table.name or tok.kind != "id" or (i and tokens[i - 1].text == "."):
                continue
            if (where, i) in ((table.path, table.at), (path, loop.at)):
                continue
            if not any(a <= i <= b for a, b in benches):
                return None
            found.append((where, i))
    return found


def _funcs(tokens: list[Token], prefix: str):
    match = pairs(tokens)
    for i, tok in enumerate(tokens[:-2]):
        if tok.text == "func" and tokens[i + 1].text.startswith(prefix) and tokens[i + 2].text == "(":
            body = next((j for j in range(match[i + 2], len(tokens)) if tokens[j].text == "{"), None)
            if body is not None:
                yield tokens[i + 1].text, (i, match[body]), body

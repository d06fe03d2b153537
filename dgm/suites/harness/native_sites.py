"""Where a brace language's test states a literal expected value that a passing run is
sure to check: the test's top-level statements (not inside a loop, a condition, a closure,
a SECTION) before the first that could end it early (a return, a skip, an exit), in the
language's assertion forms (native_asserts.py). The literal is there in the assertion, or
bound to a variable the test declares once, at its top level, and uses nowhere but as the
expected side of those assertions."""

from __future__ import annotations

from collections import Counter

from . import native_asserts as asserts
from . import native_go_checks
from .native_blocks import leaves_early, statements
from .native_literals import Leaf
from .native_tests import TESTS, Case, Site
from .native_tokens import Token, pairs, tokenize

SHARED = {"fs", "File", "OpenOptions", "set_var", "remove_var", "set_current_dir", "global_allocator"}


def cases(source: str, lang: str, k: int) -> list[Case]:
    """Every test of `source` with its sites; raises native_tokens.Unreadable."""
    tokens = tokenize(source, lang)
    match = pairs(tokens)
    found, shared = [], _shares_state(tokens, lang)
    for case, body in TESTS[lang](tokens, match):
        if case.why is None and shared:
            case.why = "its copies would run at once and share the file system, the environment or a global"
        if case.why is None and body is not None:
            case.sites = _sites(tokens, body, match, lang, k)
            case.why = None if case.sites else "no literal expectation it is sure to check"
        found.append(case)
    return found


def _shares_state(tokens: list[Token], lang: str) -> bool:
    """Rust runs a crate's tests at once, in threads: copies of a test that writes a file, sets
    the environment or counts in a global (a `static mut`, a static that is no reference, a
    global allocator) would trip over each other, though distinct tests do not."""
    if lang != "rust":
        return False
    if any(t.kind == "id" and t.text in SHARED for t in tokens):
        return True
    return any(
        t.text == "static"
        and (i == 0 or tokens[i - 1].text != "'")
        and i + 3 < len(tokens)
        and (tokens[i + 1].text == "mut" or (tokens[i + 2].text == ":" and tokens[i + 3].text != "&"))
        for i, t in enumerate(tokens)
    )


def _sites(tokens: list[Token], body: tuple[int, int], match: dict[int, int], lang: str, k: int) -> list[Site]:
    found: list[Site] = []
    declared: dict[str, tuple[tuple[Leaf, ...], tuple[int, int]]] = {}  # name -> its literal, its statement
    uses, reached, tolerance, twice = Counter(), set(), Counter(), set()
    where: dict[str, list[tuple[int, int]]] = {}  # name -> the statements that use it
    stopped = False
    for a, b in statements(tokens, body[0], body[1], match, lang):
        stopped = stopped or leaves_early(tokens, a, b, lang)
        bound = None if stopped else DECLARATIONS[lang](tokens, a, b, match, k)
        if bound is not None:
            name, expr = bound
            if name in declared:
                twice.add(name)
            declared.setdefault(name, (() if expr.uses else tuple(expr.leaves), (a, b)))
            continue
        site = ASSERTIONS[lang](tokens, a, b, match, k, frozenset(declared))
        if site is None:
            continue
        expr, tol = site
        for use in expr.uses:
            uses[use.text] += 1
            tolerance[use.text] = max(tolerance[use.text], tol)
            reached |= set() if stopped else {use.text}
            where.setdefault(use.text, []).append((a, b))
        kept = untold(tokens, [(a, b)], expr.leaves)
        if kept and not stopped:
            found.append(Site(kept, tol))
    for name, (leaves, at) in declared.items():
        seen = sum(t.kind == "id" and t.text == name and not _member(tokens, i) for i, t in _span(tokens, body))
        kept = untold(tokens, [at, *where.get(name, [])], leaves)
        if kept and name in reached and name not in twice and seen == 1 + uses[name]:
            found.append(Site(kept, tolerance[name]))
    return sorted(found, key=lambda s: s.leaves[0].start)


def untold(tokens: list[Token], ranges: list[tuple[int, int]], leaves) -> tuple[Leaf, ...]:
    """The leaves whose value no other literal of these statements states (a message that
    repeats it, an input equal to it): changing those would make a twin differ from its
    original in more than its values, and code under test could tell the original."""
    spans = [(leaf.start, leaf.end) for leaf in leaves]
    others = [
        t.text
        for a, b in ranges
        for t in tokens[a:b]
        if t.kind in ("num", "str", "chr") and not any(s <= t.start and t.end <= e for s, e in spans)
    ]
    said = [str(abs(v)) if isinstance(v, (int, float)) else v for v in (leaf.value for leaf in leaves)]
    return tuple(leaf for leaf, text in zip(leaves, said, strict=True) if not (text and any(text in o for o in others)))


def _span(tokens: list[Token], body: tuple[int, int]):
    return ((i, tokens[i]) for i in range(body[0], body[1]))


def _member(tokens: list[Token], i: int) -> bool:
    return i > 0 and tokens[i - 1].text in (".", "::", "->")


ASSERTIONS = {
    "javascript": asserts.jest_assertion,
    "rust": asserts.rust_assertion,
    "java": asserts.junit_assertion,
    "cpp": asserts.catch_assertion,
    "go": native_go_checks.go_assertion,
}
DECLARATIONS = {
    "javascript": asserts.jest_declaration,
    "rust": asserts.rust_declaration,
    "java": asserts.junit_declaration,
    "cpp": asserts.catch_declaration,
    "go": native_go_checks.go_declaration,
}
__all__ = ["Case", "Site", "cases", "untold"]

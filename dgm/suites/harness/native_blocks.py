"""The statements of a block in the brace languages, as token ranges, and whether one could
end a test early without failing it (a return, a skip, an exit: what follows it is not sure
to run)."""

from __future__ import annotations

from .native_tokens import Token

BLOCKS = {"if", "else", "for", "while", "do", "switch", "try", "catch", "finally", "loop", "match", "unsafe"}
BLOCKS |= {"SECTION", "DYNAMIC_SECTION", "synchronized", "with"}
CONTINUED = {"else", "catch", "finally", "while"}
EXITS = {
    "javascript": {"return", "yield", "done", "pending", "process"},
    "rust": {"return", "exit"},
    "java": {"return", "exit", "abort"},
    "cpp": {"return", "SKIP", "exit", "quick_exit", "_Exit", "goto", "longjmp"},
    "go": {"return", "continue", "break", "goto", "Skip", "SkipNow", "Skipf", "Goexit", "Exit"},
}


def statements(tokens: list[Token], lo: int, hi: int, match: dict[int, int], lang: str = "") -> list[tuple[int, int]]:
    """The top-level statements of the block tokens[lo:hi], as token ranges (Go: a `;` in an
    `if`, `for` or `switch` header is no statement's end)."""
    out, start, i = [], lo, lo
    while i < hi:
        token = tokens[i]
        if token.kind == "p" and token.text in "([{":
            close = match[i]
            block = token.text == "{" and (i == start or tokens[start].text in BLOCKS)
            if block and (close + 1 >= hi or tokens[close + 1].text not in CONTINUED):
                out.append((start, close + 1))
                start = close + 1
            i = close + 1
            continue
        if token.kind == "p" and token.text == ";" and not (lang == "go" and tokens[start].text in BLOCKS):
            out.append((start, i + 1))
            start = i + 1
        i += 1
    if start < hi:
        out.append((start, hi))
    return out


def leaves_early(tokens: list[Token], a: int, b: int, lang: str) -> bool:
    exits = EXITS[lang]
    return any(
        t.kind == "id" and (t.text in exits or (lang == "java" and t.text.startswith("assume"))) for t in tokens[a:b]
    )

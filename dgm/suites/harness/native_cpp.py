"""C++ types whose values a test may state as literals: the standard containers and strings
(`std::` or, under `using namespace std`, unqualified) of scalars and of each other, and
the scalar types themselves. A constructor of any other type may map two literals to one
value, so a twin's changed literal might not change what it expects."""

from __future__ import annotations

from .native_tokens import Token

CPP_TYPES = {"vector", "array", "string", "string_view", "set", "unordered_set", "list", "deque", "pair", "tuple"}
CPP_SCALARS = {"int", "long", "short", "unsigned", "signed", "char", "double", "float", "bool", "size_t", "auto"}
CPP_SCALARS |= {f"{u}int{b}_t" for u in ("", "u") for b in (8, 16, 32, 64)}


def cpp_type(tokens: list[Token], i: int) -> tuple[int, str] | None:
    """The end of a C++ type of values (a standard container or string of literals, or a
    scalar) starting at i, and its base name; None if it is none of those."""
    j = i + (tokens[i].text == "std" and i + 1 < len(tokens) and tokens[i + 1].text == "::") * 2
    if j >= len(tokens) or tokens[j].kind != "id":
        return None
    base = tokens[j].text
    if j == i and base in CPP_SCALARS:
        j += 1
        while j < len(tokens) and tokens[j].text in CPP_SCALARS:
            j += 1
        return j, base
    if (j == i and not _uses_std(tokens)) or base not in CPP_TYPES:
        return None
    j += 1
    if j < len(tokens) and tokens[j].text == "<":
        depth = 0
        while j < len(tokens):
            text = tokens[j].text
            depth += (text == "<") - (text == ">")
            known = tokens[j].kind == "num" or text in CPP_TYPES or text in CPP_SCALARS or text == "std"
            if text not in ("<", ">", ",", "::", "const") and not known:
                return None
            j += 1
            if depth == 0:
                break
        if depth:
            return None
    return j, base


def _uses_std(tokens: list[Token]) -> bool:
    """Whether the file says `using namespace std`."""
    return any(
        tokens[n].text == "using" and tokens[n + 1].text == "namespace" and tokens[n + 2].text == "std"
        for n in range(len(tokens) - 2)
    )

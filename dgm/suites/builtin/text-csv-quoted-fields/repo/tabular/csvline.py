"""Splitting and joining single delimited lines (RFC 4180 quoting, no newlines)."""


class CsvError(ValueError):
    """A line cannot be split into fields."""


def split_line(line: str, delimiter: str = ",", quote: str = '"') -> list[str]:
    """Split one line into its fields.

    A field may be enclosed in ``quote`` characters, in which case it can contain
    the delimiter. Surrounding quotes are removed from the result.

    >>> split_line('a,"b,c",d')
    ['a', 'b,c', 'd']
    """
    if len(delimiter) != 1 or len(quote) != 1:
        raise ValueError("delimiter and quote must be single characters")
    line = line.rstrip("\r\n")
    fields: list[str] = []
    current: list[str] = []
    in_quotes = False
    for char in line:
        if char == quote:
            in_quotes = not in_quotes
        elif char == delimiter and not in_quotes:
            fields.append("".join(current))
            current = []
        else:
            current.append(char)
    if in_quotes:
        raise CsvError(f"unterminated quoted field in {line!r}")
    fields.append("".join(current))
    return fields


def _needs_quotes(field: str, delimiter: str, quote: str) -> bool:
    return (
        field == ""
        or delimiter in field
        or quote in field
        or field != field.strip()
    )


def join_line(fields, delimiter: str = ",", quote: str = '"') -> str:
    """Join ``fields`` into one line, quoting fields where needed.

    A quote character inside a field is written twice, as RFC 4180 requires.

    >>> join_line(['a', 'b,c'])
    'a,"b,c"'
    """
    out = []
    for field in fields:
        text = "" if field is None else str(field)
        if _needs_quotes(text, delimiter, quote):
            text = quote + text.replace(quote, quote * 2) + quote
        out.append(text)
    return delimiter.join(out)

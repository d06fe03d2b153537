"""Formatting byte counts for people."""

from .units import unit_table


def naturalsize(num_bytes: int, binary: bool = False, precision: int = 1) -> str:
    """Format ``num_bytes`` with the largest unit that keeps the number at least 1.

    Plain bytes are shown as an integer ("999 B"); larger sizes with ``precision``
    decimals ("1.5 kB", "2.0 GiB"). ``binary=True`` uses powers of 1024 and IEC
    names. Negative sizes (e.g. a shrinking file) keep their sign.

    >>> naturalsize(1500)
    '1.5 kB'
    >>> naturalsize(1536, binary=True)
    '1.5 KiB'
    """
    if num_bytes < 0:
        return "-" + naturalsize(-num_bytes, binary=binary, precision=precision)
    base, units = unit_table(binary)
    if num_bytes < base:
        return f"{int(num_bytes)} B"
    size = float(num_bytes)
    index = 0
    while size > base and index < len(units) - 1:
        size /= base
        index += 1
    return f"{size:.{precision}f} {units[index]}"

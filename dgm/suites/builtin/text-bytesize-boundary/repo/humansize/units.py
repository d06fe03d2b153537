"""Unit tables shared by the formatter and the parser."""

#: SI units, powers of 1000 (what disk vendors use).
DECIMAL_UNITS = ("B", "kB", "MB", "GB", "TB", "PB")

#: IEC units, powers of 1024 (what operating systems usually show).
BINARY_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


def unit_table(binary: bool) -> tuple[int, tuple[str, ...]]:
    """The base and the unit names for the decimal or the binary system."""
    return (1024, BINARY_UNITS) if binary else (1000, DECIMAL_UNITS)


def multiplier(unit: str) -> int:
    """Number of bytes in one ``unit`` (case-insensitive; "K" and "KB" mean kB)."""
    wanted = unit.strip().lower()
    aliases = {"": "b", "k": "kb", "m": "mb", "g": "gb", "t": "tb", "p": "pb"}
    wanted = aliases.get(wanted, wanted)
    for base, units in ((1000, DECIMAL_UNITS), (1024, BINARY_UNITS)):
        for power, name in enumerate(units):
            if name.lower() == wanted:
                return base**power
    raise KeyError(unit)

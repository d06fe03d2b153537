"""The parsed configuration and its typed getters."""

import re

from .errors import ConfigError, MissingOptionError

_MISSING = object()
_TRUE = {"1", "yes", "true", "on"}
_FALSE = {"0", "no", "false", "off"}


class Config:
    """Sections of options; section and option names are case-insensitive."""

    def __init__(self) -> None:
        self._sections: dict[str, dict[str, str]] = {}

    def add_section(self, name: str) -> dict[str, str]:
        """Return the options of section ``name``, creating it if needed."""
        return self._sections.setdefault(name.strip().lower(), {})

    def sections(self) -> list[str]:
        return list(self._sections)

    def options(self, section: str) -> dict[str, str]:
        try:
            return dict(self._sections[section.lower()])
        except KeyError:
            raise MissingOptionError(f"no section [{section}]") from None

    def has_option(self, section: str, option: str) -> bool:
        return option.lower() in self._sections.get(section.lower(), {})

    def get(self, section: str, option: str, fallback=_MISSING) -> str:
        """The raw string value of ``option`` in ``section``."""
        try:
            return self._sections[section.lower()][option.lower()]
        except KeyError:
            if fallback is _MISSING:
                raise MissingOptionError(f"no option {option!r} in [{section}]") from None
            return fallback

    def getint(self, section: str, option: str, fallback=_MISSING) -> int:
        value = self.get(section, option, fallback)
        if value is fallback:
            return value
        try:
            return int(value)
        except ValueError:
            raise ConfigError(f"[{section}] {option}: not an integer: {value!r}") from None

    def getboolean(self, section: str, option: str, fallback=_MISSING) -> bool:
        value = self.get(section, option, fallback)
        if value is fallback:
            return value
        lowered = value.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ConfigError(f"[{section}] {option}: not a boolean: {value!r}")

    def getlist(self, section: str, option: str, fallback=_MISSING) -> list[str]:
        """A list value: items separated by commas or written one per line."""
        value = self.get(section, option, fallback)
        if value is fallback:
            return value
        return [item.strip() for item in re.split(r"[,\n]", value) if item.strip()]

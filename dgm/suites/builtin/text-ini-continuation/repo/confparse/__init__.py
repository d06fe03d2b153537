"""confparse: a small, strict INI-style configuration reader.

    from confparse import parse
    config = parse(open("deploy.ini").read())
    workers = config.getint("server", "workers", fallback=4)
"""

from .config import Config
from .errors import ConfigError, ParseError
from .parser import parse, parse_file

__all__ = ["Config", "ConfigError", "ParseError", "parse", "parse_file"]

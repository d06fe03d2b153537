"""envfile: read ``.env`` files into dictionaries or the process environment.

    from envfile import load_env
    settings = load_env(".env")
"""

from .errors import EnvFileError
from .loader import apply_env, load_env, parse_env
from .parser import parse_line

__all__ = ["EnvFileError", "apply_env", "load_env", "parse_env", "parse_line"]

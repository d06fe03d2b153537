"""dgm: an open-ended archive search engine for self-improving coding agents."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("dgm")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"

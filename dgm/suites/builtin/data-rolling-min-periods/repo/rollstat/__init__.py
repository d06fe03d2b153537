"""rollstat: a tiny labelled series with trailing rolling-window statistics."""

from .series import Rolling, Series
from .window import rolling_apply, trailing_windows

__all__ = ["Series", "Rolling", "rolling_apply", "trailing_windows"]

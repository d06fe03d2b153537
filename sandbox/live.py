"""The process's sandbox sessions: the one piece of process-wide state the sandbox keeps.

`LIVE` knows where sessions keep their writable areas (resolved once, on first use, from
`DGM_SANDBOX_DIR`, else `<tmp>/dgm-sandbox`) and which sessions are open. It registers one
exit hook, with the first session, that closes every session still open when the process
exits, so nothing a sandbox started outlives the run that started it."""

from __future__ import annotations

import atexit
import logging
import os
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Session

log = logging.getLogger(__name__)


class LiveSessions:
    """Open sessions and their home. Sessions are held strongly until they close: one that
    is dropped without `close()` is still closed when the process exits."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: set[Session] = set()
        self._root: Path | None = None
        self._exit_hook = False

    def root(self) -> Path:
        """Where sessions keep their writable areas (one directory per session)."""
        with self._lock:
            if self._root is None:
                self._root = Path(os.environ.get("DGM_SANDBOX_DIR") or Path(tempfile.gettempdir()) / "dgm-sandbox")
            # Made again if it went missing: a week-long run outlives tmp cleaners.
            self._root.mkdir(mode=0o711, parents=True, exist_ok=True)
            return self._root

    def add(self, session: Session) -> None:
        with self._lock:
            if not self._exit_hook:
                atexit.register(self.close_all)
                self._exit_hook = True
            self._open.add(session)

    def discard(self, session: Session) -> None:
        with self._lock:
            self._open.discard(session)

    def close_all(self) -> int:
        """Close every open session (the exit hook). Returns how many were open."""
        with self._lock:
            sessions = list(self._open)
        for session in sessions:
            try:
                session.close()
            except Exception:
                log.exception("closing sandbox session %s at exit failed", session.id)
        return len(sessions)


LIVE = LiveSessions()

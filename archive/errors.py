"""Errors raised by the archive. Each carries a message meant for a human."""

from __future__ import annotations


class ArchiveError(Exception):
    """Base class for every error the archive raises on purpose."""


class NotAnArchiveError(ArchiveError):
    """The file is missing, not SQLite, or not a dgm archive."""


class HostileSnapshotError(ArchiveError):
    """A snapshot tree or manifest breaks a safety rule; the message names the path."""

    def __init__(self, path: str, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(f"{path!r}: {reason}")


class SnapshotTooLargeError(HostileSnapshotError):
    """A snapshot tree is over one of the configured size limits."""


class CorruptBlobError(ArchiveError):
    """Stored blob content no longer matches its sha256."""

    def __init__(self, sha256: str, reason: str):
        self.sha256 = sha256
        super().__init__(f"blob {sha256[:12]}… is corrupt: {reason}")


class UnknownRecordError(ArchiveError, KeyError):
    """A node, snapshot, job or blob id that the archive does not hold."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class JobStateError(ArchiveError):
    """A job transition that its current state does not allow."""

"""The archive: every agent a run makes, stored as content-addressed snapshots in SQLite."""

from .errors import (
    ArchiveError,
    CorruptBlobError,
    HostileSnapshotError,
    JobStateError,
    NotAnArchiveError,
    SnapshotTooLargeError,
    UnknownRecordError,
)
from .manifest import SnapshotLimits
from .records import (
    ArchiveStats,
    CladeStats,
    Epoch,
    Evaluation,
    Event,
    FmCall,
    Job,
    Judgement,
    ManifestEntry,
    Node,
    Problem,
    SnapshotInfo,
)
from .store import ARCHIVE_FILE, Archive

__all__ = [
    "ARCHIVE_FILE",
    "Archive",
    "ArchiveError",
    "ArchiveStats",
    "CladeStats",
    "CorruptBlobError",
    "Epoch",
    "Evaluation",
    "Event",
    "FmCall",
    "HostileSnapshotError",
    "Job",
    "JobStateError",
    "Judgement",
    "ManifestEntry",
    "Node",
    "NotAnArchiveError",
    "Problem",
    "SnapshotInfo",
    "SnapshotLimits",
    "SnapshotTooLargeError",
    "UnknownRecordError",
]

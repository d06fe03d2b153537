"""Content-addressed blobs: sha256 of the raw bytes, stored zlib-compressed, verified on read."""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable

import sqlite_utils

from .db import inserted
from .errors import CorruptBlobError, UnknownRecordError

COMPRESS_LEVEL = 6


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def put(db: sqlite_utils.Database, data: bytes, digest: str | None = None) -> int:
    """Store `data` once; return its row id. Call inside a write transaction."""
    digest = digest or sha256(data)
    row = db.execute("SELECT id FROM blobs WHERE sha256 = ?", [digest]).fetchone()
    if row:
        return int(row[0])
    cur = db.execute(
        "INSERT INTO blobs (sha256, size, data) VALUES (?, ?, ?)",
        [digest, len(data), zlib.compress(data, COMPRESS_LEVEL)],
    )
    return inserted(cur)


def decode(digest: str, size: int, stored: bytes) -> bytes:
    """Decompress a stored blob and prove it is the content its hash names."""
    try:
        data = zlib.decompress(stored)
    except zlib.error as exc:
        raise CorruptBlobError(digest, f"cannot decompress ({exc})") from exc
    if len(data) != size:
        raise CorruptBlobError(digest, f"size {len(data)} != recorded {size}")
    if sha256(data) != digest:
        raise CorruptBlobError(digest, "content does not match its sha256")
    return data


def get(db: sqlite_utils.Database, digest: str) -> bytes:
    row = db.execute("SELECT size, data FROM blobs WHERE sha256 = ?", [digest]).fetchone()
    if row is None:
        raise UnknownRecordError(f"no blob {digest}")
    return decode(digest, row[0], row[1])


def get_many(db: sqlite_utils.Database, ids: Iterable[int]) -> dict[int, bytes]:
    """Verified content of the blobs with these row ids."""
    wanted = sorted(set(ids))
    out: dict[int, bytes] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for blob_id, digest, size, stored in db.execute(
            f"SELECT id, sha256, size, data FROM blobs WHERE id IN ({marks})", chunk
        ):
            out[blob_id] = decode(digest, size, stored)
    missing = set(wanted) - out.keys()
    if missing:
        raise UnknownRecordError(f"missing blob rows {sorted(missing)[:5]}")
    return out

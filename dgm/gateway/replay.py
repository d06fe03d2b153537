"""The replay upstream: the replies recorded in a run's archive, keyed by request hash, so a
recorded run can be re-run offline. The k-th identical request gets the k-th recorded reply."""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any, ClassVar

from archive import Archive

from .upstream import UpstreamError, request_hash


class ReplayUpstream:
    name: ClassVar[str] = "replay"
    usage: ClassVar[str] = "replay:RUN_DIR"
    summary: ClassVar[str] = "the replies recorded in a run's archive"
    free: ClassVar[bool] = True  # the replies were paid for when recorded

    def __init__(self, run_dir: str | Path):
        self.source = Path(run_dir)
        self.archive = Archive.for_run(self.source, create=False, shared_between_threads=True)
        self.lock = threading.Lock()
        self.served: dict[str, int] = defaultdict(int)
        self.tool_calling = True
        self.note = f"replay of the model calls recorded in {self.source}"

    def models(self) -> list[str]:
        with self.lock:
            return sorted({c.model for c in self.archive.fm_calls() if c.status == "ok"}) or ["replay"]

    def complete(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        key = request_hash(request)
        with self.lock:
            recorded = [c for c in self.archive.fm_calls(request_hash=key) if c.status == "ok" and c.response_blob]
            index = self.served[key]
            if index >= len(recorded):
                raise UpstreamError(
                    f"replay: {self.source} holds {len(recorded)} reply(ies) for this request, "
                    f"and {index} were served already",
                    status=404,
                    retryable=False,
                )
            self.served[key] += 1
            return json.loads(self.archive.blob(recorded[index].response_blob))

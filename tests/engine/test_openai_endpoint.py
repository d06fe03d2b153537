"""`--fm auto` with OPENAI_BASE_URL set: the run goes through the openai upstream to that
endpoint (here a local HTTP server answering from the SCRIPTED test double)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from click.testing import CliRunner

from archive import Archive
from dgm.cli import main
from dgm.engine.config import auto_fm, resolve
from dgm.gateway.scripted import ScriptedUpstream
from tests.engine.conftest import SCRIPT


def serve(upstream: ScriptedUpstream) -> ThreadingHTTPServer:
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def _json(self, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._json({"object": "list", "data": [{"id": "endpoint-model", "object": "model", "owned_by": "x"}]})

        def do_POST(self) -> None:
            seen.append(self.headers.get("Authorization", ""))
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            self._json(upstream.complete(request, 60))

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.seen = seen
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_auto_picks_the_configured_endpoint():
    assert auto_fm({}) == "embedded"
    assert auto_fm({"OPENAI_API_KEY": "k"}) == "openai"
    assert auto_fm({"OPENAI_BASE_URL": "http://x/v1"}) == "openai:http://x/v1"  # recorded in the run
    assert auto_fm({"DGM_FM_URL": "http://y/v1", "OPENAI_API_KEY": "k"}) == "openai:http://y/v1"


def test_dgm_model_is_resolved_into_the_stored_config():
    endpoint = {"OPENAI_API_KEY": "k", "DGM_MODEL": "house-model"}
    assert resolve({}, {}, environ=endpoint).model == "house-model"
    assert resolve({}, {"model": "flag-model"}, environ=endpoint).model == "flag-model"
    assert resolve({}, {"fm": "local"}, environ=endpoint).model is None  # only an endpoint's model
    assert resolve({}, {}, environ={"DGM_MODEL": "house-model"}).model is None  # auto is local here


def test_the_endpoint_an_openai_run_reaches_is_recorded_in_its_config():
    assert resolve({}, {"fm": "openai"}, environ={"OPENAI_BASE_URL": "http://z/v1"}).fm == "openai:http://z/v1"
    assert resolve({}, {"fm": "openai:http://given/v1"}, environ={"OPENAI_BASE_URL": "http://z/v1"}).fm == (
        "openai:http://given/v1"
    )


def test_evolve_uses_an_openai_compatible_endpoint(bwrap, engine_env, tmp_path, monkeypatch):
    tasks, _ = engine_env
    server = serve(ScriptedUpstream(SCRIPT))
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{server.server_port}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-endpoint-key")
    run = tmp_path / "run"
    result = CliRunner().invoke(
        main,
        [
            "evolve",
            "--run",
            str(run),
            "--benchmark",
            f"taskdir:{tasks}",
            "--max-expansions",
            "1",
            "--max-evals",
            "6",
            "--workers",
            "2",
        ],
    )
    server.shutdown()
    assert result.exit_code == 0, result.output
    with Archive.for_run(run) as ar:
        assert ar.run_config()["fm"] == f"openai:http://127.0.0.1:{server.server_port}/v1"
        models = {c.model for c in ar.fm_calls()}
        assert models == {"endpoint-model"}
        assert len(ar.nodes()) == 2
    assert set(server.seen) == {"Bearer sk-endpoint-key"}  # the real key went to the endpoint, from the host

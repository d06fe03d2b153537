"""The real openai client inside a real (bwrap) sandbox reaches the model only through the
gateway socket, with a job token; the host's key never shows up inside."""

from __future__ import annotations

import json
import os
import secrets

from dgm.gateway import Budget
from sandbox import Limits, Mount, SandboxSpec
from tests.gateway.conftest import HELLO

CLIENT = """
import json, os, sys
import httpx2, openai
client = openai.OpenAI(base_url="http://dgm-gateway/v1", max_retries=0,
                       http_client=httpx2.Client(transport=httpx2.HTTPTransport(uds=os.environ["DGM_FM_SOCKET"])))
out = {}
try:
    reply = client.chat.completions.create(model="default", messages=[{"role": "user", "content": "hi"}])
    out["plain"] = reply.choices[0].message.content
    stream = client.chat.completions.create(model="default", messages=[{"role": "user", "content": "hi"}],
                                            stream=True)
    out["streamed"] = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    client.chat.completions.create(model="default", messages=[{"role": "user", "content": "hi"}])
except openai.APIStatusError as exc:
    out["error"] = [exc.status_code, exc.message]
print(json.dumps(out))
"""


def run_client(backend, gateway, token, script=CLIENT, **env):
    spec = SandboxSpec(socket=gateway.socket_path, env={"OPENAI_API_KEY": token, **env}, limits=Limits(wall_s=120))
    with backend.start(spec) as session:
        result = session.exec(["python3", "-c", script])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_openai_client_in_sandbox_completes_through_the_gateway(bwrap, make_gateway, tmp_path):
    gw = make_gateway(HELLO)
    with gw.archive_lock:
        node = gw.archive.add_node(None, gw.archive.add_snapshot(tmp_path))
        job = gw.archive.jobs.enqueue("expand", {})
    out = run_client(bwrap, gw, gw.issue_token(job_id=job.id, node_id=node.id))
    assert out == {"plain": "hello from the script", "streamed": "hello from the script"}
    rows = gw.archive.fm_calls(job_id=job.id)
    assert len(rows) == 3
    assert {(r.job_id, r.node_id, r.status) for r in rows} == {(job.id, node.id, "ok")}


def test_budget_exhaustion_reaches_the_agent_as_a_clear_error(bwrap, make_gateway):
    gw = make_gateway(HELLO)
    out = run_client(bwrap, gw, gw.issue_token(budget=Budget(tokens=15)))
    assert out["error"][0] == 429
    assert "job's budget of 15 tokens" in out["error"][1]
    assert [e.data["scope"] for e in gw.archive.events("budget_exhausted")] == ["job"]


def test_the_hosts_real_key_appears_nowhere_inside(bwrap, make_gateway, monkeypatch, tmp_path):
    real_key = "sk-host-real-" + secrets.token_hex(20)
    monkeypatch.setenv("OPENAI_API_KEY", real_key)
    gw = make_gateway(HELLO)
    token = gw.issue_token()
    # The probe gets the key reversed, so its own command line does not contain it.
    probe = f"""
import os
key = {real_key[::-1]!r}[::-1].encode()
found = []
if key in repr(dict(os.environ)).encode(): found.append("environment")
for pid in filter(str.isdigit, os.listdir("/proc")):
    for name in ("environ", "cmdline"):
        try:
            if key in open(f"/proc/{{pid}}/{{name}}", "rb").read(): found.append(f"/proc/{{pid}}/{{name}}")
        except OSError: pass
for top, dirs, files in os.walk("/"):
    if top == "/":
        dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev")]
    for name in files:
        path = os.path.join(top, name)
        try:
            if os.path.isfile(path) and not os.path.islink(path) and key in open(path, "rb").read():
                found.append(path)
        except OSError: pass
print("FOUND" if found else "CLEAN", found, os.environ.get("OPENAI_API_KEY"))
"""
    spec = SandboxSpec(
        socket=gw.socket_path,
        env={"OPENAI_API_KEY": token},
        mounts=(Mount("/work", None, writable=True),),
        limits=Limits(wall_s=300),
    )
    with bwrap.start(spec) as session:
        result = session.exec(["python3", "-c", probe])
    assert result.stdout.startswith("CLEAN"), result.stdout + result.stderr
    assert result.stdout.strip().endswith(token)  # the sandbox holds the job token instead
    assert os.environ["OPENAI_API_KEY"] == real_key

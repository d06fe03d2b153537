from logscan import errors_report, format_record, render_summary, scan, summarize

LOG = [
    "???",
    "2024-03-01 12:00:00,001 INFO [app] starting",
    "2024-03-01 12:00:03,004 ERROR [worker] job 7 failed",
    "2024-03-01 12:00:04,005 CRITICAL [app] out of memory",
]


def test_format_record():
    record = scan(LOG).records[0]
    assert format_record(record) == "2024-03-01 12:00:00,001 INFO     [app] starting"


def test_summary():
    counts = summarize(scan(LOG))
    assert counts == {"DEBUG": 0, "INFO": 1, "WARNING": 0, "ERROR": 1, "CRITICAL": 1, "malformed": 1}
    assert render_summary(counts).splitlines()[0] == "debug    : 0"


def test_errors_report():
    assert errors_report(scan(LOG)) == (
        "2024-03-01 12:00:03,004 ERROR    [worker] job 7 failed\n"
        "2024-03-01 12:00:04,005 CRITICAL [app] out of memory"
    )

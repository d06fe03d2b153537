from logscan import by_logger, min_level, scan, scan_file

LOG = """\
garbage line
2024-03-01 12:00:00,001 INFO [app] starting

2024-03-01 12:00:01,002 DEBUG [app.db] connecting
2024-03-01 12:00:02,003 WARNING [app.db] slow query
2024-03-01 12:00:03,004 ERROR [worker] job 7 failed
"""


def test_scan():
    result = scan(LOG.splitlines(keepends=True))
    assert [r.level for r in result.records] == ["INFO", "DEBUG", "WARNING", "ERROR"]
    assert [r.lineno for r in result.records] == [2, 4, 5, 6]
    assert result.malformed == [1]


def test_scan_file(tmp_path):
    path = tmp_path / "service.log"
    path.write_text(LOG, encoding="utf-8")
    assert len(scan_file(path).records) == 4


def test_filters():
    records = scan(LOG.splitlines()).records
    assert [r.lineno for r in min_level(records, "warning")] == [5, 6]
    assert [r.logger for r in by_logger(records, "app")] == ["app", "app.db", "app.db"]

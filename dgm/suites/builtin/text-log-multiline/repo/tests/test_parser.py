from logscan import LogRecord, parse_line


def test_parse_line():
    record = parse_line("2024-03-01 12:00:01,123 ERROR [app.db] connection lost\n", 7)
    assert record == LogRecord("2024-03-01 12:00:01,123", "ERROR", "app.db", "connection lost", 7)
    assert record.is_error


def test_iso_timestamp_and_aliases():
    record = parse_line("2024-03-01T12:00:01.5 WARN [worker] slow job")
    assert record.level == "WARNING"
    assert parse_line("2024-03-01 12:00:01 FATAL [x] boom").level == "CRITICAL"


def test_not_log_lines():
    assert parse_line("hello world") is None
    assert parse_line("  File \"app.py\", line 3, in <module>") is None
    assert parse_line("2024-03-01 12:00:01 LOUD [x] unknown level") is None

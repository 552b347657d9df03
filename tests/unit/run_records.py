"""Run records for unit tests: a RunRecord with every required field filled in, the test's fields over them.

Readers take typed records (RunRecord), as read_results gives them; a test names only the fields it is about."""

from typing import Any

from pytest_gameworld.records.run_record import RunRecord

REQUIRED: dict[str, Any] = {"task": "01_01", "game": "01-2048", "genre": "puzzle", "level": 4, "model": "m",
                            "interface": "generalist", "protocol": "paused", "role": "player", "seed": 0,
                            "repeat": 0, "started_at": "2026-12-03T00:00:00+00:00", "status": "ok"}


def record(**fields: Any) -> RunRecord:
    """A record of these fields (ValidationError for a value the record's field types refuse)."""
    values = {**REQUIRED, **fields}
    values.setdefault("item", f"tests/test_gameworld.py::test_task[{values['task']}-{values['model']}]")
    return RunRecord.from_json(values)

"""Progress: tailing step records as they grow, finding the run's own attempt, session figures, output sharing."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from pytest_gameworld.report import live_progress


def step(n: int, score: float, best: float, prog: float, tokens: tuple[int, int] = (0, 0), cost: float = 0.0) -> str:
    return json.dumps({"event": "step", "step": n, "score": score, "best": best, "progress": prog,
                       "usage": {"input_tokens": tokens[0], "output_tokens": tokens[1], "cached_tokens": 0},
                       "cost_usd": cost}) + "\n"


def test_a_tail_reads_each_complete_line_once_and_waits_for_a_partial_one(tmp_path: Path):
    path = tmp_path / "steps.jsonl"
    tail = live_progress.StepTail(path)
    assert tail.read() == []  # not there yet
    line = step(0, 1, 1, 0.1)
    path.write_text('{"event": "start"}\n' + line[:10])
    assert [r["event"] for r in tail.read()] == ["start"]
    with path.open("a") as fh:
        fh.write(line[10:])
    assert [r["step"] for r in tail.read()] == [0]
    assert tail.read() == []


def test_a_flight_follows_its_new_attempt_not_an_earlier_finished_one(tmp_path: Path):
    root = tmp_path / "run"
    old = root / "attempt-1"
    old.mkdir(parents=True)
    (old / "steps.jsonl").write_text(step(0, 9, 9, 0.9) + '{"event": "end", "status": "ok"}\n')
    flight = live_progress.start_flight("x[m]", 10, root)
    flight.poll()
    assert flight.step == 0 and flight.tail is None  # the ended attempt is someone else's
    new = root / "attempt-2"
    new.mkdir()
    (new / "steps.jsonl").write_text(step(0, 2, 2, 0.2, (100, 20), 0.01) + step(1, 1, 2, 0.2, (50, 5), 0.005))
    flight.poll()
    assert (flight.step, flight.score, flight.best, flight.progress) == (2, 1, 2, 0.2)
    assert flight.tokens == 175 and flight.cost == pytest.approx(0.015)


def test_an_attempt_made_before_the_start_was_noticed_is_still_followed(tmp_path: Path):
    """Under xdist the worker may create the attempt before the controller hears the run started."""
    att = tmp_path / "run" / "attempt-3"
    att.mkdir(parents=True)
    (att / "steps.jsonl").write_text('{"event": "start"}\n')
    flight = live_progress.start_flight("x[m]", 10, tmp_path / "run")
    with (att / "steps.jsonl").open("a") as fh:
        fh.write(step(0, 5, 5, 0.5))
    flight.poll()
    assert flight.step == 1 and flight.score == 5


def test_co_op_steps_count_every_role_tokens(tmp_path: Path):
    att = tmp_path / "attempt-1"
    att.mkdir()
    rec = {"event": "step", "step": 0, "score": 0, "best": 0, "progress": 0.0, "cost_usd": 0.02,
           "roles": {"a": {"usage": {"input_tokens": 10, "output_tokens": 1}},
                     "b": {"usage": {"input_tokens": 20, "output_tokens": 2}}}}
    (att / "steps.jsonl").write_text(json.dumps(rec) + "\n")
    flight = live_progress.start_flight("x", 5, tmp_path)
    flight.poll()
    assert flight.tokens == 33 and flight.cost == pytest.approx(0.02)


def test_session_line_counts_done_runs_tokens_spend_and_an_eta(tmp_path: Path):
    state = live_progress.SessionProgress(started=100.0, total=4)
    for name in ("a", "b"):
        (tmp_path / name / "attempt-1").mkdir(parents=True)
        state.begin(live_progress.start_flight(name, 10, tmp_path / name))
    (tmp_path / "a" / "attempt-1" / "steps.jsonl").write_text("".join(step(i, i, i, 0.1, (10, 0), 0.001)
                                                                      for i in range(10)))
    (tmp_path / "b" / "attempt-1" / "steps.jsonl").write_text(step(0, 0, 0, 0.0, (5, 5), 0.0))
    state.poll()
    state.end("a")  # 10 steps, 100 tokens
    line, flights = state.snapshot(now=130.0)
    assert [f.item for f in flights] == ["b"]
    # 1 run done + b at 1/10 = 1.1 runs of work in 30 s; 2.9 runs left.
    assert line == ("runs 1/4 done · 1 in flight · elapsed 0:00:30 · ETA 0:01:19 · tokens 110 · $0.0100")
    assert "step 1/10" in live_progress.flight_line(flights[0])
    assert "ETA ?" in live_progress.SessionProgress(started=0.0).snapshot(5.0)[0]


def test_a_run_started_ahead_is_in_flight_before_pytest_reaches_its_item(tmp_path: Path):
    (tmp_path / "a" / "attempt-1").mkdir(parents=True)  # an earlier session's finished attempt
    (tmp_path / "a" / "attempt-1" / "steps.jsonl").write_text(json.dumps({"event": "end"}) + "\n")
    state = live_progress.SessionProgress(started=0.0, total=2)
    state.expect([live_progress.start_flight(n, 10, tmp_path / n) for n in ("a", "b")])
    state.poll(now=5.0)
    assert state.snapshot(5.0)[1] == [], "nothing started yet: the old attempt is not this session's"
    (tmp_path / "b" / "attempt-1").mkdir(parents=True)  # the worker started b's run (--gw-concurrency)
    (tmp_path / "b" / "attempt-1" / "steps.jsonl").write_text(step(0, 0, 0, 0.0, (5, 5), 0.0))
    state.poll(now=10.0)
    assert [f.item for f in state.snapshot(10.0)[1]] == ["b"] and state.flights["b"].step == 1
    state.end("b")
    assert state.snapshot(11.0)[0].startswith("runs 1/2 done · 0 in flight")


def test_plain_progress_lines_start_on_a_line_of_their_own():
    buf = io.StringIO()
    out = live_progress.LineOut(buf)
    out.write("...")
    out.note(["[gameworld] runs 1/2 done"])
    out.write(".")
    out.note(["[gameworld] runs 2/2 done"])
    assert buf.getvalue() == "...\n[gameworld] runs 1/2 done\n.\n[gameworld] runs 2/2 done\n"


def test_live_mode_prints_whole_lines_above_the_live_area_and_hands_back_a_partial_one():
    from rich.console import Console

    buf = io.StringIO()
    out = live_progress.LineOut(buf, Console(file=buf, force_terminal=False, width=80))
    out.write("PASSED a\nPASS")
    assert buf.getvalue() == "PASSED a\n"
    out.release()
    assert buf.getvalue() == "PASSED a\nPASS"


@pytest.mark.parametrize("setting, verbosity, tty, mode", [
    ("auto", 0, True, "live"), ("auto", 0, False, "plain"), ("auto", -1, True, "off"), ("auto", 1, False, "plain"),
    ("plain", 0, True, "plain"), ("off", 2, True, "off"), ("live", -1, False, "live"),
])
def test_the_mode_follows_the_terminal_and_quiet(setting, verbosity, tty, mode):
    assert live_progress.choose_mode(setting, verbosity, tty) == mode


def test_plain_display_writes_periodic_lines_from_its_thread(tmp_path: Path):
    clock = iter(float(i) for i in range(1000))
    state = live_progress.SessionProgress(started=0.0, total=1)
    buf = io.StringIO()
    display = live_progress.Display(state, live_progress.LineOut(buf), live=False, interval=2.0, now=lambda: next(clock))
    display.stopping.wait = lambda timeout: display.stopping.is_set() or len(buf.getvalue().splitlines()) >= 2
    display.thread.start()
    display.thread.join(timeout=5)
    assert buf.getvalue().splitlines()[0].startswith("[gameworld] runs 0/1 done")


def test_an_unknown_progress_mode_names_the_option_and_the_choices():
    from pytest_gameworld.plugin.options import _progress_mode

    assert _progress_mode("LIVE") == "live" and _progress_mode("") == "auto"
    with pytest.raises(ValueError, match=r"gw_progress: invalid value 'fancy'; expected one of auto, live, plain, off"):
        _progress_mode("fancy")

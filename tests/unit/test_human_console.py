"""`gameworld human`'s pure parts: what the page may send, what it becomes, and where human rows go."""

from __future__ import annotations

import socket
import urllib.request

import pytest
from run_records import record

from pytest_gameworld.agents import human_console
from pytest_gameworld.agents.human import proposal_for
from pytest_gameworld.agents.human_console import Console, Input, read_input
from pytest_gameworld.catalog.loader import load_catalog
from pytest_gameworld.cli import USAGE_ERROR, main
from pytest_gameworld.play.semantic import classify
from pytest_gameworld.report.aggregate import aggregate, table_cells
from pytest_gameworld.report.results_page import page_data, published_human_lines, render


@pytest.mark.parametrize("body", [b"", b"nonsense", b"[]", b'{"kind": "key", "key": "a"}',
                                  b'{"version": 1, "kind": "key", "key": ""}',
                                  b'{"version": 1, "kind": "key", "key": "' + b"x" * 40 + b'"}',
                                  b'{"version": 1, "kind": "click", "x": true, "y": 2}',
                                  b'{"version": 1, "kind": "drag", "x": 1, "y": 2}', b"\xff\xfe"])
def test_the_page_sends_keys_and_clicks_only(body):
    assert read_input(body) is None


def test_page_events_become_the_computer_use_calls_a_model_would_make():
    role = load_catalog().games["01-2048"].roles["player"]
    vp = load_catalog().games["01-2048"].viewport
    up = classify([proposal_for(read_input(b'{"version": 3, "kind": "key", "key": "ArrowUp"}'))], "cua", role, vp)
    assert up.validity == "valid" and up.action.keys == ("ArrowUp",) and up.action.duration_ms == 200
    enter = classify([proposal_for(Input(3, "key", key="Enter"))], "cua", role, vp)
    assert enter.validity == "oos" and enter.reason == "key 'Enter' is not allowed"
    click = classify([proposal_for(Input(3, "click", x=10, y=20))], "cua", role, vp)
    assert (click.validity, click.action.kind, click.action.x, click.action.y) == ("valid", "click", 10, 20)
    outside = classify([proposal_for(Input(3, "right_click", x=5000, y=20))], "cua", role, vp)
    assert outside.validity == "oos"


def test_input_for_an_earlier_view_is_not_the_next_action():
    console = Console(0, window=False)
    try:
        first = console.show({"step": 0})
        console.inputs.put_nowait(Input(first, "key", key="a"))
        second = console.show({"step": 1})
        assert console.next_input(second) is None, "a key pressed for the last frame is not this step's action"
        console.inputs.put_nowait(Input(second, "key", key="b"))
        assert console.next_input(second) == Input(second, "key", key="b")
        assert console.view_after(first, timeout_s=0)["step"] == 1
    finally:
        console.close()


def test_measured_humans_head_the_table_and_the_published_humans_are_marked():
    rec = {"item": "i", "task": "01_01", "repeat": 0, "seed": 1, "protocol": "paused", "status": "ok",
           "success": True, "progress": 1.0, "genre": "puzzle", "game": "01-2048", "level": 4, "interface": "cua",
           "invalid_ntc": 0, "invalid_oos": 0, "valid": 1, "steps": 1, "sec_per_step": 1.0}
    rows = table_cells(aggregate([record(**{**rec, "model": "a-model"}), record(**{**rec, "model": "human:zoe"})]))
    assert [r[0] for r in rows[1:]] == ["human:zoe (measured human)", "a-model (cua)"]
    page = render(page_data("s", [record(**{**rec, "model": "a-model"}), record(**{**rec, "model": "human:zoe"})], None), "now")
    table = page[page.index('<table class="t6">'):]
    assert table.index("human:zoe") < table.index("a-model") < table.index("Novice human")
    assert '<span class="tag">measured human</span> human:zoe' in table
    assert '<span class="tag">published</span> Expert human' in table
    lines = published_human_lines()
    assert "not measured here" in lines[0]
    assert lines[1:] == ["  [published] Novice human: 45.7/55.5  60.0/65.6  51.4/63.1  60.0/72.0  60.0/62.0  55.3/64.1",
                         "  [published] Expert human: 65.7/73.9  85.0/88.0  68.6/77.1  82.5/87.8  85.0/86.0  77.1/82.6"]


def test_a_human_is_named_like_a_replay_and_waits_boundedly():
    spec = load_catalog().resolve_model("human:zoe")
    assert (spec.name, spec.builtin, spec.interface) == ("human:zoe", "human", "cua")
    assert 0 < spec.step_timeout_s <= 3600


def test_the_printed_port_is_held_from_the_start_and_served_on_by_the_console():
    """`gameworld human` prints its URL before the first game loads; a browser that comes early waits for the page
    instead of finding nothing there (or another program that took the port meanwhile)."""
    port = human_console.reserve_port(0)
    with pytest.raises(OSError):
        socket.create_server(("127.0.0.1", port))  # nobody else can take it now
    console = human_console.Console(port, window=False)
    try:
        assert console.url == f"http://127.0.0.1:{port}/" and human_console._RESERVED is None
        with urllib.request.urlopen(console.url + "view?after=-1", timeout=10) as reply:
            assert reply.status == 200
    finally:
        console.close()


def test_a_port_in_use_is_a_clear_usage_error(capsys):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["human", "01_01", "--name", "x", "--no-window", "--port", str(port)]) == USAGE_ERROR
    assert f"cannot serve the page on 127.0.0.1:{port}" in capsys.readouterr().err

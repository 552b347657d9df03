"""Live progress of a session, read from the step records the runs already write (no extra page calls).

The controller learns which runs are in flight from pytest's logstart/logfinish hooks (xdist forwards
them from the workers) and from the attempt folders runs started ahead create (--gw-concurrency: a worker plays
several runs before pytest reports them); it tails each such run's steps.jsonl; nothing is sent by the workers.
"""

from __future__ import annotations

import io
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..records.run_events import END, STEP
from .aggregate import whole_percent

ATTEMPT = "attempt-"


def _attempts(root: Path) -> list[Path]:
    """A run's attempt folders, oldest first."""
    try:
        found = [p for p in root.iterdir() if p.name.startswith(ATTEMPT) and p.name[len(ATTEMPT):].isdigit()]
    except OSError:
        return []
    return sorted(found, key=lambda p: int(p.name[len(ATTEMPT):]))


def _ended(steps: Path) -> bool:
    """Whether a trajectory's last line is its end event (an earlier, finished attempt)."""
    try:
        with steps.open("rb") as fh:
            fh.seek(0, 2)
            fh.seek(max(0, fh.tell() - 65536))
            last = fh.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
        return json.loads(last).get("event") == END
    except (OSError, ValueError, AttributeError):
        return False


class StepTail:
    """Reads a steps.jsonl as it grows: only complete lines, each once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.partial = b""

    def read(self) -> list[dict[str, Any]]:
        try:
            with self.path.open("rb") as fh:
                fh.seek(self.offset)
                data = fh.read()
        except OSError:
            return []
        self.offset += len(data)
        *lines, self.partial = (self.partial + data).split(b"\n")
        out = []
        for line in lines:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict):
                out.append(rec)
        return out


def _usage(rec: dict[str, Any]) -> tuple[int, float]:
    """Tokens and dollars of one step record (one role, or every role of a co-op step)."""
    turns = list(rec["roles"].values()) if isinstance(rec.get("roles"), dict) else [rec]
    tokens = 0
    for t in turns:
        u = t.get("usage") or {}
        tokens += int(u.get("input_tokens", 0)) + int(u.get("output_tokens", 0))
    return tokens, float(rec.get("cost_usd") or 0.0)


@dataclass
class Flight:
    """One run in flight, as far as its step records tell."""

    item: str
    max_steps: int
    root: Path
    finished_before: set[str]
    step: int = 0
    score: float | None = None
    best: float | None = None
    progress: float = 0.0
    tokens: int = 0
    cost: float = 0.0
    tail: StepTail | None = None

    def poll(self) -> None:
        if self.tail is None:
            fresh = [p for p in _attempts(self.root) if p.name not in self.finished_before]
            if not fresh:
                return
            self.tail = StepTail(fresh[-1] / "steps.jsonl")
        for rec in self.tail.read():
            if rec.get("event") != STEP:
                continue
            self.step = int(rec.get("step", 0)) + 1
            self.score, self.best = rec.get("score"), rec.get("best")
            self.progress = max(self.progress, float(rec.get("progress") or 0.0))
            tokens, cost = _usage(rec)
            self.tokens += tokens
            self.cost += cost


def start_flight(item: str, max_steps: int, root: Path) -> Flight:
    """A run just started: attempts that already ended belong to earlier sessions, not to it."""
    done = {p.name for p in _attempts(root) if _ended(p / "steps.jsonl")}
    return Flight(item, max_steps, root, done)


def clock(seconds: float) -> str:
    s = int(max(0.0, seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:g}"


@dataclass
class SessionProgress:
    """Runs done, in flight, tokens and spend of a session; shared by the hooks and the display thread."""

    started: float
    total: int | None = None
    done: int = 0
    tokens: int = 0
    cost: float = 0.0
    unpriced: bool = False  # a model of the session has no price: the spend shown is only the priced runs'
    flights: dict[str, Flight] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    waiting: dict[str, Flight] = field(default_factory=dict)  # planned runs not seen starting yet
    looked: float = 0.0

    def expect(self, flights: list[Flight]) -> None:
        """The session's runs, before any starts: a run is in flight as soon as a fresh attempt folder of it
        appears, whether pytest has reached its item yet or not."""
        with self.lock:
            self.waiting.update({f.item: f for f in flights if f.item not in self.flights})

    def begin(self, flight: Flight) -> None:
        with self.lock:
            self.waiting.pop(flight.item, None)
            if flight.item not in self.flights:
                self.flights[flight.item] = flight

    def end(self, item: str) -> None:
        with self.lock:
            self.waiting.pop(item, None)
            flight = self.flights.pop(item, None)
            self.done += 1
            if flight is not None:
                flight.poll()  # the run's last steps, written before its report
                self.tokens += flight.tokens
                self.cost += flight.cost

    def poll(self, now: float | None = None) -> None:
        with self.lock:
            now = time.monotonic() if now is None else now
            if self.waiting and now - self.looked >= 1.0:  # a folder listing per waiting run, once a second
                self.looked = now
                for item, f in list(self.waiting.items()):
                    if any(p.name not in f.finished_before for p in _attempts(f.root)):
                        self.flights[item] = self.waiting.pop(item)
            for f in self.flights.values():
                f.poll()

    def snapshot(self, now: float) -> tuple[str, list[Flight]]:
        """The session line and the runs in flight, consistent with each other."""
        with self.lock:
            flights = list(self.flights.values())
            tokens = self.tokens + sum(f.tokens for f in flights)
            cost = self.cost + sum(f.cost for f in flights)
            unpriced = self.unpriced
            elapsed = now - self.started
            work = self.done + sum(min(1.0, f.step / f.max_steps) for f in flights if f.max_steps)
            total = self.total
        eta = "?"
        if total is not None and work > 0:
            eta = clock(elapsed * max(0.0, total - work) / work)
        line = (f"runs {self.done}/{'?' if total is None else total} done · {len(flights)} in flight · "
                f"elapsed {clock(elapsed)} · ETA {eta} · tokens {tokens:,} · {spend(cost, unpriced)}")
        return line, flights


def spend(cost: float, unpriced: bool) -> str:
    """The session's spend: a run whose model has no price adds an unknown amount, never $0."""
    if not unpriced:
        return f"${cost:.4f}"
    return f"${cost:.4f} + n/a (price unknown)" if cost else "$ n/a (price unknown)"


def flight_figures(f: Flight) -> str:
    """Score and progress of a run, or that it is still loading its game."""
    if f.score is None:
        return "starting"
    return f"score {_num(f.score)} (best {_num(f.best)})  progress {whole_percent(f.progress)}%"


def flight_line(f: Flight) -> str:
    return f"{f.item}  step {f.step}/{f.max_steps}  {flight_figures(f)}"


class LineOut:
    """Stands in for the terminal writer's file while progress is shown, so both never tear each other's lines.

    Live: complete lines are printed through the rich console (above the live area); a partial line waits.
    Plain: writes pass through under a lock, and a progress line first closes any open line.
    """

    def __init__(self, file: IO[str], console: Any = None) -> None:
        self.file, self.console = file, console
        self.lock = threading.RLock()
        self.pending = ""
        self.open_line = False

    def write(self, text: str) -> int:
        with self.lock:
            if self.console is None:
                self.file.write(text)
                if text:
                    self.open_line = not text.endswith("\n")
                return len(text)
            *lines, self.pending = (self.pending + text).split("\n")
            if lines:
                from rich.text import Text

                self.console.print(Text("\n").join(Text.from_ansi(ln) for ln in lines), soft_wrap=True)
            return len(text)

    def note(self, lines: list[str]) -> None:
        """Progress lines (plain mode) on lines of their own."""
        with self.lock:
            self.file.write(("\n" if self.open_line else "") + "\n".join(lines) + "\n")
            self.file.flush()
            self.open_line = False

    def release(self) -> None:
        """Back to the real file: a partial line still waiting is written as it was."""
        with self.lock:
            if self.pending:
                self.file.write(self.pending)
                self.pending = ""
            self.file.flush()

    def flush(self) -> None:
        with self.lock:
            if self.console is None:
                self.file.flush()

    def isatty(self) -> bool:
        return self.file.isatty()

    def fileno(self) -> int:
        return self.file.fileno()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.file, name)


class Display:
    """A thread that polls the runs in flight and shows them: a rich Live area, or plain lines every interval."""

    def __init__(self, state: SessionProgress, out: LineOut, live: bool, interval: float = 10.0,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.state, self.out, self.live_mode = state, out, live
        self.interval, self.now = interval, now
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="gameworld-progress", daemon=True)
        self.live: Any = None

    def render(self) -> Any:
        from rich.console import Group
        from rich.progress_bar import ProgressBar
        from rich.table import Table
        from rich.text import Text

        line, flights = self.state.snapshot(self.now())
        grid = Table.grid(padding=(0, 1))
        for _ in range(4):
            grid.add_column(no_wrap=True)
        for f in sorted(flights, key=lambda f: f.item):
            grid.add_row(Text(f.item, style="cyan", overflow="ellipsis"),
                         ProgressBar(total=max(1, f.max_steps), completed=f.step, width=16),
                         f"step {f.step}/{f.max_steps}", flight_figures(f))
        return Group(grid, Text(line, style="bold"))

    def start(self) -> None:
        if self.live_mode:
            from rich.live import Live

            self.live = Live(self.render(), console=self.out.console, auto_refresh=False, transient=True,
                             redirect_stdout=False, redirect_stderr=False)
            self.live.start()
        self.thread.start()

    def _loop(self) -> None:
        last = self.now()
        while not self.stopping.wait(0.25 if self.live_mode else 1.0):
            self.state.poll()
            if self.live_mode:
                with self.out.lock:
                    self.live.update(self.render(), refresh=True)
            elif self.now() - last >= self.interval:
                last = self.now()
                line, flights = self.state.snapshot(last)
                self.out.note([f"[gameworld] {line}", *(f"[gameworld]   {flight_line(f)}" for f in
                                                         sorted(flights, key=lambda f: f.item))])

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        if self.live is not None:
            with self.out.lock:
                self.live.stop()
        self.out.release()


def choose_mode(setting: str, verbosity: int, isatty: bool) -> str:
    """live, plain or off: auto is live on a terminal, plain lines otherwise, and off with -q."""
    if setting == "auto":
        if verbosity < 0:
            return "off"
        return "live" if isatty else "plain"
    return setting


def show(tw: Any, setting: str, verbosity: int, state: SessionProgress, interval: float) -> Callable[[], None]:
    """Start showing progress through pytest's terminal writer (its lines pass through us meanwhile); the stopper."""
    real = getattr(tw, "_file", None)
    mode = choose_mode(setting, verbosity, bool(real is not None and real.isatty()))
    if real is None or mode == "off":
        return lambda: None
    term = _own_handle(real)
    console = None
    if mode == "live":
        from rich.console import Console

        console = Console(file=term, force_terminal=True)
    out = LineOut(term, console)
    tw._file = out  # pytest has no public way to share its output; its writer keeps the file here
    display = Display(state, out, mode == "live", interval)
    display.start()

    def stop() -> None:
        display.stop()
        tw._file = real
        if term is not real:
            term.close()

    return stop


def _own_handle(real: IO[str]) -> IO[str]:
    """A handle on the terminal itself: without xdist a test runs with fd 1 captured, and the display
    thread writes during tests; a duplicate of the descriptor, taken now (capture suspended), still
    reaches the terminal then."""
    try:
        real.flush()
        return os.fdopen(os.dup(real.fileno()), "w", buffering=1, encoding=getattr(real, "encoding", None) or "utf-8",
                         errors="replace")
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        return real

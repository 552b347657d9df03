"""The processes of a subprocess session: the controller, its workers, their Playwright drivers and browsers.

A session started with `env()` carries a marker in its environment, which every process it starts inherits.
Chromium's zygote-forked helpers (renderers) may hide their environment, so a process also counts when it
is in the session (setsid) of a marked browser: Playwright starts each browser as a session leader.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path


def stat(pid: int) -> list[str] | None:
    """A process's /proc stat fields after its name: state, parent, process group, session, ...; None when gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()  # the name may hold spaces and parentheses


def alive(pid: int) -> bool:
    fields = stat(pid)
    return fields is not None and fields[0] != "Z"  # a zombie is dead, only not yet reaped


class SessionProcesses:
    def __init__(self) -> None:
        self.marker = f"GW_TEST_SESSION={uuid.uuid4().hex}".encode()
        self.browser_sessions: set[int] = set()

    def env(self) -> dict[str, str]:
        name, value = self.marker.decode().split("=", 1)
        return {**os.environ, name: value}

    def find(self) -> dict[int, str]:
        """pid → command line of every live process of the session (zombies left out)."""
        found: dict[int, str] = {}
        for entry in Path("/proc").iterdir():
            fields = stat(int(entry.name)) if entry.name.isdigit() else None
            if fields is None or fields[0] == "Z":
                continue
            pid, sid = int(entry.name), int(fields[3])
            try:
                marked = self.marker in (entry / "environ").read_bytes()
            except OSError:
                marked = False
            if marked and sid == pid:
                self.browser_sessions.add(sid)
            if marked or sid in self.browser_sessions:
                try:
                    found[pid] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
                except OSError:
                    continue  # it ended while we looked
        return found

    def below(self, root: int) -> set[int]:
        """The session's processes below root (its workers, drivers, browsers)."""
        parent = {pid: int(f[1]) for pid in self.find() if (f := stat(pid))}
        found, todo = set(), [root]
        while todo:
            p = todo.pop()
            kids = [c for c, pp in parent.items() if pp == p and c not in found]
            found.update(kids)
            todo.extend(kids)
        # A browser's helpers hang below it; one whose parent is gone still shares its session.
        sessions = found & self.browser_sessions
        found.update(c for c in parent if (f := stat(c)) and int(f[3]) in sessions)
        return found

    def browsers(self) -> dict[int, str]:
        return {p: c for p, c in self.find().items() if "chrom" in c}

    def wait_gone(self, pids: set[int] | None = None, timeout_s: float = 60.0) -> dict[int, str]:
        """Wait until none of these (default: any) session processes is alive; what is still alive."""
        deadline = time.monotonic() + timeout_s
        while True:
            alive = {p: c for p, c in self.find().items() if pids is None or p in pids}
            if not alive or time.monotonic() > deadline:
                return alive
            time.sleep(0.5)

    def kill_all(self) -> None:
        """Clean up after a failed test: only processes of this session."""
        for pid in self.find():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

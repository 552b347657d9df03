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


class SessionProcesses:
    def __init__(self) -> None:
        self.marker = f"GW_TEST_SESSION={uuid.uuid4().hex}".encode()
        self.browser_sessions: set[int] = set()

    def env(self) -> dict[str, str]:
        name, value = self.marker.decode().split("=", 1)
        return {**os.environ, name: value}

    def find(self) -> dict[int, str]:
        """pid → command line of every live process of the session (zombies left out)."""
        table: dict[int, tuple[int, str]] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                fields = stat[stat.rfind(")") + 2:].split()
                state, sid = fields[0], int(fields[3])
                if state == "Z":
                    continue
                try:
                    marked = self.marker in (entry / "environ").read_bytes()
                except OSError:
                    marked = False
                pid = int(entry.name)
                if marked and sid == pid:
                    self.browser_sessions.add(sid)
                if marked or sid in self.browser_sessions:
                    cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                    table[pid] = (sid, cmd.strip())
            except (OSError, ValueError, IndexError):
                continue  # it ended while we looked
        return {pid: cmd for pid, (_, cmd) in table.items()}

    def below(self, root: int) -> set[int]:
        """The session's processes below root (its workers, drivers, browsers)."""
        procs = self.find()
        parent = {}
        for pid in procs:
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                parent[pid] = int(stat[stat.rfind(")") + 2:].split()[1])
            except (OSError, ValueError):
                continue
        found, todo = set(), [root]
        while todo:
            p = todo.pop()
            kids = [c for c, pp in parent.items() if pp == p and c not in found]
            found.update(kids)
            todo.extend(kids)
        # A browser's helpers hang below it; one whose parent is gone still shares its session.
        sessions = {c for c in found if c in self.browser_sessions}
        found.update(c for c in procs if self._sid(c) in sessions)
        return found

    @staticmethod
    def _sid(pid: int) -> int | None:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            return int(stat[stat.rfind(")") + 2:].split()[3])
        except (OSError, ValueError):
            return None

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

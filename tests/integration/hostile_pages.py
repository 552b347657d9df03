"""Scratch catalogs of hostile pages: copies of the shipped 01-2048 game, each with one extra script.

Built at test time (never shipped): a page that hangs in a frame callback, in getState or in init, a page
whose workers try to reach a loopback port, a page whose state is huge, a page that never loads, a page solved at
load, a page that swaps its gameAPI. Each copy is a game of its own (9N-<name>) with the 01_01 task;
`build_catalog` puts the chosen ones, and the untouched 01-2048, in one catalog.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pytest_gameworld.catalog.native import default_catalog_dir

SOURCE_GAME = "01-2048"

# After the first key press, a frame callback never returns: the clock's advance hangs in the page.
RAF_LOOP = """
window.addEventListener("keydown", () => { requestAnimationFrame(() => { for (;;) {} }); }, {once: true});
"""

# After the first key press, getState never returns.
GETSTATE_LOOP = """
(() => {
  let pressed = false;
  window.addEventListener("keydown", () => { pressed = true; });
  const own = window.gameAPI.getState.bind(window.gameAPI);
  window.gameAPI.getState = () => { if (pressed) { for (;;) {} } return own(); };
})();
"""

# init's promise never settles.
INIT_NEVER = """
window.gameAPI.init = () => new Promise(() => {});
"""

# The page never finishes loading.
LOAD_LOOP = """
for (;;) {}
"""

# Every state carries 10 MB of padding.
HUGE_STATE = """
(() => {
  const own = window.gameAPI.getState.bind(window.gameAPI);
  const pad = "x".repeat(10 * 1024 * 1024);
  window.gameAPI.getState = () => Object.assign(own(), {padding: pad});
})();
"""

# A dedicated worker (which starts a nested one) and a shared worker; each opens a WebSocket and a fetch
# to a loopback port. Each names itself in the host (<who>.localhost), so the blocked log says which tried.
WORKERS = """
new Worker("hostile-worker.js?who=dedicated&nest=1");
new SharedWorker("hostile-worker.js?who=shared");
"""
WORKER_SCRIPT = """
const q = new URLSearchParams(location.search);
const who = q.get("who");
const target = `${who}.localhost:%(port)d`;
try { const ws = new WebSocket(`ws://${target}/ws`); ws.onerror = () => {}; } catch (e) {}
fetch(`http://${target}/fetch`).catch(() => {});
if (q.get("nest")) new Worker("hostile-worker.js?who=nested");
"""

# The state reports the task's target (a 32 tile) from load on: "solved" before any action.
SOLVED_AT_LOAD = """
(() => {
  const own = window.gameAPI.getState.bind(window.gameAPI);
  window.gameAPI.getState = () => {
    const s = own();
    s.game_state = Object.assign({}, s.game_state, {level: 32});
    return s;
  };
})();
"""

# After the first key press, window.gameAPI is another object whose state claims a 4096 tile.
SWAP_API = """
window.addEventListener("keydown", () => {
  const real = window.gameAPI;
  window.gameAPI = Object.assign({}, real, {getState: () => {
    const s = real.getState();
    s.game_state = Object.assign({}, s.game_state, {level: 4096});
    return s;
  }});
}, {once: true});
"""

# The score field is NaN from load on.
NAN_SCORE = """
(() => {
  const own = window.gameAPI.getState.bind(window.gameAPI);
  window.gameAPI.getState = () => {
    const s = own();
    s.game_state = Object.assign({}, s.game_state, {level: NaN});
    return s;
  };
})();
"""

# After the first key press, the page navigates away to a blank document.
NAVIGATE_AWAY = """
window.addEventListener("keydown", () => { location.href = "about:blank"; }, {once: true});
"""

# Each key press opens a dialog, which would wait for a person forever.
DIALOGS = """
let asked = 0;
window.addEventListener("keydown", () => { asked += 1; if (asked === 1) alert("you pressed a key"); else confirm("again?"); });
"""

HOSTILE = {  # name → (game number, script)
    "raf-loop": (91, RAF_LOOP),
    "getstate-loop": (92, GETSTATE_LOOP),
    "init-never": (93, INIT_NEVER),
    "workers": (94, WORKERS),
    "huge-state": (95, HUGE_STATE),
    "load-loop": (96, LOAD_LOOP),
    "solved-at-load": (97, SOLVED_AT_LOAD),
    "swap-api": (98, SWAP_API),
    "nan-score": (99, NAN_SCORE),
    "navigate-away": (90, NAVIGATE_AWAY),
    "dialogs": (89, DIALOGS),
}


def game_id(name: str) -> str:
    return f"{HOSTILE[name][0]}-{name}"


def task_id(name: str) -> str:
    return f"{HOSTILE[name][0]}_01"


def build_catalog(root: Path, names: list[str], port: int = 9, keep_source: bool = True) -> Path:
    """A catalog at root with a hostile copy of 01-2048 per name (and 01-2048 itself when keep_source)."""
    source = default_catalog_dir()
    for sub in ("models", "prompts"):
        shutil.copytree(source / sub, root / sub)
    games, tasks = root / "games", root / "tasks"
    shutil.copytree(source / "games" / "_shell", games / "_shell")  # 01-2048's page loads the shared shell
    if keep_source:
        shutil.copytree(source / "games" / SOURCE_GAME, games / SOURCE_GAME)
        (tasks / SOURCE_GAME).mkdir(parents=True)
        shutil.copy(source / "tasks" / SOURCE_GAME / "01_01.yaml", tasks / SOURCE_GAME / "01_01.yaml")
    for name in names:
        number, script = HOSTILE[name]
        gid = game_id(name)
        folder = games / gid
        shutil.copytree(source / "games" / SOURCE_GAME, folder)
        yaml_text = (folder / "game.yaml").read_text()
        (folder / "game.yaml").write_text(yaml_text.replace(f"id: {SOURCE_GAME}", f"id: {gid}", 1))
        (folder / "hostile.js").write_text(script)
        (folder / "hostile-worker.js").write_text(WORKER_SCRIPT % {"port": port})
        page = (folder / "index.html").read_text()
        (folder / "index.html").write_text(page.replace('<script src="game.js"></script>',
                                                        '<script src="game.js"></script>\n'
                                                        '<script src="hostile.js"></script>'))
        task_text = (source / "tasks" / SOURCE_GAME / "01_01.yaml").read_text()
        (tasks / gid).mkdir(parents=True)
        (tasks / gid / f"{task_id(name)}.yaml").write_text(
            task_text.replace('id: "01_01"', f'id: "{task_id(name)}"').replace(f"game: {SOURCE_GAME}",
                                                                             f"game: {gid}"))
    return root

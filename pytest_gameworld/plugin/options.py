"""The plugin's options: command line first, then the ini file, then defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..catalog.specs import OBS_MODES, STANDARD_OBS
from ..records.shards import parse_shard

# name, kind, default, help; every option is --gw-<name> and ini gw_<name>.
OPTIONS: list[tuple[str, str, Any, str]] = [
    ("model", "list", [], "model spec to benchmark: a catalog name or alias, PROVIDER/MODEL[:cua], a YAML path, "
                          "or a built-in agent (random, random-cua, noop, oracle, oracle@P: the oracle's action "
                          "with probability P, else a random legal one; replay:<steps.jsonl>); repeatable or "
                          "comma-separated"),
    ("model-opt", "list", [], "override a model spec field for this session, key=value (repeatable), e.g. "
                              "memory_rounds=0, endpoint.base_url=http://127.0.0.1:8000/v1"),
    ("interface", "str", "", "generalist or cua: the interface of PROVIDER/MODEL names (a :cua suffix says the "
                             "same; given both, they must agree)"),
    ("repeat", "int", 1, "run every task N times"),
    ("seed", "int", 0, "base seed; each run's seed derives from (base seed, task, repeat)"),
    ("rt", "bool", False, "real-time protocol: the clock also advances by the agent's latency"),
    ("obs", "str", "screenshot", "what agents observe each step: screenshot (the paper's), state (the game's "
                                 "observable state as text, no image) or both; a mode other than screenshot is "
                                 "non-standard and gets its own row"),
    ("max-steps", "int", 0, "override every task's max_steps (quick smoke runs); 0 keeps the task's"),
    ("results", "path", "reports", "directory for results, trajectories and reports"),
    ("catalog", "path", "", "catalog directory, or a checkout of the original GameWorld repository (default: the "
                            "one shipped with the package)"),
    ("browser-path", "str", "", "Chromium executable (default: GW_BROWSER_PATH, system Chromium, Playwright's)"),
    ("headed", "bool", False, "show the browser window"),
    ("keep-frames", "bool", False, "save every screenshot, full size, in the run's folder (any agent)"),
    ("no-frames", "bool", False, "save no screenshots (a provider model's run keeps what the model saw, at its "
                                 "size, as compact WebP by default; built-in agents keep none)"),
    ("frame-width", "int", 0, "keep compact frames at most this many pixels wide, to save disk (0: the size the "
                              "model was sent)"),
    ("session", "str", "", "session name for the results folder (default: a timestamp)"),
    ("max-cost", "float", 0.0, "stop starting new runs once the session's model spend reaches this many USD; "
                               "the runs not started are missing (NOT PLAYED)"),
    ("resume", "optional", "", "continue a session (default: latest): runs it scored are skipped, unfinished and "
                               "faulted ones played"),
    ("gate", "list", [], "CI gate, e.g. pg>=40, sr[puzzle]>=20, iar<=5, sr[L2]>=10, pg[13-flappy-bird]>=50, "
                         "pg[gpt-5.2]>=40, pg[puzzle,L4]>=30 (repeatable); a failing gate makes the exit status 1"),
    ("baseline", "path", "", "a previous session folder or results.jsonl to compare with, paired by run"),
    ("max-drop", "str", "", "with --gw-baseline: fail when PG or SR drops more than this many points "
                            "and its paired 95 percent bootstrap interval excludes zero"),
    ("max-drop-strict", "bool", False, "with --gw-max-drop: fail on the drop alone, ignoring the interval"),
    ("gate-allow-missing", "int", 0, "missing runs (faulted or planned but not played) the gate tolerates"),
    ("baselines", "path", "", "the random/oracle baselines file for normalized scores (default: the catalog's "
                              "baselines.json; `gameworld calibrate --out` writes one)"),
    ("step-timeout", "float", 0.0, "wall-clock limit in seconds on one agent step, retries included "
                                    "(0: each model spec's step_timeout_s)"),
    ("page-timeout", "float", 30.0, "wall-clock limit in seconds on any one call into the game page or its clock "
                                    "(state, time, input, screenshot); a page that does not answer faults its run"),
    ("max-state-bytes", "int", 1_000_000, "largest game state (serialized JSON) a page may return; a larger one "
                                          "faults its run"),
    ("concurrency", "str", "auto", "runs each process (each xdist worker) plays at the same time, each in its own "
                                   "browser context: auto (1 when every model is built in, else up to 16 as memory "
                                   "allows) or N"),
    ("limit", "int", 0, "play only the first N runs of the selection, after -k/-m (smoke tests); the rest are "
                        "deselected"),
    ("sample", "int", 0, "play a sample of N tasks of the selection spread over genres and levels, seeded by "
                         "--gw-seed (the same N for the same seed), each by every model spec; recorded in plan.json"),
    ("progress", "str", "auto", "live progress: auto (live on a terminal, plain periodic lines otherwise, "
                                "none with -q), live, plain or off"),
    ("progress-interval", "float", 10.0, "seconds between plain progress lines (when output is not a terminal)"),
    ("max-consecutive-faults", "int", 3, "skip a model's remaining runs (listed as missing) after this many "
                                         "consecutive runs failed on the same endpoint error in this invocation "
                                         "(0: never; a scored run resets the count)"),
    ("browser-endpoint", "list", [], "a Playwright browser server (ws://host:port/, from `playwright run-server`) "
                                     "to use instead of launching Chromium; repeatable, workers take them "
                                     "round-robin"),
    ("assets", "path", "", "serve the pages' internet assets (web fonts, sprites) from this folder (written by "
                           "`gameworld assets record`) or HAR file; without it such requests are refused and named"),
    ("tracing", "str", "off", "a Playwright trace of each run (screenshots, DOM snapshots, console) in its "
                              "folder: off, on, or retain-on-failure (kept only for runs that faulted)"),
    ("cache", "str", "off", "provider replies from a cache folder beside the results (<results>/.cache): off, on "
                            "(look up, store new replies) or read-only (look up only); a hit spends no tokens"),
    ("cache-max-mb", "float", 500.0, "the cache folder's size bound in MB: past it the least recently used "
                                     "replies are removed"),
    ("shard", "str", "", "play only shard K of N (e.g. 2/4): a deterministic, balanced part of the selected "
                         "runs; combine the shards' sessions with `gameworld merge`"),
]
# The least value of each numeric option; below it is a usage error, never silently clamped.
MINIMA: dict[str, float] = {
    "repeat": 1, "max-steps": 0, "max-cost": 0, "max-drop": 0, "gate-allow-missing": 0, "step-timeout": 0,
    "limit": 0, "sample": 0, "cache-max-mb": 1, "progress-interval": 0.5, "max-consecutive-faults": 0, "frame-width": 0,
}
# The greatest value of a numeric option: beyond it a session would only be collecting for minutes (100000
# repeats of 170 tasks is 17 million items), so it is a usage error before collection.
MAXIMA: dict[str, float] = {"repeat": 100}
_DEFAULTS = {name: str(default) for name, _, default, _ in OPTIONS}
MODEL_ENV = "GW_MODEL"


def metavar(name: str, kind: str) -> str:
    """What the option's value is called (METAVARS, below)."""
    return METAVARS.get(name) or KIND_METAVARS[kind]


def _dest(name: str) -> str:
    return "gw_" + name.replace("-", "_")


def add_options(parser: Any) -> None:
    group = parser.getgroup("gameworld", "GameWorld benchmark")
    for name, kind, default, text in OPTIONS:
        flag = f"--gw-{name}"
        if kind == "list":
            group.addoption(flag, action="append", dest=_dest(name), default=None, help=text,
                            metavar=metavar(name, kind))
            parser.addini(_dest(name), text, type="args", default=[])
        elif kind == "optional":
            group.addoption(flag, action="store", nargs="?", const="latest", dest=_dest(name), default=None,
                            metavar=metavar(name, kind), help=text)
            parser.addini(_dest(name), text, default=str(default))
        elif kind == "bool":
            group.addoption(flag, action="store_true", dest=_dest(name), default=None, help=text)
            parser.addini(_dest(name), text, type="bool", default=default)
        else:
            group.addoption(flag, action="store", dest=_dest(name), default=None, help=text,
                            metavar=metavar(name, kind), type={"int": int, "float": float}.get(kind, str))
            parser.addini(_dest(name), text, default=str(default))


def _get(config: Any, name: str, kind: str) -> Any:
    value = config.getoption(_dest(name))
    if value is not None:
        return value
    ini = config.getini(_dest(name))
    if kind in ("int", "float"):
        try:
            return (int if kind == "int" else float)(ini or 0)
        except ValueError:
            raise ValueError(f"{_dest(name)}: invalid {kind} {ini!r} in {config.inipath or 'the ini file'}") from None
    if kind == "path" and ini and ini != _DEFAULTS[name] and getattr(config, "inipath", None) \
            and not Path(ini).is_absolute():
        # Relative to the ini file that sets it, as a reader of it expects; the default stays relative to the
        # working directory. (pytest may pick an ini file from an option's value: `--gw-catalog CHECKOUT`
        # makes the checkout's pyproject.toml the ini file, and the results must not land in the checkout.)
        return str(Path(config.inipath).parent / ini)
    return ini


def check_minimum(name: str, value: float | None) -> None:
    """A numeric option below its least value is a ValueError naming it (one line)."""
    if value is not None and value < MINIMA[name]:
        raise ValueError(f"--gw-{name} (ini {_dest(name)}) must be at least {MINIMA[name]:g}, got {value:g}")
    if value is not None and value > MAXIMA.get(name, value):
        raise ValueError(f"--gw-{name} (ini {_dest(name)}) must be at most {MAXIMA[name]:g}, got {value:g} "
                         "(more would keep the session collecting items for minutes before any run)")


@dataclass
class Settings:
    """Resolved plugin settings for one pytest session."""

    models: list[str] = field(default_factory=list)
    model_opts: dict[str, Any] = field(default_factory=dict)
    interface: str = ""  # generalist or cua for PROVIDER/MODEL names; "" lets the name (or its suffix) say
    tracing: str = "off"  # off, on, retain-on-failure
    repeat: int = 1
    seed: int = 0
    realtime: bool = False
    obs: str = STANDARD_OBS
    max_steps: int = 0
    results: Path = Path("reports")
    catalog: Path | None = None
    browser_path: str | None = None
    headed: bool = False
    keep_frames: bool = False
    no_frames: bool = False
    frame_width: int = 0
    session: str = ""
    max_cost: float = 0.0
    resume: str = ""
    gates: list[str] = field(default_factory=list)
    baseline: Path | None = None
    max_drop: float | None = None
    max_drop_strict: bool = False
    gate_allow_missing: int = 0
    step_timeout: float = 0.0
    page_timeout: float = 30.0
    max_state_bytes: int = 1_000_000
    max_consecutive_faults: int = 3
    browser_endpoints: list[str] = field(default_factory=list)
    shard: tuple[int, int] | None = None
    assets: Path | None = None
    concurrency: int = 0  # 0: auto (concurrency.py chooses from the models and the memory)
    limit: int = 0
    sample: int = 0
    cache: str = "off"
    cache_max_mb: float = 500.0
    progress: str = "auto"
    progress_interval: float = 10.0
    baselines: Path | None = None

    @classmethod
    def from_config(cls, config: Any) -> Settings:
        raw = {name: _get(config, name, kind) for name, kind, _, _ in OPTIONS}
        for name in MINIMA.keys() - {"max-drop"}:  # max-drop is text until read below
            check_minimum(name, raw[name])
        # The command line wins, then GW_MODEL, then the ini file.
        env_model = [os.environ[MODEL_ENV]] if os.environ.get(MODEL_ENV) else []
        models = config.getoption("gw_model") or env_model or raw["model"]
        if raw["keep-frames"] and raw["no-frames"]:  # one from the ini file: the command line's wins
            cli_keep, cli_no = config.getoption("gw_keep_frames"), config.getoption("gw_no_frames")
            if cli_keep == cli_no:
                raise ValueError("--gw-keep-frames and --gw-no-frames contradict each other; give one")
            raw["keep-frames"], raw["no-frames"] = bool(cli_keep), bool(cli_no)
        try:
            max_drop = float(raw["max-drop"]) if raw["max-drop"] else None
        except ValueError:
            raise ValueError(f"--gw-max-drop expects a number of points, got {raw['max-drop']!r}") from None
        check_minimum("max-drop", max_drop)
        return cls(
            models=list(models), model_opts=parse_model_opts(raw["model-opt"]),
            interface=_choice("interface", raw["interface"], INTERFACES, ""),
            tracing=_choice("tracing", raw["tracing"], TRACING_MODES, "off"),
            repeat=int(raw["repeat"]), seed=int(raw["seed"]), realtime=bool(raw["rt"]),
            obs=_obs_mode(raw["obs"]),
            max_steps=int(raw["max-steps"]), results=Path(raw["results"] or "reports"),
            catalog=Path(raw["catalog"]) if raw["catalog"] else None,
            browser_path=raw["browser-path"] or None, headed=bool(raw["headed"]),
            keep_frames=bool(raw["keep-frames"]), no_frames=bool(raw["no-frames"]), session=raw["session"] or "",
            frame_width=int(raw["frame-width"]),
            max_cost=float(raw["max-cost"]), resume=raw["resume"] or "", gates=list(raw["gate"]),
            baseline=Path(raw["baseline"]) if raw["baseline"] else None, max_drop=max_drop,
            max_drop_strict=bool(raw["max-drop-strict"]), gate_allow_missing=int(raw["gate-allow-missing"]),
            step_timeout=float(raw["step-timeout"]), page_timeout=_positive("page-timeout", raw["page-timeout"]),
            max_state_bytes=int(_positive("max-state-bytes", raw["max-state-bytes"])),
            max_consecutive_faults=int(raw["max-consecutive-faults"]),
            browser_endpoints=[e for v in raw["browser-endpoint"] for e in v.split(",") if e.strip()],
            shard=parse_shard(raw["shard"] or ""), assets=Path(raw["assets"]) if raw["assets"] else None,
            concurrency=_concurrency(raw["concurrency"]), limit=int(raw["limit"]), sample=int(raw["sample"]),
            cache=_choice("cache", raw["cache"], CACHE_MODES, "off"), cache_max_mb=float(raw["cache-max-mb"]),
            progress=_progress_mode(raw["progress"]),
            progress_interval=float(raw["progress-interval"]),
            baselines=Path(raw["baselines"]) if raw["baselines"] else None,
        )

    def frames_for(self, provider: bool) -> tuple[bool, bool]:
        """(keep frames, compact) for a run of a provider or built-in model: --gw-keep-frames keeps every
        capture as taken; a provider's run keeps what its model saw as compact WebP unless --gw-no-frames."""
        if self.keep_frames:
            return True, False
        return (provider and not self.no_frames), True

    def model_overrides(self) -> dict[str, Any]:
        """--gw-model-opt plus the options that are model spec fields (--gw-step-timeout)."""
        if self.step_timeout > 0:
            return {"step_timeout_s": self.step_timeout, **self.model_opts}
        return self.model_opts


PROGRESS_MODES = ("auto", "live", "plain", "off")
INTERFACES = ("generalist", "cua")
TRACING_MODES = ("off", "on", "retain-on-failure")
# What an option's value is called in `pytest --help` and the options reference (docs/options.md): a choice lists
# its values; the rest are named for their kind (KIND_METAVARS).
METAVARS: dict[str, str] = {
    "model": "SPEC", "model-opt": "KEY=VALUE", "interface": "|".join(INTERFACES), "obs": "|".join(OBS_MODES),
    "results": "DIR", "catalog": "DIR", "browser-path": "PATH", "session": "NAME", "max-cost": "USD",
    "resume": "SESSION", "gate": "EXPR", "max-drop": "POINTS", "step-timeout": "S", "page-timeout": "S",
    "progress": "|".join(PROGRESS_MODES), "progress-interval": "S", "browser-endpoint": "WS_URL",
    "tracing": "|".join(TRACING_MODES), "shard": "K/N", "concurrency": "auto|N",
}
KIND_METAVARS = {"int": "N", "float": "NUMBER", "path": "PATH", "str": "VALUE", "list": "VALUE", "optional": "VALUE"}
CACHE_MODES = ("off", "on", "read-only")


def _choice(name: str, value: Any, allowed: tuple[str, ...], default: str) -> str:
    """One of ``allowed`` (case-insensitive; empty: ``default``), else a ValueError naming the option."""
    chosen = str(value or "").strip().lower() or default
    if chosen != default and chosen not in allowed:
        raise ValueError(f"--gw-{name} (ini {_dest(name)}): invalid value {value!r}; expected one of "
                         f"{', '.join(allowed)}")
    return chosen


def _positive(name: str, value: Any) -> float:
    if not float(value) > 0:
        raise ValueError(f"--gw-{name} must be greater than 0, got {float(value):g}")
    return float(value)


def _concurrency(value: Any) -> int:
    """--gw-concurrency: `auto` (0) or a whole number of at least 1."""
    text = str(value or "auto").strip().lower()
    if text == "auto":
        return 0
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"--gw-concurrency (ini gw_concurrency): expected auto or a whole number >= 1, got {value!r}")
    return n


def _obs_mode(value: str) -> str:
    mode = (value or STANDARD_OBS).strip().lower()
    if mode not in OBS_MODES:
        raise ValueError(f"--gw-obs (ini gw_obs): invalid value {value!r}; expected one of {', '.join(OBS_MODES)}")
    return mode


def _progress_mode(value: str) -> str:
    mode = (value or "auto").strip().lower()
    if mode not in PROGRESS_MODES:
        raise ValueError(f"gw_progress: invalid value {value!r}; expected one of {', '.join(PROGRESS_MODES)}")
    return mode


def parse_model_opts(items: list[str]) -> dict[str, Any]:
    """key=value pairs; values are read as YAML scalars (numbers, booleans, null)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--gw-model-opt expects key=value, got {item!r}")
        out[key.strip()] = yaml.safe_load(value) if value.strip() else ""
    return out


def given_options(config: Any) -> list[str]:
    """The --gw-* options given on the command line (not from the ini file)."""
    return [f"--gw-{name}" for name, _, _, _ in OPTIONS if config.getoption(_dest(name)) is not None]

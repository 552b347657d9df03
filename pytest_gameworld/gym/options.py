"""What a GameWorld environment is made with: its interface, observation, protocol, catalog and browser."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..catalog.specs import OBS_MODES, Parsing

INTERFACES = ("generalist", "cua")
PROTOCOLS = ("paused", "realtime")


@dataclass(frozen=True)
class BrowserOptions:
    """The browser every environment of one engine plays in (browser/host.py's HostSettings)."""

    browser_path: str | None = None
    browser_endpoints: list[str] = field(default_factory=list)
    headed: bool = False
    page_timeout: float = 30.0  # --gw-page-timeout: any one call into a page, in wall-clock seconds
    max_state_bytes: int = 1_000_000  # --gw-max-state-bytes

    def key(self) -> tuple[Any, ...]:
        """Environments made with equal browser options share one browser (one engine)."""
        return (self.browser_path, tuple(self.browser_endpoints), self.headed, self.page_timeout,
                self.max_state_bytes)


@dataclass(frozen=True)
class EnvOptions:
    """One environment's options, as keyword arguments of ``gymnasium.make`` (checked on creation)."""

    task: str
    interface: str = "generalist"  # generalist: a Discrete over the role's controls; cua: low-level actions
    obs: str = "screenshot"  # as --gw-obs: screenshot (RGB array), state (observable state as text) or both
    protocol: str = "paused"  # realtime: the game runs for think_ms before each step's action (as --gw-rt)
    think_ms: int = 0  # realtime: the thinking time a step is given, in game milliseconds
    screenshot_width: int | None = None  # the model's picture width (a model spec's screenshot_width); None: as taken
    max_steps: int | None = None  # as --gw-max-steps: the step budget (default: the task's)
    catalog: Path | None = None  # as --gw-catalog: ours (default) or a checkout of the original repository
    assets: Path | None = None  # as --gw-assets: recorded internet assets for an imported catalog's pages
    parsing: Parsing = "original"  # how a control name or a low-level call is read (a model spec's parsing)
    browser: BrowserOptions = field(default_factory=BrowserOptions)

    def __post_init__(self) -> None:
        for name, value, allowed in (("interface", self.interface, INTERFACES), ("obs", self.obs, OBS_MODES),
                                     ("protocol", self.protocol, PROTOCOLS), ("parsing", self.parsing,
                                                                             ("original", "paper"))):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
        if self.think_ms < 0 or (self.think_ms and self.protocol != "realtime"):
            raise ValueError(f"think_ms must be >= 0 and is given only with protocol='realtime' (got {self.think_ms})")
        if self.max_steps is not None and self.max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {self.max_steps}")
        if self.screenshot_width is not None and self.screenshot_width < 16:
            raise ValueError(f"screenshot_width must be at least 16 pixels, got {self.screenshot_width}")

    @classmethod
    def from_kwargs(cls, task: str, browser_path: str | None = None, browser_endpoint: str | list[str] | None = None,
                    headed: bool = False, page_timeout: float = 30.0, max_state_bytes: int = 1_000_000,
                    catalog: str | Path | None = None, assets: str | Path | None = None,
                    **rest: Any) -> EnvOptions:
        """The options from ``gymnasium.make``'s keyword arguments (browser ones flat, paths as str or Path)."""
        endpoints = [browser_endpoint] if isinstance(browser_endpoint, str) else list(browser_endpoint or [])
        browser = BrowserOptions(browser_path, endpoints, headed, page_timeout, max_state_bytes)
        return cls(task=task, catalog=Path(catalog) if catalog else None, assets=Path(assets) if assets else None,
                   browser=browser, **rest)

    @property
    def realtime(self) -> bool:
        return self.protocol == "realtime"

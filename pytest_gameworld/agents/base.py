"""The agent protocol: what an agent is given each step and what it answers."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..catalog.specs import GameSpec, ModelSpec, Role, TaskSpec
from ..play.actions import Action, Proposal, Validity

if TYPE_CHECKING:
    from ..browser.sandbox import GameSession
    from ..play.prompts import Prompt
    from .providers.cache import CacheNote, ReplyCache


class AgentError(RuntimeError):
    """The agent could not answer (endpoint down after retries, timeout): the run errors."""


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cached_tokens += other.cached_tokens

    def to_json(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class RunContext:
    """What an agent knows about the run it is about to play."""

    game: GameSpec
    task: TaskSpec
    role_name: str
    role: Role
    model: ModelSpec
    seed: int
    prompt: Prompt
    session: GameSession
    realtime: bool = False  # --gw-rt: the clock also advances by the agent's thinking time
    cache: ReplyCache | None = None  # --gw-cache: provider replies looked up before they are asked for


@dataclass
class Observation:
    """One step's input: the state (for built-ins); when the agent needs pixels, a screenshot (none with
    --gw-obs state); with --gw-obs state|both, the game's observable fields as text; after a reset, a notice."""

    step: int
    episode: int
    state: dict[str, Any]
    screenshot: bytes | None = None
    image_format: str = "png"
    state_text: str | None = None
    notice: str | None = None  # the episode-ended line on the first step after a failed episode's reset


@dataclass
class AgentReply:
    """An agent's answer: the calls it proposed, its reasoning and what it cost."""

    calls: list[Proposal] = field(default_factory=list)
    text: str = ""
    reasoning: str = ""
    raw: Any = None
    request: Any = None
    usage: Usage = field(default_factory=Usage)
    retries: list[str] = field(default_factory=list)  # why each failed attempt before the answer failed
    # A replayed step carries its recorded action, verdict and latency and skips parsing.
    action: Action | None = None
    validity: Validity | None = None
    latency_ms: int | None = None
    cache: CacheNote | None = None  # --gw-cache: whether the reply came from the cache (its original's tokens)


class Agent(Protocol):
    interface: str
    needs_pixels: bool

    async def begin(self, ctx: RunContext) -> None: ...

    async def act(self, obs: Observation) -> AgentReply: ...

    async def close(self) -> None: ...

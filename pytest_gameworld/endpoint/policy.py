"""Policies: pure logic that turns a :class:`PolicyInput` into a :class:`Decision`."""

from __future__ import annotations

import hashlib
import random
import threading
from collections import defaultdict
from typing import Protocol

from .computer import ComputerAction
from .core import ComputerSpec, Decision, PolicyInput, Reply, ToolCall, ToolSpec
from .schema_fill import fill
from .script import CallTemplate, Script, ScriptEntry, load_script

RANDOM_KEYS: tuple[str, ...] = ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Space", "Enter")
"""Keys the random policy presses on a native computer-use tool."""

# Names each provider uses for a click and a key press; a request may disable them.
_CLICK_NAMES = frozenset({"left_click", "click_at", "click"})
_KEY_NAMES = frozenset({"key", "key_combination", "keypress"})
_WAIT_NAMES = frozenset({"wait", "wait_5_seconds"})


class Policy(Protocol):
    """Anything that decides a reply for a request."""

    name: str

    def decide(self, inp: PolicyInput) -> Decision:
        """The decision for one request."""
        ...


def _rng(*parts: object) -> random.Random:
    """A generator seeded from ``parts`` via SHA-256, so it is stable across processes."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class RandomPolicy:
    """Calls one declared tool chosen at random, with random schema-valid arguments.

    The n-th request of a conversation (same opening messages and tools) always gets
    the same reply for a given seed, so concurrent conversations stay reproducible.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._turns: defaultdict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def decide(self, inp: PolicyInput) -> Decision:
        """Pick a function tool or the computer tool uniformly, then fill it in."""
        with self._lock:
            turn = self._turns[inp.thread]
            self._turns[inp.thread] = turn + 1
        rng = _rng(self.seed, inp.thread, turn)
        options: list[ToolSpec | ComputerSpec] = list(inp.tools)
        if inp.computer is not None:
            options.append(inp.computer)
        if not options:
            return Decision(reply=Reply(text="No tools were declared, so there is nothing to call."))
        choice = rng.choice(options)
        if isinstance(choice, ComputerSpec):
            action = random_computer_action(inp, rng)
            reason = f"Random policy (seed {self.seed}, turn {turn}): computer {action.kind}."
            return Decision(reply=Reply(reasoning=reason, calls=[action]))
        reason = f"Random policy (seed {self.seed}, turn {turn}): calling {choice.name}."
        if is_computer_function(choice.schema):
            # A computer-use function (an `action` verb with x/y or a key): a click or key press, as on a
            # native computer tool, rather than random strings in every field.
            act = random_computer_action(inp, rng)
            args = ({"action": "click", "x": act.x, "y": act.y} if act.kind == "click"
                    else {"action": "press_key", "key": act.keys[0]} if act.kind == "key" else {"action": "wait"})
            return Decision(reply=Reply(reasoning=reason, calls=[ToolCall(choice.name, args)]))
        return Decision(reply=Reply(reasoning=reason, calls=[ToolCall(choice.name, fill(choice.schema, rng))]))


def is_computer_function(schema: dict[str, object]) -> bool:
    """Whether a function's schema is a low-level computer action: an ``action`` enum with click and press_key,
    and x, y and key arguments."""
    props = schema.get("properties")
    if not isinstance(props, dict) or not {"x", "y", "key"} <= props.keys():
        return False
    action = props.get("action")
    verbs = action.get("enum") if isinstance(action, dict) else None
    return isinstance(verbs, list) and {"click", "press_key"} <= set(verbs)


def random_computer_action(inp: PolicyInput, rng: random.Random) -> ComputerAction:
    """A click inside the display or a key press, skipping whatever the request disabled."""
    disabled = inp.computer.disabled if inp.computer is not None else frozenset()
    kinds = []
    if not _CLICK_NAMES & disabled:
        kinds.append("click")
    if not _KEY_NAMES & disabled:
        kinds.append("key")
    if not kinds:
        return ComputerAction(kind="wait", duration_s=1.0)
    width, height = inp.display
    if rng.choice(kinds) == "click":
        return ComputerAction(kind="click", x=rng.randrange(width), y=rng.randrange(height))
    keys = inp.computer.keys if inp.computer is not None and inp.computer.keys else RANDOM_KEYS
    return ComputerAction(kind="key", keys=[rng.choice(keys)])


class NoopPolicy:
    """Calls a declared ``wait`` function, else a computer-use wait, else answers in text."""

    name = "noop"

    def decide(self, inp: PolicyInput) -> Decision:
        """Always the same harmless turn."""
        return Decision(reply=noop_reply(inp))


def noop_reply(inp: PolicyInput) -> Reply:
    """The reply the noop policy gives (also used after a delay-only scripted entry)."""
    wait = inp.tool("wait")
    if wait is not None:
        # Required arguments (if any) are filled deterministically so the call is valid.
        return Reply(calls=[ToolCall(wait.name, fill(wait.schema, random.Random(0)))])
    if inp.computer is not None and not _WAIT_NAMES & inp.computer.disabled:
        return Reply(calls=[ComputerAction(kind="wait", duration_s=1.0)])
    return Reply(text="Waiting.")


class ScriptedPolicy:
    """Replays a script in order, then cycles or repeats the last entry."""

    name = "scripted"

    def __init__(self, script: Script, seed: int = 0) -> None:
        self.script = script
        self.seed = seed
        self._next = 0
        self._lock = threading.Lock()

    def decide(self, inp: PolicyInput) -> Decision:
        """The next entry, resolved against the request's declared tools."""
        with self._lock:
            index = self._next
            count = len(self.script.entries)
            if index + 1 < count or self.script.loop:
                self._next = (index + 1) % count
        entry = self.script.entries[index]
        if entry.fault is not None:
            return Decision(fault=entry.fault, delay_s=entry.delay_s)
        reply = self._reply(entry, inp, index) if entry.has_reply else noop_reply(inp)
        if entry.usage is not None:
            reply.usage = entry.usage
        return Decision(reply=reply, delay_s=entry.delay_s)

    def _reply(self, entry: ScriptEntry, inp: PolicyInput, index: int) -> Reply:
        """Turn the entry's templates into a reply; missing arguments come from the schema."""
        calls: list[ToolCall | ComputerAction] = []
        for item in entry.calls:
            if isinstance(item, CallTemplate):
                args = item.arguments
                if args is None:
                    tool = inp.tool(item.name)
                    args = fill(tool.schema if tool else {"type": "object"}, _rng(self.seed, index, item.name))
                calls.append(ToolCall(item.name, args))
            else:
                calls.append(item)
        return Reply(text=entry.text, reasoning=entry.reasoning, calls=calls)


def make_policy(spec: str, seed: int = 0) -> Policy:
    """``random``, ``noop`` or ``scripted:<file>``."""
    if spec == "random":
        return RandomPolicy(seed)
    if spec == "noop":
        return NoopPolicy()
    if spec.startswith("scripted:"):
        return ScriptedPolicy(load_script(spec.split(":", 1)[1]), seed)
    raise ValueError(f"unknown policy {spec!r}: use random, noop or scripted:<file>")

"""Rolling memory: the last N rounds as the original's Action History, in each provider's format."""

from __future__ import annotations

import json

from pytest_gameworld.agents.providers.content import Image, blocks, scrub
from pytest_gameworld.agents.providers.memory import Memory, Round, action_json
from pytest_gameworld.play.actions import Proposal


def img(tag: bytes) -> Image:
    return Image(b"\x89PNG" + tag, "image/png", 64, 32)


def rnd(step: int, tag: bytes = b"x", action: str | None = '{"tool_name": "jump"}') -> Round:
    return Round("Current screen:", img(tag), f"thought {step}", action)


def test_zero_rounds_renders_nothing() -> None:
    m = Memory(0)
    m.add(rnd(1))
    assert m.parts() == [] and len(m) == 0 and m.images() == []


def test_keeps_the_last_rounds_oldest_first_in_the_originals_order() -> None:
    m = Memory(2)
    for step in (1, 2, 3):
        m.add(rnd(step, bytes([step])))
    parts = m.parts()
    # header; then per round: step text, screenshot, reasoning, action (each its own part, ending in a newline)
    assert parts[0] == "## Action History\n"
    kinds = ["img" if isinstance(p, Image) else p.split(":")[0] for p in parts[1:]]
    assert kinds == ["Current screen", "img", "Reasoning", "Action"] * 2
    assert [p.data[-1] for p in parts if isinstance(p, Image)] == [2, 3]
    assert "Reasoning: thought 2\n" in parts and 'Action: {"tool_name": "jump"}\n' in parts
    assert not any("thought 1" in p for p in parts if isinstance(p, str))


def test_no_validity_feedback_and_no_action_line_without_a_call() -> None:
    m = Memory(1)
    m.add(Round("Current screen:", img(b"1"), "", None))
    texts = [p for p in m.parts() if isinstance(p, str)]
    assert texts == ["## Action History\n", "Current screen:\n"]
    assert not any(word in "".join(texts) for word in ("valid", "executed", "Result"))


def test_a_runaway_reasoning_is_clipped_to_its_end() -> None:
    m = Memory(1)
    m.add(Round("p", None, "a" * 40_000 + "END", "{}"))
    text = "".join(p for p in m.parts() if isinstance(p, str))
    assert text.rstrip().endswith('Action: {}') and "END" in text and "a" * 20_000 not in text


def test_render_per_provider() -> None:
    m = Memory(1)
    m.add(rnd(1))
    chat = m.render("openai_chat")
    assert [b["type"] for b in chat] == ["text", "text", "image_url", "text", "text"]
    assert chat[2]["image_url"]["url"].startswith("data:image/png;base64,")
    resp = m.render("openai_responses")
    assert resp[2] == {"type": "input_image", "image_url": resp[2]["image_url"]}  # no detail unless asked
    claude = m.render("anthropic")
    assert claude[2]["type"] == "image" and claude[2]["source"]["media_type"] == "image/png"
    gem = m.render("gemini")
    assert "text" in gem[0] and gem[2]["inline_data"]["data"].startswith(b"\x89PNG")


def test_blocks_keep_texts_apart_and_drop_empty_ones() -> None:
    out = blocks(["a", "b", img(b"1"), "", "c"], "anthropic")
    assert [b["type"] for b in out] == ["text", "text", "image", "text"]
    assert [b.get("text") for b in out] == ["a", "b", None, "c"]


def test_scrub_replaces_every_image_form() -> None:
    i = img(b"payload")
    request = {"chat": i.data_url, "raw": i.b64, "gemini": i.data, "other": "data:image/jpeg;base64,AAAA",
               "nested": [{"ok": 1}], "unknown_b64": "QUJD" * 1000, "prose": "word " * 1000}
    out = scrub(request, [i])
    assert out["unknown_b64"] == "<base64 4000 chars>" and out["prose"] == request["prose"]
    assert out["chat"] == out["raw"] == out["gemini"] == i.placeholder == "<image png 64x32 1kB>"
    assert out["other"].startswith("<image jpeg") and out["nested"] == [{"ok": 1}]


def test_scrub_names_each_image_by_its_step_in_order_even_when_two_screens_are_equal() -> None:
    a, b, c = img(b"same"), img(b"same"), img(b"other")  # steps 3 and 4 showed the same screen
    request = {"messages": [{"content": [{"url": a.data_url}, {"url": b.data_url}, {"url": c.data_url}]}]}
    urls = [p["url"] for p in scrub(request, [a, b, c], [3, 4, 5])["messages"][0]["content"]]
    assert urls == ["<image png 64x32 1kB, screen of step 4>", "<image png 64x32 1kB, screen of step 5>",
                    "<image png 64x32 1kB, screen of step 6>"]


def test_action_json_is_the_call_as_the_original_records_it() -> None:
    control = action_json(Proposal("reveal_cell", {"cell": "e5", "reasoning": "safe"}), "generalist")
    assert json.loads(control) == {"tool_name": "reveal_cell", "arguments": {"cell": "e5", "reasoning": "safe"}}
    assert control.index('"arguments"') < control.index('"tool_name"')  # keys sorted, as the original dumps them
    with_id = json.loads(action_json(Proposal("reveal_cell", {"cell": "e5"}), "generalist", "call_7"))
    assert with_id == {"tool_name": "reveal_cell", "arguments": {"cell": "e5"}, "tool_call_id": "call_7"}
    assert "tool_call_id" not in action_json(Proposal("press_key", {"key": "a"}), "cua", "call_7")
    low = action_json(Proposal("press_key", {"key": "ArrowLeft"}), "cua")
    assert json.loads(low) == {"action": "press_key", "key": "ArrowLeft"}
    assert action_json(None, "cua") is None
    assert action_json(Proposal(None, {}, malformed="x", refused=True), "cua") is None

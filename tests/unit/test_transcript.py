"""A recorded request read as the messages the model received, for every API's shape (and older records)."""

from __future__ import annotations

import json

from pytest_gameworld.report.transcript import Strings, messages

IMG = "<image png 1280x720 38kB, step 3>"


def _kinds(msg):
    return [p["t"] for p in msg["parts"]]


def test_chat_messages_with_the_system_message_history_images_and_tools():
    req = {"api": "openai chat", "base_url": "http://x/v1", "model": "m", "temperature": 0.0,
           "messages": [{"role": "system", "content": "rules"},
                        {"role": "user", "content": [{"type": "text", "text": "## Action History\n"},
                                                     {"type": "image_url", "image_url": {"url": IMG}},
                                                     {"type": "text", "text": "Current screen:\n"},
                                                     {"type": "image_url", "image_url": {"url": "<image png 1280x720 4kB>"}}]}],
           "tools": [{"type": "function", "function": {"name": "wait"}}, {"type": "function", "function": {"name": "go"}}]}
    out = messages(req)
    assert [m["role"] for m in out["messages"]] == ["system", "user"]
    assert out["messages"][0]["parts"] == [{"t": "text", "text": "rules"}]
    user = out["messages"][1]["parts"]
    assert _kinds(out["messages"][1]) == ["text", "image", "text", "image"]
    assert user[1] == {"t": "image", "label": "<image png 1280x720 38kB>", "step": 3}
    assert user[3]["step"] is None, "an older record's placeholder names no step and is still an image"
    assert out["tool_count"] == 2 and '"name": "go"' in out["tools"]
    assert '"temperature": 0.0' in out["settings"] and "base_url" not in out["settings"]


def test_responses_instructions_and_a_computer_call_output_with_its_screenshot():
    req = {"api": "openai responses", "instructions": "be brief",
           "input": [{"role": "user", "content": [{"type": "input_text", "text": "go"}]},
                     {"type": "computer_call_output", "call_id": "c1",
                      "output": {"type": "computer_screenshot", "image_url": IMG}}],
           "tools": [{"type": "computer_use_preview", "display_width": 1280}]}
    out = messages(req)
    assert [m["role"] for m in out["messages"]] == ["instructions", "user", "computer_call_output"]
    call = out["messages"][2]["parts"]
    assert call[0]["t"] == "json" and '"call_id": "c1"' in call[0]["text"]
    assert call[1]["t"] == "image" and call[1]["step"] == 3


def test_anthropic_system_blocks_and_a_tool_result_holding_an_image():
    req = {"api": "anthropic messages", "system": [{"type": "text", "text": "sys", "cache_control": {"type": "x"}}],
           "messages": [{"role": "user", "content": [
               {"type": "tool_result", "tool_use_id": "t1",
                "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": IMG}}]},
               {"type": "text", "text": "next"}]}]}
    out = messages(req)
    assert out["messages"][0] == {"role": "system", "parts": [{"t": "text", "text": "sys"}]}
    assert _kinds(out["messages"][1]) == ["json", "image", "text"]
    assert "tool_use_id" in out["messages"][1]["parts"][0]["text"]


def test_gemini_system_instruction_contents_and_function_declarations():
    req = {"api": "gemini generate_content", "model": "g",
           "contents": [{"role": "user", "parts": [{"text": "hi"}, {"inline_data": {"mime_type": "image/png", "data": IMG}}]},
                        {"role": "model", "parts": [{"function_call": {"name": "wait", "args": {}}}]}],
           "config": {"system_instruction": "rules", "temperature": 0,
                      "tools": [{"function_declarations": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}]}}
    out = messages(req)
    assert [m["role"] for m in out["messages"]] == ["system", "user", "model"]
    assert _kinds(out["messages"][1]) == ["text", "image"]
    assert _kinds(out["messages"][2]) == ["json"]
    assert out["tool_count"] == 3
    assert '"temperature": 0' in out["settings"] and "system_instruction" not in out["settings"]


def test_nothing_recorded_and_unknown_shapes():
    assert messages(None) is None and messages("text") is None
    out = messages({"api": "x", "messages": [42, {"weird": True}]})
    assert [p["t"] for m in out["messages"] for p in m["parts"]] == ["json", "json"]


def test_long_texts_are_stored_once():
    strings = Strings()
    long = "rules " * 100
    a = messages({"messages": [{"role": "system", "content": long}]}, strings)
    b = messages({"messages": [{"role": "system", "content": long}]}, strings)
    assert a == b and a["messages"][0]["parts"][0]["text"] == {"ref": 0} and strings.table == [long]


def test_every_step_label_of_a_recorded_request_uses_the_numbering_the_viewer_shows():
    """The frame of step index 2 is recorded as "screen of step 3", the number the viewer's caption shows
    ("the screen of step " + (step + 1)) and the transcript reads back."""
    import re

    from pytest_gameworld.agents.providers.content import Image, blocks, scrub
    from pytest_gameworld.agents.providers.prompt_layout import STEP_TEXT

    shots = [Image(bytes([i]) * 64, "image/png", 64, 32) for i in range(3)]
    # What a chat request holds: the layout's step text before each screenshot, as ProviderAgent.act sends it.
    parts = [p for img in shots for p in (STEP_TEXT, img)]
    sent = blocks(parts, "openai_chat")
    request = scrub({"api": "openai chat", "messages": [{"role": "user", "content": sent}]}, shots, [0, 1, 2])
    recorded = json.dumps(request)
    named = [int(n) for n in re.findall(r"screen of step (\d+)>", recorded)]
    assert named == [1, 2, 3], recorded
    parts = messages(request)["messages"][0]["parts"]
    images = [p for p in parts if p["t"] == "image"]
    assert [p["step"] + 1 for p in images] == [1, 2, 3], "the viewer's caption numbers"
    assert all("step" not in p["label"] for p in images), "the label does not name the step a second way"


def test_an_older_records_zero_based_placeholder_names_the_same_step():
    old, new = "<image png 64x32 1kB, step 2>", "<image png 64x32 1kB, screen of step 3>"
    read = [messages({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": u}}]}]})
            for u in (old, new)]
    assert read[0]["messages"] == read[1]["messages"] == [
        {"role": "user", "parts": [{"t": "image", "label": "<image png 64x32 1kB>", "step": 2}]}]

"""`gameworld serve` answers any scripted reply as scripted, however deep or malformed: the tool for hostile cases."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

DEEP_ARRAY = '{"cell": ' + "[" * 100_000 + "]" * 100_000 + "}"
DEEP_OBJECT = '{"cell": ' + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "}"
ENTRIES = [
    {"calls": [{"name": "reveal_cell", "arguments": DEEP_ARRAY}]},
    {"calls": [{"name": "reveal_cell", "arguments": DEEP_OBJECT}]},
    {"text": "\ud800 a lone surrogate", "reasoning": "\udfff"},
    {"calls": [{"name": "reveal_cell", "arguments": '{"cell": "\ud800"}'}]},
    {"status": 401, "message": "Incorrect API key provided: \ud800"},
]
REQUESTS = {
    "openai": ("/chat/completions", {"model": "m", "messages": [{"role": "user", "content": "hi"}],
                                     "tools": [{"type": "function", "function": {"name": "reveal_cell",
                                                                                 "parameters": {"type": "object"}}}]}),
    "anthropic": ("/v1/messages", {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}],
                                   "tools": [{"name": "reveal_cell", "input_schema": {"type": "object"}}]}),
    "gemini": ("/v1beta/models/m:generateContent", {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
                                                    "tools": [{"functionDeclarations": [{"name": "reveal_cell"}]}]}),
}


def post(url: str, body: dict[str, Any]) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.mark.parametrize("protocol", list(REQUESTS))
def test_every_scripted_reply_is_answered_as_scripted(endpoint, script, protocol):
    server = endpoint(protocol, policy=script(ENTRIES))
    path, body = REQUESTS[protocol]
    answers = [post(server.url + path, body) for _ in ENTRIES]
    assert [status for status, _ in answers] == [200, 200, 200, 200, 401], answers
    for (_, raw), deep in zip(answers[:2], (DEEP_ARRAY, DEEP_OBJECT)):
        sent = json.dumps(deep)[1:-1] if protocol == "openai" else deep  # OpenAI sends arguments as a string
        assert sent.encode() in raw, "the deep arguments go out exactly as scripted"
    texts = json.dumps(json.loads(answers[2][1]))
    assert "\\ud800 a lone surrogate" in texts and "\\udfff" in texts
    assert "\\ud800" in json.dumps(json.loads(answers[3][1]))
    assert "Incorrect API key provided: \\ud800" in json.dumps(json.loads(answers[4][1]))
    assert len(server.posts(len(ENTRIES))) == len(ENTRIES), "every exchange is logged"

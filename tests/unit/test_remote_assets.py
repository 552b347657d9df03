"""Recorded internet assets (--gw-assets): a folder of `gameworld assets record`, or a HAR; damaged input named."""

from __future__ import annotations

import base64
import json

import pytest

from pytest_gameworld.browser.remote_assets import MANIFEST, AssetsError, AssetStore, Recorded, write_folder

PNG = b"\x89PNG\r\n\x1a\nfake"


def test_a_written_folder_reads_back_by_url_without_the_fragment(tmp_path):
    write_folder(tmp_path, [
        Recorded("http://img.test/a.png#frag", 200, {"Content-Type": "image/png", "Set-Cookie": "x"}, PNG),
        Recorded("http://img.test/a.png", 200, {"content-type": "image/png"}, b"second copy: not kept"),
        Recorded("http://cdn.test/old", 302, {"location": "http://cdn.test/new"}, b""),
    ])
    store = AssetStore.load(tmp_path)
    got = store.reply("http://img.test/a.png#other")
    assert (got.status, got.headers, got.body) == (200, {"content-type": "image/png"}, PNG)  # cookies not replayed
    assert store.reply("http://cdn.test/old").headers == {"location": "http://cdn.test/new"}
    assert store.reply("http://img.test/b.png") is None


def test_a_har_reads_text_base64_and_attached_bodies(tmp_path):
    (tmp_path / "body.css").write_text("b{}")
    entries = [
        {"request": {"method": "GET", "url": "http://f.test/css"},
         "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/css"}],
                      "content": {"mimeType": "text/css", "text": "a{}"}}},
        {"request": {"method": "GET", "url": "http://i.test/s.png"},
         "response": {"status": 200, "headers": [], "content": {"mimeType": "image/png",
                                                                "text": base64.b64encode(PNG).decode(),
                                                                "encoding": "base64"}}},
        {"request": {"method": "GET", "url": "http://f.test/attached"},
         "response": {"status": 200, "headers": [], "content": {"mimeType": "text/css", "_file": "body.css"}}},
        {"request": {"method": "GET", "url": "http://gone.test/x"}, "response": {"status": 0, "content": {}}},
        {"request": {"method": "POST", "url": "http://f.test/post"}, "response": {"status": 200, "content": {}}},
    ]
    har = tmp_path / "page.har"
    har.write_text(json.dumps({"log": {"entries": entries}}))
    store = AssetStore.load(har)
    assert store.reply("http://f.test/css").body == b"a{}"
    assert (store.reply("http://i.test/s.png").body, store.reply("http://i.test/s.png").headers) == \
        (PNG, {"content-type": "image/png"})
    assert store.reply("http://f.test/attached").body == b"b{}"
    assert store.reply("http://gone.test/x") is None and store.reply("http://f.test/post") is None


def test_damaged_input_is_named_by_file_and_line(tmp_path):
    (tmp_path / MANIFEST).write_text('{"format": "gameworld-assets/1",\n "entries": [\n  {"url": }\n]}')
    with pytest.raises(AssetsError, match=rf"^{tmp_path / MANIFEST}: line 3: invalid JSON"):
        AssetStore.load(tmp_path)
    (tmp_path / MANIFEST).write_text(json.dumps({"format": "gameworld-assets/1", "entries": [
        {"url": "http://i.test/a.png", "status": 200, "file": "files/missing.png"}]}))
    with pytest.raises(AssetsError, match=r"entries\[0\]: file 'files/missing.png' is missing"):
        AssetStore.load(tmp_path)
    (tmp_path / MANIFEST).write_text(json.dumps({"format": "gameworld-assets/1", "entries": [
        {"url": "http://i.test/a.png", "status": 200, "file": "../../etc/passwd"}]}))
    with pytest.raises(AssetsError, match="is missing from"):  # nothing outside the folder is read
        AssetStore.load(tmp_path)
    (tmp_path / MANIFEST).write_text(json.dumps({"entries": []}))
    with pytest.raises(AssetsError, match="not a recorded-assets manifest"):
        AssetStore.load(tmp_path)
    with pytest.raises(AssetsError, match="no such folder or HAR file"):
        AssetStore.load(tmp_path / "nowhere")
    (tmp_path / "x.har").write_text("{}")
    with pytest.raises(AssetsError, match="not a HAR file"):
        AssetStore.load(tmp_path / "x.har")

"""Screenshots as sent images, neutral message parts, and each provider's content blocks."""

from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from .coords import downscaled_size

# A string this long made only of base64 characters is a payload, never prose worth recording.
_LONG_BLOB = 2048
_BASE64 = re.compile(r"[A-Za-z0-9+/=\n]+")

ContentFormat = Literal["openai_chat", "openai_responses", "anthropic", "gemini"]


@dataclass(frozen=True, eq=False)
class Image:
    """An encoded screenshot as it is sent: bytes, MIME type and pixel size."""

    data: bytes
    mime: str
    width: int
    height: int
    _b64: list[str] = field(default_factory=list, repr=False)

    @property
    def b64(self) -> str:
        if not self._b64:  # encoded once: the same image may be sent several times
            self._b64.append(base64.b64encode(self.data).decode("ascii"))
        return self._b64[0]

    @property
    def data_url(self) -> str:
        return f"data:{self.mime};base64,{self.b64}"

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @property
    def placeholder(self) -> str:
        """What request records show instead of the bytes."""
        kind = self.mime.split("/", 1)[1]
        return f"<image {kind} {self.width}x{self.height} {max(1, round(len(self.data) / 1024))}kB>"


def sent_as_taken(raw: bytes, fmt: str = "png", target_width: int | None = None) -> Image | None:
    """The screenshot as it is, when it is already in ``fmt`` at the size to send (reads its header only)."""
    from PIL import Image as PILImage  # Pillow is a core dependency; imported here to keep module import cheap

    fmt = "jpeg" if fmt.lower() in ("jpg", "jpeg") else "png"
    with PILImage.open(io.BytesIO(raw)) as img:
        if (img.format or "").lower() == fmt and downscaled_size(img.width, img.height, target_width) == img.size:
            return Image(raw, f"image/{fmt}", img.width, img.height)
    return None


def encode_screenshot(raw: bytes, fmt: str = "png", target_width: int | None = None, quality: int = 85) -> Image:
    """Decode a screenshot and re-encode it in ``fmt``, downscaled to ``target_width`` if set (CPU-bound; a
    picture already right is sent_as_taken's)."""
    from PIL import Image as PILImage

    fmt = "jpeg" if fmt.lower() in ("jpg", "jpeg") else "png"
    with PILImage.open(io.BytesIO(raw)) as img:
        size = downscaled_size(img.width, img.height, target_width)
        out = img.convert("RGB") if fmt == "jpeg" else img.copy()
    if size != (out.width, out.height):
        out = out.resize(size, PILImage.Resampling.LANCZOS)
    buf = io.BytesIO()
    if fmt == "jpeg":
        out.save(buf, format="JPEG", quality=quality)
    else:
        out.save(buf, format="PNG", optimize=False)
    return Image(buf.getvalue(), f"image/{fmt}", out.width, out.height)


Part = str | Image


def blocks(parts: list[Part], fmt: ContentFormat, image_detail: str | None = None) -> list[dict[str, Any]]:
    """Neutral parts as one provider's user-content blocks, one block per non-empty part (as the original
    harness sends them: texts are not merged)."""
    return [_text(p, fmt) if isinstance(p, str) else _image(p, fmt, image_detail) for p in parts
            if not (isinstance(p, str) and not p)]


def _text(text: str, fmt: ContentFormat) -> dict[str, Any]:
    if fmt == "openai_responses":
        return {"type": "input_text", "text": text}
    if fmt == "gemini":
        return {"text": text}
    return {"type": "text", "text": text}


def _image(img: Image, fmt: ContentFormat, detail: str | None) -> dict[str, Any]:
    if fmt == "openai_chat":
        url: dict[str, Any] = {"url": img.data_url}
        if detail:
            url["detail"] = detail
        return {"type": "image_url", "image_url": url}
    if fmt == "openai_responses":
        block = {"type": "input_image", "image_url": img.data_url}
        return {**block, "detail": detail} if detail else block
    if fmt == "anthropic":
        return {"type": "image", "source": {"type": "base64", "media_type": img.mime, "data": img.b64}}
    return {"inline_data": {"mime_type": img.mime, "data": img.data}}


def scrub(value: Any, images: list[Image], steps: list[int | None] | None = None) -> Any:
    """A JSON-able copy of a request with every image payload replaced by its placeholder; with ``steps``
    (the 0-based step each image was taken at, in the order the request holds them) the placeholder names it,
    1-based ("screen of step 3" for step 2), so a viewer can show that step's frame. Equal screenshots of different
    steps are told apart by their order."""
    known: dict[Any, list[str]] = {}
    for i, img in enumerate(images):
        step = steps[i] if steps is not None and i < len(steps) else None
        # Numbered from 1, as the viewer names steps (steps.jsonl's `step` is 0-based).
        label = img.placeholder if step is None else f"{img.placeholder[:-1]}, screen of step {step + 1}>"
        for key in (img.b64, img.data_url, img.data):
            known.setdefault(key, []).append(label)
    return _scrub(value, known)


def _label(labels: list[str]) -> str:
    """The next of an image's labels; the last one repeats (an image sent more often than listed)."""
    return labels.pop(0) if len(labels) > 1 else labels[0]


def _scrub(value: Any, known: dict[Any, list[str]]) -> Any:
    if isinstance(value, dict):
        return {str(k): _scrub(v, known) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrub(v, known) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return _label(known[bytes(value)]) if bytes(value) in known else f"<{len(value)} bytes>"
    if isinstance(value, str):
        if value in known:
            return _label(known[value])
        # Images that are not ours (an echoed item) still never land in a record.
        if value.startswith("data:image/") and ";base64," in value:
            return f"<image {value[11:value.index(';')]} {round(len(value) * 3 / 4096)}kB>"
        if len(value) > _LONG_BLOB and _BASE64.fullmatch(value[:_LONG_BLOB]):
            return f"<base64 {len(value)} chars>"
        return value
    if value is None or isinstance(value, (bool, int, float)):
        return value
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return _scrub(dump(mode="python", exclude_none=True), known)
    return repr(value)

"""Kept frames: the picture an agent saw at a step, written beside its trajectory line."""

from __future__ import annotations

import io
from pathlib import Path

from ..agents.providers.coords import downscaled_size  # the size the model was sent

# A compact frame is the model's picture at the model's size as lossy WebP: ~6-20 kB for a 1280x720 game
# screen, where the PNG the model received is 40-130 kB. Measured on 8 games' frames (docs/performance.md,
# "What a session keeps on disk"): quality 40 with method 2 is 13 kB a frame against 19 kB for quality 50 with
# method 0 (the fastest encoder), text and sprites as legible, for ~7 ms more CPU a frame in the trajectory's
# writer thread; methods 3-6 save another 0.5-1 kB for 2-4x the CPU.
COMPACT_QUALITY = 40
COMPACT_METHOD = 2


def frame_name(step: int, shot_format: str, compact: bool) -> str:
    """The run-relative file name of a step's frame."""
    ext = "webp" if compact else ("jpg" if shot_format == "jpeg" else shot_format)
    return f"frames/{step:04d}.{ext}"


def kept_width(model_width: int | None, frame_width: int) -> int | None:
    """The width a compact frame is kept at: the model's, narrowed to --gw-frame-width when that is smaller."""
    if frame_width <= 0:
        return model_width
    return frame_width if model_width is None else min(model_width, frame_width)


def write_frame(path: Path, shot: bytes, compact: bool, width: int | None = None) -> None:
    """Write a step's capture: as taken, or compact (WebP, scaled to ``width`` if set). CPU-bound: run it in a
    thread, off the step's critical path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not compact:
        path.write_bytes(shot)
        return
    from PIL import Image  # imported here to keep module import cheap

    with Image.open(io.BytesIO(shot)) as img:
        out = img.convert("RGB")
    size = downscaled_size(out.width, out.height, width)
    if size != out.size:
        out = out.resize(size, Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    out.save(buf, format="WEBP", quality=COMPACT_QUALITY, method=COMPACT_METHOD)
    path.write_bytes(buf.getvalue())

"""Coordinate spaces: the sent screenshot's pixels or a 0-1000 grid, mapped to viewport pixels (pure)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ...play.actions import Proposal
from ...play.output_limits import OutOfBounds, finite_number

Mode = Literal["absolute", "normalized_1000"]
# Arguments holding a point (x-like, y-like) and a distance; the names parse_cua reads.
_POINTS = (("x", "y"), ("to_x", "to_y"))
_DELTAS = ("dx", "dy")


def downscaled_size(width: int, height: int, target_width: int | None) -> tuple[int, int]:
    """The size a screenshot is sent at: shrunk to ``target_width`` keeping its aspect, never enlarged."""
    if not target_width or target_width >= width:
        return width, height
    return target_width, max(1, round(height * target_width / width))


def smart_resize(width: int, height: int, factor: int = 28, min_pixels: int = 56 * 56,
                 max_pixels: int = 16384 * 28 * 28) -> tuple[int, int]:
    """The size a Qwen2.5-VL-style processor resizes an image to (multiples of ``factor``)."""
    h = max(factor, round(height / factor) * factor)
    w = max(factor, round(width / factor) * factor)
    if h * w > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h = max(factor, math.floor(height / beta / factor) * factor)
        w = max(factor, math.floor(width / beta / factor) * factor)
    elif h * w < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h = math.ceil(height * beta / factor) * factor
        w = math.ceil(width * beta / factor) * factor
    return w, h


@dataclass(frozen=True)
class Frame:
    """How a model's coordinates relate to the viewport: its space's size and the viewport's."""

    viewport_w: int
    viewport_h: int
    space_w: float
    space_h: float

    @classmethod
    def for_image(cls, viewport: tuple[int, int], image: tuple[int, int], mode: Mode) -> Frame:
        """Absolute: the sent image's pixels; normalized_1000: a 1000x1000 grid (also Gemini's 0-999)."""
        if mode == "normalized_1000":
            return cls(viewport[0], viewport[1], 1000.0, 1000.0)
        return cls(viewport[0], viewport[1], float(image[0]), float(image[1]))

    def to_viewport(self, x: float, y: float) -> tuple[int, int]:
        """A model point in viewport pixels; a point inside the model's space stays inside the viewport."""
        vx = x * self.viewport_w / self.space_w
        vy = y * self.viewport_h / self.space_h
        # Rounding the far edge (x == space width) would land one pixel outside: clamp only
        # points the model gave inside its own space, so a truly outside point stays OOS.
        if 0 <= x <= self.space_w:
            vx = min(max(vx, 0), self.viewport_w - 1)
        if 0 <= y <= self.space_h:
            vy = min(max(vy, 0), self.viewport_h - 1)
        return int(round(vx)) if vx >= 0 else int(math.floor(vx)), int(round(vy)) if vy >= 0 else int(math.floor(vy))

    def to_model(self, x: float, y: float) -> tuple[int, int]:
        """A viewport point in the model's space (for showing the model where it acted)."""
        mx = min(x * self.space_w / self.viewport_w, self.space_w - 1)
        my = min(y * self.space_h / self.viewport_h, self.space_h - 1)
        return int(round(mx)), int(round(my))

    def scale_delta(self, dx: float, dy: float) -> tuple[int, int]:
        """A distance (scroll amount) in viewport pixels."""
        return int(round(dx * self.viewport_w / self.space_w)), int(round(dy * self.viewport_h / self.space_h))

    @property
    def centre(self) -> tuple[int, int]:
        return self.viewport_w // 2, self.viewport_h // 2


def _number(value: object) -> float | None:
    """A finite, plausible number, else None (left as given, so parse_cua reports it as OOS)."""
    try:
        return finite_number(value, "coordinate")
    except OutOfBounds:
        return None


def to_viewport(call: Proposal, frame: Frame) -> Proposal:
    """A computer-use proposal with its points and scroll distances in viewport pixels.

    Arguments that are not numbers are left alone, so parse_cua reports them as OOS.
    """
    if call.malformed:
        return call
    args = dict(call.args)
    for xk, yk in _POINTS:
        x, y = _number(args.get(xk)), _number(args.get(yk))
        if x is not None and y is not None:
            args[xk], args[yk] = frame.to_viewport(x, y)
    dx, dy = _number(args.get("dx")), _number(args.get("dy"))
    if dx is not None or dy is not None:
        sx, sy = frame.scale_delta(dx or 0.0, dy or 0.0)
        if dx is not None:
            args["dx"] = sx
        if dy is not None:
            args["dy"] = sy
    return Proposal(call.name, args, call.malformed)

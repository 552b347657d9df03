"""Coordinate spaces: screenshot pixels, the 0-1000 grid, downscaling and smart resizing."""

from __future__ import annotations

from pytest_gameworld.agents.providers.coords import Frame, downscaled_size, smart_resize, to_viewport
from pytest_gameworld.play.actions import Proposal


def test_downscaled_size_keeps_aspect_and_never_enlarges() -> None:
    assert downscaled_size(1280, 720, None) == (1280, 720)
    assert downscaled_size(1280, 720, 640) == (640, 360)
    assert downscaled_size(1280, 720, 2000) == (1280, 720)
    assert downscaled_size(1000, 400, 500) == (500, 200)


def test_absolute_frame_scales_back_from_the_sent_image() -> None:
    frame = Frame.for_image((1280, 720), (640, 360), "absolute")
    assert frame.to_viewport(320, 180) == (640, 360)
    assert frame.to_viewport(0, 0) == (0, 0)
    # The far edge of the image stays inside the viewport.
    assert frame.to_viewport(640, 360) == (1279, 719)


def test_same_size_frame_is_identity() -> None:
    frame = Frame.for_image((1280, 720), (1280, 720), "absolute")
    assert frame.to_viewport(123, 456) == (123, 456)


def test_normalized_grid_maps_to_viewport() -> None:
    frame = Frame.for_image((1280, 720), (640, 360), "normalized_1000")
    assert frame.to_viewport(500, 500) == (640, 360)
    assert frame.to_viewport(0, 0) == (0, 0)
    assert frame.to_viewport(1000, 1000) == (1279, 719)
    assert frame.to_viewport(999, 999) == (1279, 719)  # Gemini's 0-999 grid


def test_outside_points_stay_outside() -> None:
    frame = Frame.for_image((1280, 720), (1280, 720), "normalized_1000")
    x, y = frame.to_viewport(1200, -10)
    assert x >= 1280 and y < 0


def test_to_model_inverts() -> None:
    frame = Frame.for_image((1280, 720), (640, 360), "normalized_1000")
    assert frame.to_model(640, 360) == (500, 500)
    assert frame.to_model(1279, 719) == (999, 999)


def test_scroll_deltas_scale() -> None:
    frame = Frame.for_image((1280, 720), (1280, 720), "normalized_1000")
    assert frame.scale_delta(0, 500) == (0, 360)


def test_proposal_points_deltas_and_bad_values() -> None:
    frame = Frame.for_image((1280, 720), (640, 360), "absolute")
    moved = to_viewport(Proposal("drag", {"x": 10, "y": 20, "to_x": 30.4, "to_y": "40"}), frame)
    assert moved.args == {"x": 20, "y": 40, "to_x": 61, "to_y": 80}
    scrolled = to_viewport(Proposal("scroll", {"x": 1, "y": 1, "dy": 150}), frame)
    assert scrolled.args["dy"] == 300 and "dx" not in scrolled.args
    bad = to_viewport(Proposal("click", {"x": "left", "y": 3}), frame)
    assert bad.args == {"x": "left", "y": 3}
    malformed = Proposal("click", {}, malformed="nope")
    assert to_viewport(malformed, frame) is malformed


def test_smart_resize_rounds_to_multiples_of_28() -> None:
    assert smart_resize(1280, 720) == (1288, 728)
    w, h = smart_resize(4000, 4000, max_pixels=1000 * 1000)
    assert w % 28 == 0 and h % 28 == 0 and w * h <= 1000 * 1000
    w, h = smart_resize(20, 20)
    assert w >= 56 and h >= 56

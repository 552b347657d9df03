"""Charts for the results page and the trajectory viewer, written as inline SVG by the project itself.

No plotting library: every install draws them, and the pages stay one self-contained file. Only presentation
attributes are used (no <style>, no script), so the pages' Content-Security-Policy admits them; every text a
chart shows is escaped. Each value also carries a <title>, which a browser shows on hover.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

PALETTE = ("#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb", "#000000")
# Viridis at five stops, interpolated between: it reads in grey and for the colour-blind.
_VIRIDIS = ((0.0, (68, 1, 84)), (0.25, (59, 82, 139)), (0.5, (33, 145, 140)), (0.75, (94, 201, 98)),
            (1.0, (253, 231, 37)))
MISSING = "#dddddd"
FONT = 'font-family="system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif"'
AXIS = "#555555"
CHAR_W = 6.4  # a rough width of one 11 px character, to size the label margins


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _n(value: float) -> str:
    """A coordinate, short: 12.5, 40, never 40.000000001."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _finite(value: float | None) -> float | None:
    return value if isinstance(value, (int, float)) and math.isfinite(value) else None


def _svg(width: float, height: float, label: str, body: list[str]) -> str:
    return (f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}" '
            f'width="{_n(width)}" height="{_n(height)}" role="img" aria-label="{_e(label)}" {FONT} font-size="11">'
            f'<title>{_e(label)}</title>{"".join(body)}</svg>')


def _text(x: float, y: float, text: object, anchor: str = "start", extra: str = "") -> str:
    return f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" {extra}>{_e(text)}</text>'


def viridis(value: float) -> str:
    """The colour of a value in 0..100 (clamped)."""
    t = min(1.0, max(0.0, value / 100.0))
    for (t0, c0), (t1, c1) in zip(_VIRIDIS, _VIRIDIS[1:]):
        if t <= t1:
            f = (t - t0) / (t1 - t0)
            return "#" + "".join(f"{round(a + (b - a) * f):02x}" for a, b in zip(c0, c1))
    return "#fde725"


def ticks(lo: float, hi: float, count: int = 5, integer: bool = False) -> list[float]:
    """Round values from lo to hi, about `count` of them (1, 2 or 5 times a power of ten apart)."""
    if not hi > lo:
        return [lo]
    raw = (hi - lo) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next((m * power for m in (1, 2, 2.5, 5, 10)
                 if m * power >= raw and (not integer or float(m * power).is_integer())), 10 * power)
    if integer:
        step = max(1.0, round(step))
    first = math.ceil(lo / step - 1e-9) * step
    out, k = [], 0
    while first + k * step <= hi + 1e-9 * step:
        out.append(round(first + k * step, 10))
        k += 1
    return out


def _label(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def heatmap(rows: Sequence[str], cols: Sequence[str], values: Sequence[Sequence[float | None]], salt: str) -> str:
    """PG (%) per row (game) × column (model), each cell written out; missing cells grey with a dash. The salt
    keeps the colour bar's gradient id unique among the charts of one page."""
    cell_w, cell_h = 64.0, 22.0
    left = 12 + CHAR_W * max((len(r) for r in rows), default=4)
    top = 16 + 0.55 * CHAR_W * max((len(c) for c in cols), default=4)  # column names at -35°
    grid_w, grid_h = cell_w * len(cols), cell_h * len(rows)
    bar_x = left + grid_w + 18
    width, height = bar_x + 64, top + max(grid_h, 120) + 10
    body = []
    for j, col in enumerate(cols):
        x = left + cell_w * (j + 0.5)
        body.append(_text(x, top - 6, col, "start", f'transform="rotate(-35 {_n(x)} {_n(top - 6)})"'))
    for i, row in enumerate(rows):
        y = top + cell_h * i
        body.append(_text(left - 6, y + cell_h / 2 + 4, row, "end"))
        for j, raw in enumerate(values[i]):
            v = _finite(raw)
            x = left + cell_w * j
            fill = MISSING if v is None else viridis(v)
            shown = "–" if v is None else f"{v:.0f}"
            tip = f"{row} × {cols[j]}: " + ("not played" if v is None else f"PG {v:.1f} %")
            body.append(f'<g><title>{_e(tip)}</title><rect x="{_n(x)}" y="{_n(y)}" width="{_n(cell_w - 1)}" '
                        f'height="{_n(cell_h - 1)}" fill="{fill}"/>'
                        + _text(x + cell_w / 2, y + cell_h / 2 + 4, shown, "middle",
                                f'fill="{"black" if v is None or v > 55 else "white"}" font-size="10"') + "</g>")
    # The colour bar: 0 at the bottom, 100 at the top.
    gid = f"gw-{_e(salt)}-scale"
    bar_h = max(grid_h, 120)
    stops = "".join(f'<stop offset="{_n(100 * t)}%" stop-color="{viridis(100 * t)}"/>' for t in (0, .25, .5, .75, 1))
    body.append(f'<defs><linearGradient id="{gid}" x1="0" y1="1" x2="0" y2="0">{stops}</linearGradient></defs>'
                f'<rect x="{_n(bar_x)}" y="{_n(top)}" width="12" height="{_n(bar_h)}" fill="url(#{gid})"/>')
    for t in (0, 50, 100):
        y = top + bar_h * (1 - t / 100)
        body.append(f'<line x1="{_n(bar_x + 12)}" x2="{_n(bar_x + 15)}" y1="{_n(y)}" y2="{_n(y)}" stroke="{AXIS}"/>'
                    + _text(bar_x + 17, y + 4, t))
    body.append(_text(bar_x + 50, top + bar_h / 2, "PG (%)", "middle",
                      f'transform="rotate(-90 {_n(bar_x + 50)} {_n(top + bar_h / 2)})"'))
    return _svg(width, height, "PG (%) per game and model", body)


def grouped_bars(groups: Sequence[str], series: dict[str, Sequence[float | None]], ylabel: str) -> str:
    """One bar per series (model) in each group (curriculum level), values in % (0..100); a value that is None
    draws no bar (the group was not played) and its hover text says so."""
    n = max(1, len(series))
    group_w = max(60.0, 14.0 * n + 24)
    left, right, top, bottom = 44.0, 12.0, 18.0 + 16 * math.ceil(n / 4), 26.0
    plot_h = 170.0
    width = left + group_w * len(groups) + right
    height = top + plot_h + bottom

    def y_of(v: float) -> float:
        return top + plot_h * (1 - min(100.0, max(0.0, v)) / 100)

    body = []
    for t in ticks(0, 100):
        y = y_of(t)
        body.append(f'<line x1="{_n(left)}" x2="{_n(width - right)}" y1="{_n(y)}" y2="{_n(y)}" stroke="#dddddd"/>'
                    + _text(left - 5, y + 4, _label(t), "end"))
    body.append(_text(12, top + plot_h / 2, ylabel, "middle", f'transform="rotate(-90 12 {_n(top + plot_h / 2)})"'))
    bar_w = (group_w - 16) / n
    for g, group in enumerate(groups):
        x0 = left + group_w * g + 8
        body.append(_text(left + group_w * (g + 0.5), top + plot_h + 17, group, "middle"))
        for k, (name, vals) in enumerate(series.items()):
            v = _finite(vals[g]) if g < len(vals) else None
            tip = f"{name}, {group}: " + ("not played" if v is None else f"{ylabel} {v:.1f}")
            if v is None:
                body.append(f'<g><title>{_e(tip)}</title>' + _text(x0 + bar_w * (k + 0.5), top + plot_h - 3, "–",
                                                                    "middle", 'fill="#999999"') + "</g>")
                continue
            body.append(f'<rect x="{_n(x0 + bar_w * k)}" y="{_n(y_of(v))}" width="{_n(max(1.0, bar_w - 2))}" '
                        f'height="{_n(top + plot_h - y_of(v))}" fill="{PALETTE[k % len(PALETTE)]}">'
                        f'<title>{_e(tip)}</title></rect>')
    body.append(f'<line x1="{_n(left)}" x2="{_n(width - right)}" y1="{_n(top + plot_h)}" y2="{_n(top + plot_h)}" '
                f'stroke="{AXIS}"/>')
    for k, name in enumerate(series):  # the legend, four to a line, above the plot
        x, y = left + (k % 4) * max(120.0, (width - left) / 4), 12 + 16 * (k // 4)
        body.append(f'<rect x="{_n(x)}" y="{_n(y - 9)}" width="10" height="10" fill="{PALETTE[k % len(PALETTE)]}"/>'
                    + _text(x + 14, y, name))
    width = max(width, left + 120.0 * min(4, n))
    return _svg(width, height, f"{ylabel} per level and model", body)


@dataclass(frozen=True)
class StepChart:
    """The viewer's chart and where its x axis lies, so a marker can be placed over step i."""

    svg: str
    left: float  # the plot's left and right edges as fractions of the chart's width
    right: float
    xmax: float  # the x axis runs from 0


# The step chart's plot area as fractions of its size; the viewer's marker (viewer_script.py: top 5 %, bottom
# 19 %) spans the same band.
STEP_W, STEP_H = 1200.0, 210.0
STEP_LEFT, STEP_RIGHT, STEP_TOP, STEP_BOTTOM = 0.06, 0.94, 0.05, 0.81


def step_chart(steps: Sequence[int], progress: Sequence[float], score: Sequence[float | None],
               boundaries: Sequence[int], invalid: Sequence[int]) -> StepChart:
    """Progress (%) and score over steps; dashed lines where a new episode starts, ticks at invalid steps."""
    x0, x1 = STEP_W * STEP_LEFT, STEP_W * STEP_RIGHT
    y0, y1 = STEP_H * STEP_TOP, STEP_H * STEP_BOTTOM
    xmax = float(max(1, steps[-1] if steps else 1))

    def x_of(s: float) -> float:
        return x0 + (x1 - x0) * min(xmax, max(0.0, float(s))) / xmax

    def p_of(v: float) -> float:  # the progress axis runs from -3 to 103
        return y1 - (y1 - y0) * (min(103.0, max(-3.0, v)) + 3) / 106

    known = [v for v in (_finite(s) for s in score) if v is not None]
    lo, hi = (min(known), max(known)) if known else (0.0, 1.0)
    if hi == lo:  # a flat score gets a readable axis, not ±0.05
        lo, hi = lo - 1, hi + 1
    pad = (hi - lo) * 0.05
    lo, hi = lo - pad, hi + pad

    def s_of(v: float) -> float:
        return y1 - (y1 - y0) * (v - lo) / (hi - lo)

    body = [f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" fill="none" '
            f'stroke="#cccccc"/>']
    for t in ticks(0, xmax, 10, integer=True):
        body.append(f'<line x1="{_n(x_of(t))}" x2="{_n(x_of(t))}" y1="{_n(y1)}" y2="{_n(y1 + 4)}" stroke="{AXIS}"/>'
                    + _text(x_of(t), y1 + 16, _label(t), "middle"))
    body.append(_text((x0 + x1) / 2, STEP_H - 6, "step", "middle"))
    for t in (0, 25, 50, 75, 100):
        body.append(f'<line x1="{_n(x0 - 4)}" x2="{_n(x0)}" y1="{_n(p_of(t))}" y2="{_n(p_of(t))}" stroke="{AXIS}"/>'
                    + _text(x0 - 6, p_of(t) + 4, t, "end", f'fill="{PALETTE[0]}"'))
    integer = all(float(v).is_integer() for v in known)
    for t in ticks(lo, hi, 5, integer=integer):
        body.append(f'<line x1="{_n(x1)}" x2="{_n(x1 + 4)}" y1="{_n(s_of(t))}" y2="{_n(s_of(t))}" stroke="{AXIS}"/>'
                    + _text(x1 + 6, s_of(t) + 4, _label(t), "start", f'fill="{PALETTE[1]}"'))
    mid = (y0 + y1) / 2
    body.append(_text(16, mid, "progress %", "middle", f'fill="{PALETTE[0]}" transform="rotate(-90 16 {_n(mid)})"'))
    body.append(_text(STEP_W - 10, mid, "score", "middle",
                      f'fill="{PALETTE[1]}" transform="rotate(90 {_n(STEP_W - 10)} {_n(mid)})"'))
    for b in boundaries:
        body.append(f'<line x1="{_n(x_of(b))}" x2="{_n(x_of(b))}" y1="{_n(y0)}" y2="{_n(y1)}" stroke="#999999" '
                    f'stroke-dasharray="4 3"><title>episode {_e(b)} begins</title></line>')
    # The score as a step line (it holds until the next step), broken where a step has no score.
    path: list[str] = []
    pen_up = True
    for i, (s, raw) in enumerate(zip(steps, score)):
        v = _finite(raw)
        if v is None:
            pen_up = True
            continue
        path.append(f"M{_n(x_of(s))} {_n(s_of(v))}" if pen_up else f"V{_n(s_of(v))}")
        path.append(f"H{_n(x_of(steps[i + 1] if i + 1 < len(steps) else s))}")
        pen_up = False
    if path:
        body.append(f'<path d="{" ".join(path)}" fill="none" stroke="{PALETTE[1]}" stroke-width="1"/>')
    points = " ".join(f"{_n(x_of(s))},{_n(p_of(_finite(p) or 0.0))}" for s, p in zip(steps, progress))
    if points:
        body.append(f'<polyline points="{points}" fill="none" stroke="{PALETTE[0]}" stroke-width="1.6"/>')
    for s in invalid:
        body.append(f'<line x1="{_n(x_of(s))}" x2="{_n(x_of(s))}" y1="{_n(p_of(-1.5) - 5)}" '
                    f'y2="{_n(p_of(-1.5) + 5)}" stroke="#e08a00" stroke-width="1.5"><title>step {_e(s)}: invalid '
                    f'action</title></line>')
    legend = [("progress (%)", PALETTE[0]), ("score", PALETTE[1])] + ([("invalid action", "#e08a00")] if invalid else [])
    for k, (name, colour) in enumerate(legend):
        x = x0 + 8 + 120 * k
        body.append(f'<line x1="{_n(x)}" x2="{_n(x + 16)}" y1="{_n(y0 + 10)}" y2="{_n(y0 + 10)}" stroke="{colour}" '
                    f'stroke-width="2"/>' + _text(x + 20, y0 + 14, name))
    svg = _svg(STEP_W, STEP_H, "progress and score over steps", body)
    return StepChart(svg, STEP_LEFT, STEP_RIGHT, xmax)

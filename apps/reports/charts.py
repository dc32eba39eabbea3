"""Bar charts as plain SVG geometry, drawn on the server (no JavaScript, no CDN, nothing inline for the CSP).

`bar_chart(section)` turns a report section into rectangles, axis ticks and a legend the template writes as
SVG elements with presentation attributes (fill, x, y…), never `style=`. Stacked sections pile their series
in one bar per category; the others put the series side by side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from apps.reports.selectors import Section

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 72, 12, 16, 78
TICKS = 4
# gov.br Design System colours: blue, green, warm yellow, red, then greys.
PALETTE = ("#1351b4", "#168821", "#c47d00", "#e52207", "#636363")
LIMIT_PALETTE = ("#1351b4", "#e52207")


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    fill: str
    title: str


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str


@dataclass(frozen=True)
class Legend:
    x: float
    fill: str
    text: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    plot_left: int
    plot_right: int
    baseline: float
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    labels: tuple[Label, ...]
    legend: tuple[Legend, ...]
    limit_x: float | None


def _axis_top(peak: float, money: bool) -> float:
    """The top of the axis: TICKS steps of 1, 2 or 5 times a power of ten (2.5 too for money), at or above
    the largest value, so every tick is a round number (a count axis never gets a fractional tick)."""
    if peak <= 0:
        return float(TICKS)
    wanted = peak / TICKS
    power = 10 ** math.floor(math.log10(wanted))
    steps = (1, 2, 2.5, 5, 10) if money or power >= 10 else (1, 2, 5, 10)
    step = next(s * power for s in steps if wanted <= s * power)
    return float(max(step, 1) * TICKS) if not money else float(step * TICKS)


def bar_chart(section: Section) -> Chart:
    palette = LIMIT_PALETTE if section.limit_at is not None else PALETTE
    count = max(len(section.categories), 1)
    totals = [sum(float(v) for v in values) for _, values in section.rows]
    peak = max(totals if section.stacked else [float(v) for s in section.series for v in s.values] or [0])
    top = _axis_top(peak, section.money)
    plot_height = HEIGHT - TOP - BOTTOM
    slot = (WIDTH - LEFT - RIGHT) / count
    baseline = float(HEIGHT - BOTTOM)
    bars = _bars(section, palette, slot, baseline, top, plot_height)
    ticks = tuple(
        Tick(
            round(baseline - plot_height * i / TICKS, 1),
            section.text(top * i / TICKS),
        )
        for i in range(TICKS + 1)
    )
    labels = _labels(section, count, slot, baseline)
    legend = tuple(
        Legend(LEFT + i * 180, palette[i % len(palette)], series.label)
        for i, series in enumerate(section.series)
    )
    limit_x = None if section.limit_at is None else round(LEFT + section.limit_at * slot, 1)
    return Chart(WIDTH, HEIGHT, LEFT, WIDTH - RIGHT, baseline, tuple(bars), ticks, labels, legend, limit_x)


def _bars(
    section: Section, palette: tuple[str, ...], slot: float, baseline: float, top: float, plot_height: float
) -> list[Bar]:
    """A bar per non-zero value: stacked in its category's slot, or side by side across it."""
    bars: list[Bar] = []
    for index, (category, values) in enumerate(section.rows):
        x0 = LEFT + index * slot + slot * 0.12
        inner = slot * 0.76
        stacked_y = baseline
        for position, (series, value) in enumerate(zip(section.series, values, strict=True)):
            if not value:
                continue
            h = float(value) / top * plot_height
            title = f"{category} — {series.label}: {section.text(value)}"
            fill = palette[position % len(palette)]
            if section.stacked:
                stacked_y -= h
                bars.append(Bar(round(x0, 1), round(stacked_y, 1), round(inner, 1), round(h, 1), fill, title))
            else:
                width = inner / len(section.series)
                x = x0 + position * width
                bars.append(
                    Bar(round(x, 1), round(baseline - h, 1), round(width, 1), round(h, 1), fill, title)
                )
    return bars


def _labels(section: Section, count: int, slot: float, baseline: float) -> tuple[Label, ...]:
    """The categories under the axis; with many, only every n-th so they do not overlap."""
    every = max(1, math.ceil(count / 24))
    return tuple(
        Label(round(LEFT + i * slot + slot / 2, 1), baseline + 12, category[:18])
        for i, category in enumerate(section.categories)
        if i % every == 0
    )

"""A rating history as a small server-rendered SVG line chart: no chart library, no script."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 36  # room for the axis labels


@dataclass(frozen=True)
class Tick:
    position: float
    label: str
    anchor: str = "middle"  # SVG text-anchor: the outer date labels stay inside the picture


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    points: list[tuple[float, float]]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int

    @property
    def polyline(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.points)


def _nice_step(span: float, ticks: int = 4) -> int:
    raw = max(span / ticks, 1)
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if step >= raw:
            return step
    return int(raw)


def line_chart(values: list[int], dates: list[datetime]) -> LineChart | None:
    """Plot ``values`` (one per rated match, oldest first) against their match number."""
    if not values:
        return None
    low, high = min(values), max(values)
    step = _nice_step(high - low)
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        low, high = low - step, high + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = len(values)

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    y_ticks = [Tick(y(v), str(v)) for v in range(low, high + 1, step)]
    # Label the first and last match with their dates; the axis counts matches, so gaps in time do not distort.
    x_ticks = [Tick(x(0), f"{dates[0]:%Y-%m-%d}", "start" if count > 1 else "middle")]
    if count > 1:
        x_ticks.append(Tick(x(count - 1), f"{dates[-1]:%Y-%m-%d}", "end"))
    return LineChart(
        width=WIDTH,
        height=HEIGHT,
        points=[(x(i), y(v)) for i, v in enumerate(values)],
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        plot_top=TOP,
        plot_bottom=HEIGHT - BOTTOM,
    )


def value_chart(values: list[float], labels: list[str]) -> LineChart | None:
    """Plot a match's values (one per position, for the first seat) on an axis symmetric about zero,
    so the line crossing the middle is the lead changing hands; ``labels`` name the first and last
    positions on the x axis."""
    if not values:
        return None
    step = _nice_step(2 * max(max(abs(v) for v in values), 1))
    bound = max(step, -(-max(abs(v) for v in values) // step) * step)
    bound = int(bound)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = len(values)

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (bound - v) / (2 * bound)

    y_ticks = [Tick(y(v), f"{v:+d}" if v else "0") for v in range(-bound, bound + 1, step)]
    x_ticks = [Tick(x(0), labels[0], "start" if count > 1 else "middle")]
    if count > 1:
        x_ticks.append(Tick(x(count - 1), labels[-1], "end"))
    return LineChart(
        width=WIDTH,
        height=HEIGHT,
        points=[(x(i), y(v)) for i, v in enumerate(values)],
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        plot_top=TOP,
        plot_bottom=HEIGHT - BOTTOM,
    )

"""The run's plot, ``progress.svg``: the best network's Elo (each promotion
adds its gate's measured Elo to the one it beat) and the training loss,
per generation. Plain SVG, written here: no plotting package needed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

__all__ = ["elo_curve", "progress_svg"]

_W, _H, _PAD = 640, 360, 48


def elo_curve(generations: Sequence[dict[str, Any]]) -> list[float]:
    """The best network's Elo after each generation, generation 0 at 0."""
    elo, curve = 0.0, []
    for entry in generations:
        gate = entry.get("gate")
        if entry.get("promoted") and gate:
            elo += float(gate["elo"])
        curve.append(elo)
    return curve


def _line(values: Sequence[float], colour: str, panel: int, label: str) -> str:
    top = _PAD + panel * (_H - _PAD) // 2
    height = (_H - 2 * _PAD) // 2 - 8
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    width = _W - 2 * _PAD
    step = width / max(1, len(values) - 1)
    points = " ".join(f"{_PAD + i * step:.1f},{top + height - (v - low) / span * height:.1f}"
                      for i, v in enumerate(values))
    return (f'<text x="{_PAD}" y="{top - 6}" font-size="12">{escape(label)}: '
            f'{low:.3g} to {high:.3g}</text>'
            f'<rect x="{_PAD}" y="{top}" width="{width}" height="{height}" fill="none" '
            f'stroke="#ccc"/>'
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')


def progress_svg(generations: Sequence[dict[str, Any]]) -> str:
    """The SVG text of the plot of ``train.json``'s generations."""
    losses = [float(entry["loss"]["loss"]) for entry in generations]
    body = ""
    if generations:
        body = (_line(elo_curve(generations), "#1f5fa8", 0, "best network's Elo")
                + _line(losses, "#b2452b", 1, "training loss"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" '
            f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>'
            f'{body}<text x="{_W // 2}" y="{_H - 12}" font-size="12" text-anchor="middle">'
            f'generation (0 to {max(0, len(generations) - 1)})</text></svg>\n')

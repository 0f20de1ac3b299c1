"""The arrows of «Тише едешь»'s last move: a densely sampled path (see :func:`render.tishe._bezier`)
trimmed at both ends and drawn wide with a head, solid or dashed, anti-aliased."""

from __future__ import annotations

import math
from itertools import groupby, pairwise

from PIL import Image, ImageDraw

from render.canvas import paste
from render.theme import INK, RGB


def lengths(points: list[tuple[float, float]]) -> list[float]:
    """The length of a polyline up to each of its points."""
    out = [0.0]
    for a, b in pairwise(points):
        out.append(out[-1] + math.dist(a, b))
    return out


def trim(points: list[tuple[float, float]], start: float, end: float) -> list[tuple[float, float]]:
    """Drop about ``start`` px of length from the front of a (densely sampled) polyline and ``end`` px from its back."""
    cum = lengths(points)
    kept = [p for p, c in zip(points, cum, strict=True) if start <= c <= cum[-1] - end]
    return kept if len(kept) > 1 else points[len(points) // 2 - 1:len(points) // 2 + 1]


def corners(points: list[tuple[float, float]], turn: float = 0.2) -> list[tuple[float, float]]:
    """The inner points of a polyline where it turns by more than ``turn`` radians (~11°): the only
    joints a wide line shows a notch at (a curve sampled every few px turns by a degree or two)."""
    out = []
    for (ax, ay), (bx, by), (cx, cy) in zip(points, points[1:], points[2:], strict=False):
        ux, uy, vx, vy = bx - ax, by - ay, cx - bx, cy - by
        if abs(math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)) > turn:
            out.append((bx, by))
    return out


def draw_path_arrow(img: Image.Image, path: list[tuple[float, float]], colour: RGB, width: int,
                    dashed: bool = False) -> None:
    """A polyline with a head at its end, in ``colour`` outlined in ink, anti-aliased (2× drawn)."""
    k = 2
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    m = width + 16
    ox, oy = int(min(xs)) - m, int(min(ys)) - m
    layer = Image.new("RGBA", ((int(max(xs)) + m - ox) * k, (int(max(ys)) + m - oy) * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    pts = [((x - ox) * k, (y - oy) * k) for x, y in path]
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    ang = math.atan2(by - ay, bx - ax)
    head_l, head_w = (width * 2.4 + 6) * k, (width * 1.5 + 4) * k
    tip = (bx + math.cos(ang) * head_l * 0.25, by + math.sin(ang) * head_l * 0.25)
    base = (tip[0] - math.cos(ang) * head_l, tip[1] - math.sin(ang) * head_l)
    head = [tip, (base[0] - math.sin(ang) * head_w, base[1] + math.cos(ang) * head_w),
            (base[0] + math.sin(ang) * head_w, base[1] - math.cos(ang) * head_w)]
    runs = [pts]
    if dashed:  # dashes of 11 px with 7 px gaps
        on = [(c / k) % 18 < 11 for c in lengths(pts)]
        runs = [[p for p, _ in grp] for dash, grp in groupby(zip(pts, on, strict=True), key=lambda x: x[1]) if dash]
    for colour_, extra in ((INK, 4 * k), (colour, 0)):
        w = width * k + extra
        for run in runs:
            if len(run) > 1:  # round joints only where the run turns: elsewhere they would not show
                d.line(run, fill=(*colour_, 255), width=w)
                for x, y in corners(run):
                    d.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=(*colour_, 255))
    d.polygon(head, fill=(*colour, 255), outline=(*INK, 255), width=2 * k)
    paste(img, layer.reduce(k), (ox, oy))

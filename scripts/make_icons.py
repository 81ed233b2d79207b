"""Draw the app's PNG icons (scorekeeper/static/icon-192.png,
scorekeeper/static/icon-512.png) with zlib and struct.

The same picture as scorekeeper/static/icon.svg: two playing cards on the dark background,
the front one with a red diamond. Run ``python scripts/make_icons.py`` after changing the design.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "scorekeeper" / "static"
BG, CARD, EDGE, RED, GOLD = (
    (20, 24, 31),
    (244, 241, 234),
    (201, 194, 179),
    (210, 40, 48),
    (242, 184, 75),
)


def _in_round_rect(x: float, y: float, box: tuple[float, float, float, float], r: float) -> bool:
    x0, y0, x1, y1 = box
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _pixel(u: float, v: float) -> tuple[int, int, int]:
    """The colour at (u, v), both 0..1 across the icon."""
    back = (0.20, 0.16, 0.66, 0.78)
    front = (0.34, 0.24, 0.80, 0.86)
    if _in_round_rect(u, v, front, 0.06):
        inner = _in_round_rect(u, v, (0.355, 0.255, 0.785, 0.845), 0.05)
        if abs(u - 0.57) / 0.16 + abs(v - 0.55) / 0.22 <= 1:
            return RED
        return CARD if inner else EDGE
    # the back card, turned slightly: shift by v to tilt it
    if _in_round_rect(u + (v - 0.5) * 0.18, v, back, 0.06):
        return GOLD
    return BG


def png(size: int) -> bytes:
    """A ``size`` x ``size`` RGB PNG of the icon."""
    rows = []
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            row += bytes(_pixel((x + 0.5) / size, (y + 0.5) / size))
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    data = zlib.compress(b"".join(rows), 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(size))
        print(f"scorekeeper/static/icon-{size}.png")

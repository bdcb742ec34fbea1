"""Figure sizes: numbers are CSS pixels; strings may give a unit (in, cm, mm, pt, px)."""

from __future__ import annotations

import re
from dataclasses import dataclass

PX_PER = {"px": 1.0, "in": 96.0, "cm": 96.0 / 2.54, "mm": 96.0 / 25.4, "pt": 96.0 / 72.0}
_LENGTH = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(px|in|cm|mm|pt)?\s*$")


@dataclass(frozen=True)
class Length:
    """A length as CSS pixels (what the renderer lays out in) and as written in the SVG."""

    px: float
    attr: str

    @property
    def inches(self) -> float:
        return self.px / 96.0


def length(value: object, what: str) -> Length:
    """Parse a figure width or height: ``800``, ``"800px"``, ``"3.5in"``, ``"8cm"``, ``"240pt"``."""
    if isinstance(value, bool):
        raise ValueError(_bad(value, what))
    if isinstance(value, (int, float)):
        px, unit = float(value), "px"
        number = repr(value)
    elif isinstance(value, str) and (m := _LENGTH.match(value)):
        number, unit = m.group(1), m.group(2) or "px"
        px = float(number) * PX_PER[unit]
    else:
        raise ValueError(_bad(value, what))
    if not 1 <= px <= 20000:
        raise ValueError(f"figure {what} {value!r} is {px:.0f} px; give 1 px to 20000 px")
    return Length(px, f"{number}{unit}" if unit != "px" else f"{px:g}")


def _bad(value: object, what: str) -> str:
    return (
        f"figure {what} must be a number of pixels or a string with a unit (px, in, cm, mm, "
        f"pt), e.g. 800 or '3.5in'; got {value!r}"
    )

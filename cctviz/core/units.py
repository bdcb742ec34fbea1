"""Units of metrics: what a unit text means (the grammar of ``cctviz/units.json``, which the front
end's ``js/src/cct/base/units.js`` reads too) and values printed with their unit and one SI
prefix that fits a column of them (``345 µs``, ``5.52 ms``; a column ``345 µs … 5520 µs``).

A unit is ``[prefix]base[/per]``: a known base (``s``, ``B``, ``Hz``, ``FLOP``, … and aliases
such as ``sec``, ``bytes``) with an optional SI prefix (``ms``, ``usec``, ``µs``, ``ns``, ``kB``) or
binary one for bytes (``KiB``): values are rescaled to the base and printed with the prefix that
fits (1500 ms prints as ``1.5 s``). Any other text of letters, digits, spaces and a few signs is a
label (``samples``, ``calls``, ``occ``): printed as given, values scaled by ``k``, ``M``, … on the
number (``12.3k samples``). Text that is neither (empty, markup, a number such as ``1e-6 s``, a
known base behind a letter that is no prefix such as ``KB``) does not parse: :func:`parse` raises
:class:`UnitError` saying what is accepted. ``tests/conformance/units-cases.json`` holds the
cases Python and the front end must agree on.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

GRAMMAR: dict[str, Any] = json.loads(
    resources.files("cctviz").joinpath("units.json").read_text(encoding="utf-8")
)
PREFIXES: dict[str, int] = GRAMMAR["prefixes"]
PREFIX_OF: dict[int, str] = {e: p for p, e in PREFIXES.items()}
LARGEST = max(PREFIXES.values())
_ALIASES: dict[str, str] = GRAMMAR["prefix_aliases"]
_BINARY: dict[str, int] = GRAMMAR["binary"]
_BASES: dict[str, dict[str, Any]] = GRAMMAR["bases"]
_BASE_OF: dict[str, str] = {
    name: base for base, spec in _BASES.items() for name in (base, *spec["aliases"])
}
_SIGNS: str = GRAMMAR["label_characters"]
MAX_LENGTH: int = GRAMMAR["max_length"]
COLUMN_TOP = 10.0 ** GRAMMAR["column_digits"]
MINUS = "\u2212"


class UnitError(ValueError):
    """A unit text that does not parse."""


@dataclass(frozen=True)
class Unit:
    """What a unit text means."""

    text: str
    """As given (surrounding spaces dropped)."""
    symbol: str
    """The base printed (``s``, ``B``), or the label as given."""
    per: str = ""
    """What a base is per (``s`` of ``B/s``); empty when none."""
    scale: float = 1.0
    """One of the given unit in the base (``ms``: 0.001); 1 for a label."""
    si: bool = False
    """A known base: the prefix goes on the unit and values are rescaled to the base."""
    smallest: int = 0
    """The power of ten of the smallest prefix printed (``s``: atto; bytes and labels: none)."""
    largest: int = LARGEST
    """The power of ten of the largest prefix printed (``s``: none above seconds)."""

    @property
    def title(self) -> str:
        """The unit a legend or a column header names: the base (``usec`` is ``s``)."""
        return f"{self.symbol}/{self.per}" if self.per else self.symbol


def accepted() -> str:
    """What :func:`parse` accepts, in words, for error messages."""
    bases = ", ".join(
        f"{b} ({', '.join(s['aliases'])})" if s["aliases"] else b for b, s in _BASES.items()
    )
    prefixes = " ".join(p for p in PREFIXES if p)
    return (
        f"a base unit {bases} with an optional SI prefix ({prefixes}; u for µ) or, for bytes and "
        f"bits, a binary one ({' '.join(_BINARY)}), optionally /something (e.g. 'ms', 'usec', "
        f"'KiB', 'GB/s'); or a label of letters, digits, spaces and {_SIGNS.strip()!r}, up to "
        f"{MAX_LENGTH} characters, not starting with a number (e.g. 'samples', 'calls')"
    )


def parse(text: Any) -> Unit:
    """The :class:`Unit` ``text`` names. Raises :class:`UnitError` saying why it does not parse
    and what is accepted."""
    if not isinstance(text, str):
        raise UnitError(
            f"a unit is text; got {type(text).__name__} {text!r}. Accepted: {accepted()}"
        )
    t = text.strip()
    problem = _problem(t)
    if problem:
        raise UnitError(f"unit {text!r} does not parse: {problem}. Accepted: {accepted()}")
    head, slash, per = t.partition("/")
    head = head.strip() if slash else head
    unit = _prefixed(head, per.strip(), t)
    if unit is not None:
        return unit
    if len(head) >= 2 and head[1:] in _BASE_OF and head[0].isalpha():
        base = _BASE_OF[head[1:]]
        binary = f" or binary 'Ki{base}' (1024 {base})" if _BASES[base]["binary"] else ""
        raise UnitError(
            f"unit {text!r} does not parse: {head[0]!r} is not an SI prefix of {base!r} (kilo is "
            f"'k{base}'{binary}). Accepted: {accepted()}"
        )
    return Unit(t, t)


def _problem(t: str) -> str:
    if not t:
        return "it is empty"
    if len(t) > MAX_LENGTH:
        return f"it is {len(t)} characters long, more than {MAX_LENGTH}"
    bad = next((c for c in t if not (c.isalnum() or c in _SIGNS or c in "µμ")), None)
    if bad is not None:
        return f"it holds '{bad}' (U+{ord(bad):04X}), which is no part of a unit"
    if t[0] in "0123456789+-.":
        return "it starts with a number: the scale goes in the prefix ('µs', not '1e-6 s')"
    return ""


def _prefixed(head: str, per: str, text: str) -> Unit | None:
    """``head`` as [prefix]base, or None."""
    for prefix in sorted([*PREFIXES, *_ALIASES, *_BINARY], key=len, reverse=True):
        rest = head[len(prefix) :]
        if not head.startswith(prefix) or rest not in _BASE_OF:
            continue
        base = _BASE_OF[rest]
        spec = _BASES[base]
        if prefix in _BINARY:
            if not spec["binary"]:
                continue
            scale = 2.0 ** _BINARY[prefix]
        else:
            scale = 10.0 ** PREFIXES[_ALIASES.get(prefix, prefix)]
        return Unit(
            text, base, per, scale, True, PREFIXES[spec["smallest"]], PREFIXES[spec["largest"]]
        )
    return None


def canonical(text: str) -> str:
    """``text`` in the grammar's own spelling (``usec`` → ``µs``, ``sec`` → ``s``); a label as
    given. Raises :class:`UnitError` when it does not parse."""
    unit = parse(text)
    if not unit.si:
        return unit.text
    exponent = round(math.log10(unit.scale))
    if 10.0**exponent != unit.scale or exponent not in PREFIX_OF:  # binary: keep the text
        return unit.text
    return PREFIX_OF[exponent] + unit.title


def check(units: Mapping[Any, Any], what: str = "units") -> dict[str, str]:
    """``units`` (metric name → unit text) with each unit parsed; a :class:`UnitError` naming
    the metric whose unit does not parse."""
    out: dict[str, str] = {}
    for name, text in units.items():
        try:
            parse(text)
        except UnitError as error:
            raise UnitError(f"{what}[{name!r}]: {error}") from None
        out[str(name)] = text
    return out


# printing ----------------------------------------------------------------------------------


def _as_unit(unit: Unit | str | None) -> Unit | None:
    return (
        parse(unit) if isinstance(unit, str) and unit else unit if isinstance(unit, Unit) else None
    )


def fit(values: Iterable[float], unit: Unit | str | None = None) -> int:
    """The power of ten of the one prefix that fits ``values`` (in ``unit``): the one the
    largest finite magnitude prints with from 1 to below 1000, or a smaller one while the
    smallest would print below 1 and the largest stays below 10,000 (``0.000345`` and
    ``0.00552`` s: µs, ``345 µs`` and ``5520 µs``), within the unit's prefixes."""
    u = _as_unit(unit)
    scale, smallest, largest = (u.scale, u.smallest, u.largest) if u else (1.0, 0, LARGEST)
    sizes = [abs(v) * scale for v in values if math.isfinite(v) and v != 0]
    if not sizes:
        return 0
    top, low = max(sizes), min(sizes)
    e = 3 * math.floor(math.log10(top) / 3)
    e -= 3 if top / 10.0**e < 1 else 0  # log10 rounding
    e += 3 if float(f"{top / 10.0**e:.3g}") >= 1000 else 0  # 999.7 rounds to 1000: the next
    e = max(smallest, min(largest, e))
    while (
        float(f"{low / 10.0**e:.3g}") < 1
        and e - 3 >= smallest
        and top / 10.0 ** (e - 3) < COLUMN_TOP
    ):
        e -= 3
    return e


def _number(x: float) -> str:
    if x == 0:
        return "0"
    a = abs(x)
    if a < 1e-3 or a >= 1e6:
        mantissa, _, power = f"{a:.2e}".partition("e")
        text = f"{mantissa.rstrip('0').rstrip('.')}e{int(power)}"
    else:
        digits = max(0, 2 - math.floor(math.log10(a)))
        text = f"{a:.{digits}f}"
        text = text.rstrip("0").rstrip(".") if "." in text else text
    return (MINUS if x < 0 else "") + text.replace("-", MINUS)


def format_value(value: float, unit: Unit | str | None = None, exponent: int | None = None) -> str:
    """``value`` (in ``unit``) with its unit and a prefix: ``exponent``'s (from :func:`fit`), or
    the one that fits it alone (0: none). ``missing`` for NaN."""
    u = _as_unit(unit)
    if math.isnan(value):
        return "missing"
    if math.isinf(value):
        return "∞" if value > 0 else f"{MINUS}∞"
    e = fit([value], u) if exponent is None or value == 0 else exponent  # 0 has no scale
    number = _number(value * (u.scale if u else 1.0) / 10.0**e)
    prefix = PREFIX_OF.get(e, "")
    if u is None:
        return f"{number}{prefix}"
    if u.si:
        return f"{number} {prefix}{u.title}"
    return f"{number}{prefix} {u.text}"


def column_format(
    values: Iterable[float], unit: Unit | str | None = None
) -> Callable[[float], str]:
    """A formatter of values of one column (a legend, a table column): one prefix for all."""
    u = _as_unit(unit)
    e = fit(list(values), u)
    return lambda v: format_value(v, u, e)


def column_texts(values: Iterable[float], unit: str | None = None) -> list[str]:
    """``values`` printed as one column (:func:`column_format`: one prefix for all, ``12 ms →
    15 ms``); a unit the grammar refuses prints them without one."""
    numbers = [float(v) for v in values]
    try:
        printed = column_format(numbers, unit or None)
    except UnitError:
        printed = column_format(numbers)
    return [printed(v) for v in numbers]

"""The profile strip of an ensemble view: one point per profile, a metadata column (or a run's
total of a metric) against another, sampled to at most ``MAX_POINTS``; and the SQL condition on
the profiles that a brushed range of it makes (what ``CCT.where`` then holds).

A brushed range becomes a condition on the metadata rather than a list of profile ids: it reads
as what the user meant (``"jobsize" BETWEEN 128 AND 512``), it keeps its meaning for the
profiles the sample left out of the strip and for those added to the store later, and it stays
short however many profiles pass. Only an axis of a run's metric, which is no metadata column,
gives the ids of the profiles in its range (``profile IN (...)``)."""

from __future__ import annotations

import math
import reprlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ...ensemble.analysis.graphframe import measured
from ...ensemble.engine.reducers import quote

if TYPE_CHECKING:
    from ...ensemble.ensemble import Ensemble

MAX_POINTS = 2000
"""Points the strip is sent at most: more profiles are sampled (the strip says so)."""
METRIC = "metric:"
"""An axis named ``"metric:<name>"`` is that metric summed over the roots, per profile."""
NOT_AXES = ("hash", "source", "nodes")
"""Columns cctviz adds to every profile: not offered as axes."""
FIGURE_OF_MERIT = "figure_of_merit"
DATES_MS = 9.2e12
"""Milliseconds since 1970 that a pandas Timestamp holds, either side (about 292 years)."""


@dataclass(frozen=True)
class Axis:
    """One axis the strip offers: ``name`` (what ``strip_x``/``strip_y`` hold), ``label`` and
    ``kind``: ``"date"`` (values in milliseconds since 1970) or ``"number"``."""

    name: str
    label: str
    kind: str


def axes(ens: Ensemble) -> list[Axis]:
    """The strip's axes: the numeric and date metadata columns, then run totals: each measured
    inclusive metric's, and the inclusive partner's of each measured exclusive one (inclusive
    metrics first). A parameter, a fraction, a ratio or a maximum has no run total."""
    profiles = ens.profiles
    out: list[Axis] = []
    for column in profiles.columns:
        name = str(column)
        dtype = profiles[column].dtype
        if name in NOT_AXES or pd.api.types.is_bool_dtype(dtype):
            continue
        if pd.api.types.is_datetime64_any_dtype(dtype):
            out.append(Axis(name, name, "date"))
        elif pd.api.types.is_numeric_dtype(dtype):
            out.append(Axis(name, name, "number"))
    out += [Axis(METRIC + m, f"{m} (run total)", "number") for m in run_totals(ens.metrics)]
    return out


def run_totals(kinds: pd.DataFrame) -> list[str]:
    """The metrics whose sum over the roots is a run's total: the measured inclusive ones, then
    the inclusive partners (derived by cctviz where none was measured) of measured exclusive
    ones."""
    names = measured(kinds)
    inclusive = [m for m in names if kinds.loc[m, "kind"] == "inclusive"]
    partners = [kinds.loc[m, "partner"] for m in names if kinds.loc[m, "kind"] == "exclusive"]
    more = [
        p
        for p in partners
        if isinstance(p, str) and p in kinds.index and kinds.loc[p, "kind"] == "inclusive"
    ]
    return list(dict.fromkeys([*inclusive, *more]))


def _varies(profiles: pd.DataFrame, axis: Axis) -> bool:
    return axis.name in profiles and profiles[axis.name].nunique(dropna=True) > 1


def default_axes(ens: Ensemble, options: list[Axis], color_by: str) -> tuple[str, str]:
    """x: a launch date if any (else the first numeric column); y: figure_of_merit, else the
    colour metric's run total (its inclusive partner's, when it is exclusive)."""
    profiles = ens.profiles
    columns = [a for a in options if not a.name.startswith(METRIC)]
    varying = [a for a in columns if _varies(profiles, a)] or columns
    dates = [a for a in varying if a.kind == "date"]
    launch = [a for a in dates if a.name == "launchdate"]
    numbers = [a for a in varying if a.kind == "number"]
    metrics = [a for a in options if a.name.startswith(METRIC)]
    x = (launch or dates or numbers or metrics or options)[0].name
    kinds = ens.metrics
    metric = color_by
    if metric in kinds.index and kinds.loc[metric, "kind"] == "exclusive":
        partner = kinds.loc[metric, "partner"]
        metric = partner if isinstance(partner, str) and partner in kinds.index else metric
    wanted = METRIC + metric
    if any(a.name == FIGURE_OF_MERIT for a in numbers):
        y = FIGURE_OF_MERIT
    elif any(a.name == wanted for a in metrics):
        y = wanted
    else:
        y = next((a.name for a in options if a.name != x), x)
    return x, y


def axis_values(ens: Ensemble, axis: Axis) -> pd.Series:
    """The axis's value per profile of ``ens`` (float; dates in ms since 1970; NaN: none)."""
    if axis.name.startswith(METRIC):
        return ens.totals(axis.name[len(METRIC) :])
    column = ens.profiles[axis.name]
    if axis.kind == "date":
        stamps = pd.to_datetime(column, errors="coerce")
        ms = stamps.astype("int64").astype(np.float64) / 1e6
        return ms.where(stamps.notna())
    return pd.to_numeric(column, errors="coerce").astype(np.float64)


def find_axis(options: list[Axis], name: str) -> Axis:
    for axis in options:
        if axis.name == name:
            return axis
    listed = ", ".join(repr(a.name) for a in options)
    raise KeyError(f"no strip axis {name!r}; the strip offers {listed}")


def payload(
    ens: Ensemble,
    options: list[Axis],
    x: str,
    y: str,
    passing: set[Any] | None,
    where: str = "",
    brush: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the strip is sent: its axes, at most ``MAX_POINTS`` points (profile id, x, y and
    whether it passes ``where``: ``passing`` holds the ids that do, None for all), how many
    profiles there are and pass, and the brushed ranges that made ``where`` (to draw again)."""
    ax, ay = find_axis(options, x), find_axis(options, y)
    xs, ys = axis_values(ens, ax), axis_values(ens, ay)
    ids = xs.index
    total = len(ids)
    keep = (xs.notna() & ys.notna()).to_numpy()
    positions = np.flatnonzero(keep)
    sampled = positions.size > MAX_POINTS
    if sampled:  # the same sample every time: a seeded choice, in the store's order
        rng = np.random.default_rng(0)
        positions = np.sort(rng.choice(positions, MAX_POINTS, replace=False))
    shown = ids[positions]
    passes = [1 if passing is None or p in passing else 0 for p in shown]
    return {
        "axes": [{"name": a.name, "label": a.label, "kind": a.kind} for a in options],
        "x": ax.name,
        "y": ay.name,
        "profiles": total,
        "missing": int(total - keep.sum()),
        "sampled": bool(sampled),
        "passing": total if passing is None else len(passing),
        "where": where,
        "brush": brush,
        "ids": [str(p) for p in shown],
        "xs": _short(xs.to_numpy()[positions]),
        "ys": _short(ys.to_numpy()[positions]),
        "pass": passes,
    }


def _short(values: np.ndarray) -> list[float]:
    """Values to draw, in 8 significant digits (far below a pixel; dates: to the second)."""
    return [float(f"{v:.8g}") if abs(v) < 1e11 else round(float(v), -3) for v in values]


def _end(value: Any) -> float | None:
    """A brush's end: a finite number (not a bool, a text or anything nested), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        end = float(value)
    except OverflowError:  # an int past a float's range
        return None
    return end if math.isfinite(end) else None


def _range(value: Any, name: str) -> tuple[float, float] | None:
    if value is None:
        return None
    pair = value if isinstance(value, (list, tuple)) and len(value) == 2 else (None, None)
    low, high = _end(pair[0]), _end(pair[1])
    if low is None or high is None:
        shown = reprlib.repr(value)  # a forged brush may be huge: its start only
        raise ValueError(f"brush: {name} is [low, high] (finite numbers) or null; got {shown}")
    return (min(low, high), max(low, high))


def ranges(content: dict[str, Any]) -> dict[str, list[float] | None]:
    """The brushed ranges of a ``brush`` request from the page, checked: ``x`` and ``y`` each
    [low, high] (finite numbers, in the order sent: the strip draws them again) or None; a
    ``ValueError`` for anything else (a text, NaN, a list of another length, a nested object).
    Nothing of the page's text reaches SQL: ``condition`` writes numbers and timestamps."""
    out: dict[str, list[float] | None] = {}
    for side in ("x", "y"):
        value: Any = content.get(side)
        out[side] = None if _range(value, side) is None else [float(v) for v in value]
    return out


def _rounded(value: float, up: bool) -> str:
    """``value`` in six significant digits, rounded outwards (the range only grows)."""
    if value == 0 or not math.isfinite(value):
        return repr(float(value))
    step = 10 ** (math.floor(math.log10(abs(value))) - 5)
    rounded = (math.ceil if up else math.floor)(value / step) * step
    return f"{rounded:.6g}" if float(f"{rounded:.6g}") == rounded else repr(rounded)


def _literal(profile: Any) -> str:
    if isinstance(profile, (int, np.integer)) and not isinstance(profile, bool):
        return str(int(profile))
    return "'" + str(profile).replace("'", "''") + "'"


def condition(ens: Ensemble, options: list[Axis], x: str, y: str, brush: dict[str, Any]) -> str:
    """The SQL condition on the profiles of ``ens`` that the brushed ranges make: each brushed
    axis's column between its ends (dates as timestamps), or the profiles whose run total is in
    range for a metric axis; '' when nothing is brushed."""
    parts = []
    for side, name in (("x", x), ("y", y)):
        span = _range(brush.get(side), side)
        if span is None:
            continue
        axis = find_axis(options, name)
        low, high = span
        if axis.name.startswith(METRIC):
            values = axis_values(ens, axis)
            inside = values.index[(values >= low) & (values <= high)]
            parts.append(f"profile IN ({', '.join(map(_literal, inside)) or 'NULL'})")
        elif axis.kind == "date":
            if not -DATES_MS < low <= high < DATES_MS:
                raise ValueError(f"brush: {side} is past the dates pandas holds (1677 to 2262)")
            ends = [pd.Timestamp(v, unit="ms").isoformat() for v in (low, high)]
            parts.append(
                f"{quote(axis.name)} BETWEEN TIMESTAMP '{ends[0]}' AND TIMESTAMP '{ends[1]}'"
            )
        else:
            parts.append(
                f"{quote(axis.name)} BETWEEN {_rounded(low, False)} AND {_rounded(high, True)}"
            )
    return " AND ".join(parts)


def provenance(ens: Ensemble, where: str, reduced: Any, version: int | None) -> dict[str, Any]:
    """What a figure of an ensemble view records: the store and its version (to remake the
    figure from the same data: ``cctviz.Ensemble(store, version=...)``), the filters, how many
    profiles."""
    filters = [*ens.filters, *([where] if where else [])]
    return {
        "store": str(ens.path),
        "version": version,
        "where": " and ".join(f"({f})" for f in filters) if len(filters) > 1 else "".join(filters),
        "profiles": len(reduced),
        "of": len(ens),
    }

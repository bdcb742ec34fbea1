"""A view's units (the ``units`` trait): read from the data (``cctviz.adapters.units``), the
user's over them, and each derived metric's (``CCT.derive(..., unit=)``, else inferred:
``cctviz.analysis.derive_units``). Other data (``w.data = other``) reads them again from it: the
units the user gave (to ``CCT(units=...)`` or by setting ``w.units``) stay for the metrics the new
data has; those the old data stated go.

The view keeps what it set itself (``_stated_units``) and what the user gave at first
(``_given_units``): a unit in ``w.units`` that differs from the one the view set is the user's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..adapters.pinned import format_units
from ..adapters.units import effective
from ..analysis.derive_units import infer
from ..core.units import check


def first(view: Any, data: Any, path: str | Path | None, given: Any) -> dict[str, str]:
    """The units the view starts with: the data's (``path``: the file or folder it came from,
    when known), ``given`` over them, and the derived metrics'."""
    if given is not None and not isinstance(given, dict):
        raise ValueError(f"units maps metric names to unit texts; got {given!r}")
    given = check(given or {})
    view._given_units = dict(given)
    return _read(view, data, path, given)


def _read(view: Any, data: Any, path: str | Path | None, given: dict[str, str]) -> dict[str, str]:
    metrics = view._table.metrics
    columns = {str(c) for c in getattr(getattr(data, "dataframe", None), "columns", ())}
    derived = set(view._derivations)
    found = effective(
        data,
        [m for m in metrics if m not in columns and m not in derived],  # what cctviz made
        path=path,
        pinned=format_units(data),
        given=given,
    )
    units = {name: unit for name, unit in found.items() if name in metrics or name in given}
    out = with_derived(view, units)
    view._stated_units = dict(out)
    return out


def with_derived(view: Any, units: dict[str, str]) -> dict[str, str]:
    """``units`` with each derived metric's unit: the one given, else the one inferred from its
    inputs' (in the order of definition, so one may use another's); none: left out."""
    out = {k: v for k, v in units.items() if k not in view._derivations}
    for d in view._derivations.values():
        if d.name not in view._table.metrics:
            continue
        unit = d.unit if d.unit is not None else infer(d.tree, out)
        if unit:
            out[d.name] = unit
    return out


def derived_again(view: Any) -> None:
    """After the derived metrics change: their units in ``w.units`` follow."""
    base = {k: v for k, v in view.units.items() if k in view._table.metrics}
    units = with_derived(view, base)
    view._stated_units = {**getattr(view, "_stated_units", {}), **units}
    if units != view.units:
        view.units = units


def swap(view: Any, data: Any, path: str | Path | None) -> None:
    """After other data: the units read again from it, the user's kept where it has the
    metric they name."""
    stated = getattr(view, "_stated_units", {})
    users = {k: v for k, v in view.units.items() if stated.get(k) != v}
    metrics = view._table.metrics
    given = {
        k: v
        for k, v in {**getattr(view, "_given_units", {}), **users}.items()
        if k in metrics and k not in view._derivations
    }
    view._given_units = given
    view.units = _read(view, data, path, given)


def path_of(value: Any) -> Path | None:
    """``value`` as the file or folder it names, when one exists (a ``source=`` may be any
    text); else None."""
    try:
        return Path(value) if isinstance(value, str | Path) and Path(value).exists() else None
    except (OSError, ValueError):  # too long, a NUL: text, not a path
        return None

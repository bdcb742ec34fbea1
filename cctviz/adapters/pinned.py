"""Metric kinds pinned by ``CCT.to_code``: the kind cctviz gave each metric of the full profile,
written into the metadata of the GraphFrame or Thicket the code builds.

The code builds a subset of the profile, and some rules read a subset otherwise than the whole:
the tree check (:func:`cctviz.adapters.semantics.check_against_tree`) can find every one of a
few drawn parents at least the sum of its children where the full profile has one that is not,
and would then draw an exclusive metric as inclusive, with no derived subtree sums. The pin
makes ``cctviz.CCT(view)`` read each metric as the view it came from did; ``metric_kinds=``
still comes after it.

The value is JSON text (``{"time": "exclusive", …}``), so that it fits a GraphFrame's metadata
dict and a Thicket's metadata DataFrame (one column, the same text for every profile) alike.

An ensemble's reduced tree (``cctviz.ensemble.analysis.graphframe.to_graphframe``) carries its
store's kinds and partners the same way, under :data:`STORE_KEY` (rule ``store``): an alias such as
LLNL's ``Avg time/rank (exc)`` pairs with ``Avg time/rank`` there as in one profile's view, though
the reduced tree has no ``spot.metrics`` to pair them by.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..core.table import DECLARED_KINDS, NodeTable
from .derived import SUFFIX
from .semantics import Decision

#: The metadata key (a GraphFrame's dict key, a Thicket's metadata column).
KEY = "cctviz.metric_kinds"


def text(table: NodeTable, data: Any) -> str:
    """The kind ``table`` gave each of ``data``'s own metric columns before any reducer (under
    ``std`` a time is drawn as a spread, but it is still exclusive), as the JSON text pinned."""
    out: dict[str, str] = {}
    for column in getattr(data, "dataframe", pd.DataFrame()).columns:
        m = table.metrics.get(str(column))
        if m is not None and not m.name.endswith(SUFFIX):
            out[m.name] = m.base_kind or m.kind
    return json.dumps(out)


def attach(data: Any, pin: str) -> None:
    """Pin ``pin`` (:func:`text`) in ``data``'s metadata: a new dict or a new frame, so that a
    profile sharing the metadata (LLNL hatchet's filter shares the dict) is not changed."""
    md = getattr(data, "metadata", None)
    if isinstance(md, pd.DataFrame):
        data.metadata = md.assign(**{KEY: pin})
    else:
        data.metadata = {**(md if isinstance(md, Mapping) else {}), KEY: pin}


def code_line(thicket: bool, pin: str) -> str:
    """The line of code ``to_code`` writes to do what :func:`attach` does to a ``view`` (a
    Thicket's metadata frame gets a column; a GraphFrame's dict is copied with the key)."""
    if thicket:
        return "view.metadata = view.metadata.assign(**{" + f"{KEY!r}: {pin!r}" + "})"
    return "view.metadata = {**view.metadata, " + f"{KEY!r}: {pin!r}" + "}"


def read(data: Any) -> dict[str, str]:
    """The kinds pinned in ``data``'s metadata (empty where none are). Raises ``ValueError``
    naming the key when the value is not what ``to_code`` writes."""
    md = getattr(data, "metadata", None)
    if isinstance(md, Mapping):
        values = [md[KEY]] if KEY in md else []
    elif isinstance(md, pd.DataFrame) and KEY in md.columns:
        values = list(dict.fromkeys(md[KEY].dropna().tolist()))
    else:
        values = []
    if not values:
        return {}
    if len(values) > 1:
        raise ValueError(
            f"the profiles of this Thicket pin different metric kinds in metadata {KEY!r} (views "
            "of different profiles, written by CCT.to_code, put together): drop that column, "
            "e.g. tk.metadata = tk.metadata.drop(columns=[" + repr(KEY) + "]), and pass "
            "metric_kinds= to say what each metric is"
        )
    return _parse(values[0])


def _parse(value: object) -> dict[str, str]:
    accepted = ", ".join(map(repr, DECLARED_KINDS))
    try:
        kinds = json.loads(value) if isinstance(value, str) else value
    except json.JSONDecodeError as error:
        kinds, problem = None, f"not JSON ({error.msg})"
    else:
        problem = "not a JSON object of metric names and kinds"
    if isinstance(kinds, Mapping) and all(
        isinstance(k, str) and v in DECLARED_KINDS for k, v in kinds.items()
    ):
        return dict(kinds)
    raise ValueError(
        f"metadata {KEY!r} (metric kinds written by CCT.to_code) is {problem}: {str(value)[:80]!r};"
        f' expected e.g. {{"time": "exclusive"}}, each kind one of {accepted}. Drop the key '
        "and pass metric_kinds= instead"
    )


#: The metadata key of an ensemble's reduced tree
#: (cctviz.ensemble.analysis.graphframe.to_graphframe): each measured metric's kind and partner as
#: the store's metrics table holds them.
STORE_KEY = "cctviz.store_metrics"


def stored(data: Any) -> dict[str, tuple[str, str | None]]:
    """``{metric: (kind, partner)}`` that an ensemble's reduced tree carries (empty elsewhere)."""
    md = getattr(data, "metadata", None)
    value = md.get(STORE_KEY) if isinstance(md, Mapping) else None
    if not isinstance(value, str):
        return {}
    try:
        raw = json.loads(value)
    except json.JSONDecodeError:
        return {}
    if not isinstance(raw, Mapping):
        return {}
    return {
        str(m): (str(kp[0]), kp[1] if isinstance(kp[1], str) else None)
        for m, kp in raw.items()
        if isinstance(kp, list) and len(kp) == 2 and kp[0] in DECLARED_KINDS
    }


#: The metadata key of a GraphFrame read by ``cctviz.read`` (rule ``format``): each metric's
#: kind, partner and unit as the file format means them (written by
#: :meth:`cctviz.adapters.formats.calltree.CallTree.graphframe`).
FORMAT_KEY = "cctviz.format_metrics"


def formats(data: Any) -> dict[str, tuple[str, str | None]]:
    """``{metric: (kind, partner)}`` that a GraphFrame read by ``cctviz.read`` carries (empty
    elsewhere). Raises ``ValueError`` naming the key when the value is not what it writes."""
    md = getattr(data, "metadata", None)
    value = md.get(FORMAT_KEY) if isinstance(md, Mapping) else None
    if value is None:
        return {}
    try:
        raw = json.loads(value) if isinstance(value, str) else None
    except json.JSONDecodeError:
        raw = None
    if not isinstance(raw, Mapping) or not all(
        isinstance(v, list) and len(v) == 3 and v[0] in ("exclusive", "inclusive")
        for v in raw.values()
    ):
        raise ValueError(
            f"metadata {FORMAT_KEY!r} (metric kinds written by cctviz.read) is not "
            f"{{metric: [kind, partner, unit]}} JSON: {str(value)[:80]!r}; drop the key and "
            "pass metric_kinds= instead"
        )
    return {str(m): (str(v[0]), v[1] if isinstance(v[1], str) else None) for m, v in raw.items()}


def format_units(data: Any) -> dict[str, str]:
    """``{metric: unit}`` that a GraphFrame read by ``cctviz.read`` carries (the view's default
    ``units``); empty elsewhere or where the value is not what ``cctviz.read`` writes."""
    md = getattr(data, "metadata", None)
    value = md.get(FORMAT_KEY) if isinstance(md, Mapping) else None
    try:
        raw = json.loads(value) if isinstance(value, str) else {}
    except json.JSONDecodeError:
        return {}
    if not isinstance(raw, Mapping):
        return {}
    return {
        str(m): v[2]
        for m, v in raw.items()
        if isinstance(v, list) and len(v) == 3 and isinstance(v[2], str)
    }


def apply_stored(
    store: Mapping[str, tuple[str, str | None]],
    names: list[Any],
    kind: dict[Any, str],
    partner: dict[Any, Any],
    decisions: dict[Any, Decision],
    rule: str = "store",
) -> None:
    """Give each metric the kind the store (``rule="store"``) or the file format (``"format"``)
    gave it, and pair it with its partner where both are metrics here (an exclusive metric whose
    partner cctviz derived gets one derived again)."""
    by_name = {str(m): m for m in names}
    for name, (value, other) in store.items():
        if name in by_name:
            m = by_name[name]
            kind[m] = value
            if rule == "format":
                with_partner = f" (partner {other!r})" if other else ""
                why = f"{value}{with_partner}, as the file format means it (cctviz.read)"
            else:
                why = (
                    f"{value}, as the store's metrics table says (its profiles' own views decided)"
                )
            decisions[m] = Decision(value, rule, why)
            other = partner.pop(m, None)
            if other is not None:
                partner.pop(other, None)
    for name, (value, other) in store.items():
        if value == "exclusive" and name in by_name and other in by_name:
            e, i = by_name[name], by_name[other]
            if kind[i] == "inclusive":
                partner[e], partner[i] = i, e

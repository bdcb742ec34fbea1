"""The synced traits of ``CCT``, built from their declaration in ``cctviz/contract.json``.

``trait(name)`` makes the traitlets trait of one contract entry: its type from the entry's kind,
its default, allowed values, bounds and help from the entry, tagged ``sync=True``. Node-id kinds
are checked against the widget's node table by their own ``TraitType``: a ``validate`` that only
checks (and normalises the value), never changes anything else; what follows from a new value
(loading nodes into the browser) is done by observers on the widget.
"""

from __future__ import annotations

import os
from typing import Any

import traitlets as t

from ..core.contract import BY_TRAIT, TraitSpec
from ..core.table import NodeTable, UnknownMetricError
from ..core.units import UnitError, check
from ..view.tree_table import check_columns


class MetricTraitError(UnknownMetricError, t.TraitError):
    """An unknown metric set on a widget trait (a ``TraitError`` and a ``ValueError``)."""


def _table_of(obj: Any) -> NodeTable | None:
    """The node table the widget ``obj`` draws (``None`` while it is being built)."""
    table = getattr(obj, "_table", None)
    return table if isinstance(table, NodeTable) else None


def node_id(value: Any, trait: str, size: int) -> int:
    """``value`` as a node id of a tree of ``size`` nodes, or a ``TraitError`` saying why not."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise t.TraitError(f"{trait} holds node ids (integers from 0 to {size - 1}); got {value!r}")
    i = int(value.__index__())
    if not 0 <= i < size:
        raise t.TraitError(
            f"node id {i} is out of range: this tree has {size} nodes (ids 0 to {size - 1})"
        )
    return i


def _ids(obj: Any, values: tuple[Any, ...], trait: str) -> tuple[int, ...]:
    """Node ids of ``obj``'s tree, duplicates dropped (first occurrence kept)."""
    if not values:
        return ()
    table = _table_of(obj)
    if table is None:
        raise t.TraitError(f"{trait} holds node ids, and this widget has no tree yet")
    return tuple(dict.fromkeys(node_id(v, trait, table.size) for v in values))


class Metric(t.Unicode[str, str]):
    """The name of one of the widget's metrics (``w.metrics``)."""

    info_text = "the name of a metric of the profile"

    def validate(self, obj: Any, value: Any) -> str:
        name: str = super().validate(obj, value)
        table = _table_of(obj)
        if table is not None and name == "":
            named = [m for m in table.metrics if m]
            raise t.TraitError(
                f"{self.name}: a metric named '' cannot be drawn (the front end reads an empty "
                "name as no metric); rename that column, e.g. gf.dataframe.rename(columns="
                f"{{'': 'time'}}, inplace=True). Metrics: {', '.join(map(repr, named))}"
            )
        if table is not None and name not in table.metrics:
            raise MetricTraitError(name, list(table.metrics))
        return name


class Metrics(t.Tuple):
    """Names of the widget's metrics (``w.metrics``), in order; duplicates dropped."""

    info_text = "a list of metric names"

    def validate(self, obj: Any, value: Any) -> tuple[str, ...]:
        what = str(self.name)
        if isinstance(value, str):  # a tuple of its letters is never what was meant
            raise t.TraitError(f"{what} is a list of metric names, e.g. [{value!r}]; got a str")
        names = tuple(super().validate(obj, value) or ())
        table = _table_of(obj)
        if table is None:
            return names
        try:
            return check_columns(table, names, what)
        except UnknownMetricError as error:
            raise MetricTraitError(error.metric, error.available) from None
        except TypeError as error:
            raise t.TraitError(str(error)) from None


class NodeIds(t.Tuple):
    """Node ids of the full tree: a set (sorted) unless ``ordered`` (a selection keeps the order
    the nodes were chosen in); duplicates are dropped."""

    info_text = "a tuple of node ids"

    def __init__(self, *, ordered: bool = False, **kwargs: Any) -> None:
        self.ordered = ordered
        super().__init__(**kwargs)

    def validate(self, obj: Any, value: Any) -> tuple[int, ...]:
        ids = _ids(obj, tuple(super().validate(obj, value) or ()), str(self.name))
        return ids if self.ordered else tuple(sorted(ids))


class RootIds(t.Tuple):
    """Ids of roots of the full tree, or ``None`` for every root."""

    info_text = "a tuple of root ids, or None"

    def validate(self, obj: Any, value: Any) -> tuple[int, ...]:
        ids = _ids(obj, tuple(super().validate(obj, value) or ()), str(self.name))
        table = _table_of(obj)
        if ids and table is not None:
            roots = set(table.roots.tolist())
            for i in ids:
                if i not in roots:
                    listed = ", ".join(map(str, sorted(roots)))
                    raise t.TraitError(f"node {i} is not a root; the roots are {listed}")
        return ids


class NodeId(t.TraitType[int | None, Any]):
    """A node id of the full tree, or ``None``."""

    info_text = "a node id, or None"

    def validate(self, obj: Any, value: Any) -> int:
        table = _table_of(obj)
        if table is None:
            raise t.TraitError(f"{self.name} holds a node id, and this widget has no tree yet")
        return node_id(value, str(self.name), table.size)


class Range(t.Tuple):
    """``(low, high)`` with ``low <= high``, or ``None``."""

    info_text = "a (low, high) pair of numbers, or None"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(t.Float(), t.Float(), **kwargs)

    def validate(self, obj: Any, value: Any) -> tuple[float, float]:
        if isinstance(value, (tuple, list)) and any(isinstance(v, bool) for v in value):
            raise t.TraitError(f"{self.name} holds numbers, not booleans; got {value!r}")
        low, high = super().validate(obj, value) or (0.0, 0.0)
        for side, bound in (("low", low), ("high", high)):
            if _number(bound) is None:
                raise t.TraitError(
                    f"{self.name}: the {side} bound {bound!r} is not a finite number; give "
                    "(low, high) as finite numbers with low <= high (for no upper bound, a high "
                    "at or above the metric's largest value), or None to keep every node"
                )
        if low > high:
            raise t.TraitError(
                f"{self.name}: inverted range, low {low!r} is above high {high!r}; "
                "give (low, high) with low <= high, or None to keep every node"
            )
        return (low, high)


class Domain(t.TraitType[Any, Any]):
    """``"tree"``, ``"view"`` or ``(low, high)`` with ``low < high``."""

    info_text = "'tree', 'view' or a (low, high) pair of numbers"

    def validate(self, obj: Any, value: Any) -> str | tuple[float, float]:
        if value in ("tree", "view"):
            return str(value)
        ok = isinstance(value, (tuple, list)) and len(value) == 2
        low, high = (_number(v) for v in value) if ok else (None, None)
        if low is None or high is None or not low < high:
            raise t.TraitError(
                f"{self.name} must be 'tree', 'view' or (low, high) with low < high; got {value!r}"
            )
        return (low, high)


class Share(t.TraitType[float, Any]):
    """A fraction of a total: ``0 <= value < 1``."""

    info_text = "a number from 0 up to (not including) 1"

    def validate(self, obj: Any, value: Any) -> float:
        number = _number(value)
        if number is None or not 0 <= number < 1:
            raise t.TraitError(
                f"{self.name} is a share of the total, a number from 0 up to 1 (0.01 is 1 %); "
                f"got {value!r}"
            )
        return number


class Rank(t.TraitType[int | None, Any]):
    """A rank of the profile, or ``None`` (every rank); the view checks it against its data."""

    info_text = "a rank number, or None"

    def validate(self, obj: Any, value: Any) -> int:
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise t.TraitError(f"{self.name} is a rank number or None (every rank); got {value!r}")
        return int(value.__index__())


class Paths(t.List[str]):
    """Folder paths: a list of ``str`` or ``os.PathLike`` (kept as text)."""

    info_text = "a list of folder paths"

    def validate(self, obj: Any, value: Any) -> list[str]:
        if isinstance(value, (str, bytes, os.PathLike)) or not isinstance(value, (list, tuple)):
            raise t.TraitError(
                f"{self.name} is a list of folder paths (str or pathlib.Path), e.g. "
                f"['/src/app']; got {value!r}"
            )
        out = []
        for p in value:
            if not isinstance(p, (str, os.PathLike)) or not str(p).strip():
                raise t.TraitError(f"{self.name}: {p!r} is not a folder path (str or Path)")
            out.append(os.fspath(p) if isinstance(p, os.PathLike) else p)
        return [str(p) for p in out]


def _number(value: Any) -> float | None:
    """A finite number as a float, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            value = float(value.__float__())  # numpy scalars
        except (AttributeError, TypeError, ValueError):
            return None
    number = float(value)
    return number if number == number and abs(number) != float("inf") else None


class UnitTraitError(UnitError, t.TraitError):
    """A unit that does not parse, or a unit of a metric the widget does not have."""


class Units(t.Dict):
    """Metric name → unit text: each unit parses (``cctviz.core.units``) and each name is one of
    the widget's metrics (``w.metrics``)."""

    def validate(self, obj: Any, value: Any) -> dict[str, str]:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise UnitTraitError(f"units maps metric names to unit texts; got {value!r}")
        try:
            checked = check(value)
        except UnitError as error:
            raise UnitTraitError(str(error)) from None
        table = _table_of(obj)
        unknown = [name for name in checked if table is not None and name not in table.metrics]
        if unknown and table is not None:
            raise UnitTraitError(
                f"units names {', '.join(map(repr, unknown))}, not a metric of this view; its "
                f"metrics are {', '.join(map(repr, table.metrics))}"
            )
        return checked


def _make(spec: TraitSpec) -> t.TraitType[Any, Any]:
    """The trait of one contract entry (not tagged yet)."""
    kind, default, help_ = spec.kind, spec.default, spec.help
    if kind == "metric":
        return Metric(default, help=help_)
    if kind == "metrics":
        return Metrics(default_value=tuple(default), help=help_)
    if kind == "string":
        return t.Unicode(default, help=help_)
    if kind == "enum":
        return t.Enum(list(spec.values), default_value=default, help=help_)
    if kind == "bool":
        return t.Bool(default, help=help_)
    if kind == "int":
        return t.Int(default, min=spec.min, help=help_)
    if kind == "derived":  # checked against the table by the widget (widget/derive.py)
        return t.Dict(default_value=dict(default), help=help_)
    if kind == "units":
        return Units(default_value=dict(default), help=help_)
    if kind in ("payload", "strip", "trend", "counted"):
        return t.Dict(default_value=dict(default), help=help_)
    if kind == "node_ids":
        return NodeIds(ordered=spec.ordered, default_value=tuple(default), help=help_)
    if kind == "node_id":
        return NodeId(default, allow_none=True, help=help_)
    if kind == "root_ids":
        return RootIds(default_value=_tuple_or_none(default), allow_none=True, help=help_)
    if kind == "range":
        return Range(default_value=_tuple_or_none(default), allow_none=True, help=help_)
    if kind == "domain":
        return Domain(default, help=help_)
    if kind == "share":
        return Share(default, help=help_)
    if kind == "rank":
        return Rank(default, allow_none=True, help=help_)
    if kind == "paths":
        return Paths(default_value=list(default), help=help_)
    raise ValueError(f"trait {spec.trait!r} of the contract has an unknown kind {kind!r}")


def _tuple_or_none(value: Any) -> tuple[Any, ...] | None:
    return None if value is None else tuple(value)


def trait(name: str) -> Any:
    """The synced trait ``name`` as ``contract.json`` declares it.

    Typed ``Any`` so that the class body can say what the trait holds for type checkers and
    IDEs: ``selection: tuple[int, ...] = traits.trait("selection")``."""
    return _make(BY_TRAIT[name]).tag(sync=True)

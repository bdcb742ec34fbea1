"""Derived metrics (``CCT.derive``): metrics computed per node from a table's other metrics by an
expression (:mod:`cctviz.core.expression`), as hpcviewer's and Cube's derived metrics are.

A derived metric is computed from the values the table holds: each node's rows (ranks, threads,
profiles) already combined by the reducer, so that `` `time` / `time (inc)` `` is the node's
exclusive share of the values shown (hpcviewer computes its derived metrics from the summary
values too). A new reducer gives new inputs, and the derived metrics are computed again from them.

Its kind is the user's (``ratio`` unless said: no sums along the tree, no shares); its ``rule`` is
:data:`RULE`, which is how a table tells its derived metrics from its own. Definitions apply in
order: one may name the metrics derived before it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from ..core.expression import Expr, ExpressionError, evaluate, names, parse
from ..core.table import Metric, MetricKind, NodeTable, UnknownMetricError
from ..core.units import UnitError
from ..core.units import parse as parse_unit

__all__ = [
    "KINDS",
    "RULE",
    "Definition",
    "UnknownInputError",
    "apply",
    "check",
    "definition",
    "own_metrics",
    "parsed",
    "restorable",
]

KINDS: tuple[str, ...] = ("ratio", "inclusive", "exclusive", "max", "other")
"""The kinds a derived metric may have; ``ratio`` (the default) neither adds up along the tree
nor has shares, and a glyph shows the largest value it hides."""
RULE = "expression"
"""``Metric.rule`` of a derived metric (cctviz.adapters.semantics.RULES)."""


@dataclasses.dataclass(frozen=True)
class Definition:
    """One derived metric: its name, expression (as written), kind and what it reads."""

    name: str
    expression: str
    kind: str
    tree: Expr
    inputs: tuple[str, ...]
    unit: str | None = None
    """The unit the user gave (None: inferred, ``cctviz.analysis.derive_units``)."""

    def as_json(self) -> dict[str, str]:
        """The definition as the ``derived`` trait and saved state hold it."""
        unit = {} if self.unit is None else {"unit": self.unit}
        return {"expression": self.expression, "kind": self.kind, **unit}


def own_metrics(table: NodeTable) -> dict[str, Metric]:
    """The table's metrics that are not derived by an expression."""
    return {k: m for k, m in table.metrics.items() if m.rule != RULE}


def definition(
    name: Any,
    expression: Any,
    kind: Any,
    known: Mapping[str, Metric],
    columns: Mapping[str, bool] | None = None,
    unit: Any = None,
) -> Definition:
    """Check one definition against the metrics ``known`` (the table's own and those derived
    before it); ``columns``: the dataframe's other columns (name → numeric), named in errors;
    ``unit``: None or a unit the grammar reads (``cctviz.core.units``)."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a derived metric needs a name (non-empty text); got {name!r}")
    if name in known:
        raise ValueError(
            f"a metric named {name!r} exists already; give the derived metric another name "
            f"(metrics: {', '.join(map(repr, known))})"
        )
    if kind not in KINDS:
        raise ValueError(
            f"derived metric {name!r}: kind {kind!r} is not accepted; accepted: "
            + ", ".join(map(repr, KINDS))
            + " ('ratio': no sums along the tree, no shares)"
        )
    if unit is not None:
        try:
            parse_unit(unit)
        except UnitError as error:
            raise UnitError(f"derived metric {name!r}: {error}") from None
    tree = parse(expression)
    inputs = names(tree)
    if not inputs:
        raise ExpressionError(
            expression,
            0,
            "the expression names no metric (a derived metric is computed from "
            "metrics: name at least one in backquotes)",
        )
    for n in inputs:
        if n.name not in known:
            raise _unknown(expression, n.name, n.at, known, columns or {})
    used = tuple(dict.fromkeys(n.name for n in inputs))
    return Definition(name, expression, kind, tree, used, None if unit is None else unit.strip())


class UnknownInputError(UnknownMetricError):
    """An expression naming a metric the table does not have (a ``KeyError`` and a
    ``ValueError``): where in the expression, and the metrics there are."""

    def __init__(self, name: str, available: list[str], expression: str, at: int, note: str):
        super().__init__(name, available)
        self.expression, self.at, self.note = expression, at, note

    def __str__(self) -> str:
        said = f"at character {self.at + 1} of the expression {self.expression!r}: "
        return said + super().__str__() + (f" ({self.note})" if self.note else "")


def _unknown(
    expression: str, name: str, at: int, known: Mapping[str, Metric], columns: Mapping[str, bool]
) -> UnknownInputError:
    """The error of a name that is not a metric: a dataframe column that is not one says so."""
    note = ""
    if name in columns:
        what = "numeric, but not one the reader lists" if columns[name] else "not numeric"
        note = f"{name!r} is a column of the dataframe, {what}: not a metric of this view"
    return UnknownInputError(name, list(known), expression, at, note)


def check(
    value: Any, table: NodeTable, columns: Mapping[str, bool] | None = None
) -> dict[str, Definition]:
    """The ``derived`` trait's value, checked against ``table``'s own metrics: a mapping of name
    → expression, or name → {"expression": ..., "kind": ..., "unit": ...} (kind: ``ratio`` when
    left out; unit: inferred when left out)."""
    if not isinstance(value, Mapping):
        raise TypeError(
            "derived maps each derived metric's name to its expression, e.g. "
            "{'time per call': '`time (inc)` / `calls`'} or {name: {'expression': ..., "
            f"'kind': 'ratio'}}}}; got {type(value).__name__}"
        )
    known: dict[str, Metric] = own_metrics(table)
    out: dict[str, Definition] = {}
    for name, spec in value.items():
        if isinstance(spec, Mapping):
            extra = sorted(set(spec) - {"expression", "kind", "unit"})
            if extra or "expression" not in spec:
                raise ValueError(
                    f"derived[{name!r}] holds 'expression' and, if not 'ratio', 'kind', and "
                    f"optionally 'unit'; got keys {sorted(spec)}"
                )
            expression, kind = spec["expression"], spec.get("kind", "ratio")
            unit = spec.get("unit")
        else:
            expression, kind, unit = spec, "ratio", None
        d = definition(name, expression, kind, known, columns, unit)
        out[d.name] = d
        known[d.name] = _placeholder(d)
    return out


def parsed(value: Mapping[str, Mapping[str, str]]) -> dict[str, Definition]:
    """The definitions of a ``derived`` value already checked (as the trait holds it), parsed
    again without checking names: :func:`apply` leaves out those a table lacks the inputs of."""
    out: dict[str, Definition] = {}
    for name, spec in value.items():
        tree = parse(spec["expression"])
        inputs = tuple(dict.fromkeys(n.name for n in names(tree)))
        out[name] = Definition(
            name, spec["expression"], spec["kind"], tree, inputs, spec.get("unit")
        )
    return out


def restorable(value: Any, table: NodeTable) -> dict[str, Any]:
    """Saved state's definitions that apply to ``table``: one naming a metric the table lacks is
    left out, as a saved metric it lacks is; anything else wrong is an error."""
    if not isinstance(value, Mapping):
        raise TypeError(f"state['derived'] must be a dict from w.view_state; got {value!r:.80}")
    kept: dict[str, Any] = {}
    for name, spec in value.items():
        try:
            check({**kept, name: spec}, table)
        except UnknownMetricError:
            continue
        kept[name] = spec
    return kept


def _placeholder(d: Definition) -> Metric:
    return Metric(d.name, np.empty(0), cast(MetricKind, d.kind), rule=RULE)


def apply(table: NodeTable, definitions: Mapping[str, Definition]) -> tuple[NodeTable, list[str]]:
    """``table`` with its derived metrics computed again from its own (those of an older table
    are dropped first), and the names of the definitions left out because an input is missing
    (other data, another reducer's companions)."""
    metrics = own_metrics(table)
    left_out: list[str] = []
    for d in definitions.values():
        if d.name in metrics or any(n not in metrics for n in d.inputs):
            left_out.append(d.name)
            continue
        values = evaluate(d.tree, lambda n: metrics[n].values)
        column = np.broadcast_to(np.asarray(values, dtype=np.float64), (table.size,)).copy()
        by = f"under the reducer {table.reducer}" if table.reducer else "per node"
        metrics[d.name] = Metric(
            d.name,
            column,
            cast(MetricKind, d.kind),
            rule=RULE,
            detail=f"derived: {d.expression}, from each node's values {by}",
        )
    if metrics.keys() == table.metrics.keys() and all(
        metrics[k] is table.metrics[k] for k in metrics
    ):
        return table, left_out
    return dataclasses.replace(table, metrics=metrics), left_out

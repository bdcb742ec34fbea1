"""Colour and size under different reducers: under ``imbalance`` or ``std`` colour shows a ratio
or a spread, which does not add up, while size shows each node's cost combined by
``size_reducer`` (the mean by default), held in the table as companion metrics named
``"time (inc) (mean)"`` (see ``from_graphframe(size_reducer=...)``)."""

from __future__ import annotations

from collections.abc import Callable

from ..adapters.reduce import NOT_ADDITIVE
from ..core.contract import values
from ..core.table import NodeTable

#: What ``size_reducer`` accepts.
SIZE_REDUCERS: tuple[str, ...] = values("size_reducer")


def effective(size_reducer: str, reducer: str) -> str | None:
    """The reducer of the size companions, or None when size uses ``reducer`` itself."""
    size = size_reducer
    if size == "auto":  # colour an imbalance or a spread, size the mean (it adds up)
        size = "mean" if reducer in NOT_ADDITIVE else reducer
    return None if size == reducer else size


def unreduced(table: NodeTable, name: str) -> str | None:
    """``time (inc)`` for ``time (inc) (mean)`` (a size companion) if the table has it, ``name``
    itself if it is a metric of the table, else None."""
    for r in SIZE_REDUCERS:
        for suffix in (f" ({r})", f" [{r}]"):
            if name.endswith(suffix) and name[: -len(suffix)] in table.metrics:
                return name[: -len(suffix)]
    return name if name in table.metrics else None


def companion(table: NodeTable, base: str) -> str | None:
    """The size companion of metric ``base`` in ``table``, if there is one."""
    return next((m for m in table.metrics if m != base and unreduced(table, m) == base), None)


def sized_by(table: NodeTable, name: str) -> str | None:
    """What size shows once the reducers changed: the companion of ``name``'s metric when the
    table has one (``time (inc) (mean)`` under imbalance), else that metric, else None."""
    base = unreduced(table, name)
    if base is None:
        return None
    return companion(table, base) or base


def defaults_with(
    table: NodeTable, pick: Callable[[NodeTable], tuple[str, str]]
) -> tuple[str, str]:
    """The default (colour, size) of a table with size companions: size the companion ``pick``
    chooses for size (the mean inclusive time: the cost), colour the same metric under the
    reducer (the imbalance of that inclusive time: is this costly node imbalanced?). An
    exclusive time's imbalance has no value on every node without time of its own (0 ÷ 0).
    Without companions: ``pick``'s pair."""
    colour, size = pick(table)
    if unreduced(table, colour) == colour:
        return colour, size
    return unreduced(table, size) or colour, size

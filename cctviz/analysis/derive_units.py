"""The unit of a derived metric (``CCT.derive(..., unit=...)``): the one given, checked by the
unit grammar (:mod:`cctviz.core.units`), else one inferred where it is obvious.

Four rules infer it:

- a sum or difference of metrics of one unit has that unit (`` `time` + `time (inc)` ``: s);
- a product with, or a division by, a plain number keeps the unit (`` `time` * 2 ``: s — the
  number is not taken for a change of prefix: `` `time` / 1000 `` stays in the input's unit);
- a ratio of two metrics of one unit has none (`` `time` / `time (inc)` ``: a fraction);
- anything else has none (a product of metrics, units that differ, a metric without a unit).

Two units are one when they name the same thing in the same scale (``usec`` and ``µs``;
``ms`` and ``s`` are not: their sum would add numbers of different scales).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.expression import Binary, Expr, Name, Negate, Number
from ..core.units import UnitError, canonical

__all__ = ["NUMBER", "infer", "same"]

NUMBER = "<number>"
"""What :func:`_unit` says of a plain number (it has no unit, and keeps the other's)."""


def same(a: str, b: str) -> bool:
    """Whether the units ``a`` and ``b`` name the same thing in the same scale."""
    try:
        return canonical(a) == canonical(b)
    except UnitError:
        return a == b


def infer(tree: Expr, units: Mapping[str, str]) -> str | None:
    """The unit of ``tree`` from its inputs' ``units`` (metric name → unit), or None: none
    obvious (see the module's rules)."""
    found = _unit(tree, units)
    return None if found in (None, NUMBER) else found


def _unit(tree: Expr, units: Mapping[str, str]) -> str | None:
    if isinstance(tree, Number):
        return NUMBER
    if isinstance(tree, Name):
        return units.get(tree.name) or None
    if isinstance(tree, Negate):
        return _unit(tree.operand, units)
    assert isinstance(tree, Binary)
    left, right = _unit(tree.left, units), _unit(tree.right, units)
    if left is None or right is None:
        return None
    if tree.op in "+-":
        if NUMBER in (left, right):
            return left if left == right else None  # 2 + 3: a number; `time` + 1: none
        return left if same(left, right) else None
    if tree.op == "*":
        if left == NUMBER:
            return right
        return left if right == NUMBER else None
    # division
    if right == NUMBER:
        return left
    if left != NUMBER and same(left, right):
        return NUMBER  # a ratio of one unit: a plain number
    return None

"""The expressions of derived metrics (``CCT.derive``): arithmetic over backquoted metric names,
parsed by a small recursive-descent parser into a tree of four node types, never run as Python.

The language is what hpcviewer's and Cube's derived metrics are mostly used for — a cost per
call, a share of the inclusive value, a difference, a scale — and no more: numbers (``2``,
``0.5``, ``1e-6``), metric names in backquotes (`` `time (inc)` ``: any text without a
backquote), ``+ - * /``, unary minus and plus, and parentheses, with the usual precedence.
Each of these is the same operation on a pandas Series, so that ``CCT.to_code`` writes the same
expression as pandas code; there are no functions, attributes, calls or other names, and so
nothing a hostile string could reach.

Division by zero gives NaN (no value), never infinity: hpcviewer leaves the cell of a zero
denominator blank, and cctviz draws NaN as "no value" where an infinity would take the top of
the colour scale. ``0 / 0`` is NaN as in numpy; a division by the number 0 is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

__all__ = ["Binary", "Expr", "ExpressionError", "Name", "Negate", "Number", "evaluate", "parse"]


@dataclass(frozen=True)
class Number:
    """A number written in the expression."""

    value: float


@dataclass(frozen=True)
class Name:
    """A metric named in backquotes, and where it starts in the text."""

    name: str
    at: int


@dataclass(frozen=True)
class Negate:
    """``-operand``."""

    operand: Expr


@dataclass(frozen=True)
class Binary:
    """``left op right``, ``op`` one of ``+ - * /``."""

    op: str
    left: Expr
    right: Expr


Expr: TypeAlias = Number | Name | Negate | Binary

ACCEPTED = (
    "numbers, metric names in backquotes (`time (inc)`), + - * /, unary minus and parentheses"
)
"""What an expression may hold, in words (for errors)."""


class ExpressionError(ValueError):
    """An expression that does not parse: what was wrong, and where (a caret under it)."""

    def __init__(self, text: str, at: int, what: str) -> None:
        self.text, self.at, self.what = text, at, what
        shown = text.replace("\n", " ")
        super().__init__(
            f"{what} at character {at + 1} of the expression\n  {shown}\n  {' ' * at}^\n"
            f"(an expression holds {ACCEPTED})"
        )


_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_SPACE = re.compile(r"\s*")
_OPERATORS = "+-*/()"


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, position) of each token: ``num``, ``name``, ``op``; then ``end``."""
    out: list[tuple[str, str, int]] = []
    at = _SPACE.match(text, 0).end()  # type: ignore[union-attr]
    while at < len(text):
        c = text[at]
        if c == "`":
            close = text.find("`", at + 1)
            if close < 0:
                raise ExpressionError(text, at, "a metric name's backquote is not closed")
            if close == at + 1:
                raise ExpressionError(text, at, "an empty metric name ``")
            out.append(("name", text[at + 1 : close], at))
            at = close + 1
        elif c in _OPERATORS:
            out.append(("op", c, at))
            at += 1
        elif (m := _NUMBER.match(text, at)) is not None:
            out.append(("num", m.group(0), at))
            at = m.end()
        else:
            word = re.match(r"[A-Za-z_][A-Za-z_0-9.]*", text[at:])
            what = (
                f"{word.group(0)!r} is not allowed: metric names go in backquotes "
                f"(`{word.group(0)}`), and there are no functions or variables"
                if word
                else f"{c!r} is not allowed"
            )
            raise ExpressionError(text, at, what)
        at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
    out.append(("end", "", len(text)))
    return out


class _Parser:
    """expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*;
    unary := ('-'|'+') unary | atom; atom := number | name | '(' expr ')'."""

    def __init__(self, text: str) -> None:
        self.text, self.tokens, self.i = text, _tokens(text), 0

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i]

    def take(self) -> tuple[str, str, int]:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def expr(self) -> Expr:
        node = self.term()
        while self.peek()[1] in ("+", "-") and self.peek()[0] == "op":
            op = self.take()[1]
            node = Binary(op, node, self.term())
        return node

    def term(self) -> Expr:
        node = self.unary()
        while self.peek()[1] in ("*", "/") and self.peek()[0] == "op":
            op, at = self.take()[1:]
            right = self.unary()
            if op == "/" and isinstance(right, Number) and right.value == 0:
                raise ExpressionError(self.text, at, "a division by the number 0")
            node = Binary(op, node, right)
        return node

    def unary(self) -> Expr:
        kind, value, _ = self.peek()
        if kind == "op" and value in ("-", "+"):
            self.take()
            operand = self.unary()
            return Negate(operand) if value == "-" else operand
        return self.atom()

    def atom(self) -> Expr:
        kind, value, at = self.take()
        if kind == "num":
            number = float(value)
            if number == float("inf"):
                raise ExpressionError(self.text, at, f"{value} is too large for a float64")
            return Number(number)
        if kind == "name":
            return Name(value, at)
        if kind == "op" and value == "(":
            node = self.expr()
            closing = self.take()
            if closing[1] != ")" or closing[0] != "op":
                raise ExpressionError(self.text, closing[2], "a ')' is missing")
            return node
        if kind == "end":
            raise ExpressionError(self.text, at, "the expression ends where a value is expected")
        raise ExpressionError(self.text, at, f"{value!r} where a value is expected")


def parse(text: str) -> Expr:
    """The expression ``text`` as a tree; an :class:`ExpressionError` says what is wrong and
    where. Names are not checked here (see ``cctviz.analysis.derive``)."""
    if not isinstance(text, str):
        raise TypeError(f"an expression is text, such as '`time (inc)` / `calls`'; got {text!r}")
    if not text.strip():
        raise ExpressionError(text, 0, "an empty expression")
    parser = _Parser(text)
    tree = parser.expr()
    kind, value, at = parser.peek()
    if kind != "end":
        what = "a ')' without its '('" if value == ")" else f"{value!r} after a complete value"
        raise ExpressionError(text, at, what + " (an operator is missing?)")
    return tree


def names(tree: Expr) -> list[Name]:
    """The metric names in ``tree``, left to right (repeats included)."""
    if isinstance(tree, Name):
        return [tree]
    if isinstance(tree, Negate):
        return names(tree.operand)
    if isinstance(tree, Binary):
        return names(tree.left) + names(tree.right)
    return []


def evaluate(tree: Expr, value: Callable[[str], np.ndarray]) -> np.ndarray | float:
    """``tree`` over float64 arrays (``value(name)``: a metric's values), element by element as
    numpy computes; a zero denominator gives NaN (see the module's doc)."""
    if isinstance(tree, Number):
        return tree.value
    if isinstance(tree, Name):
        return value(tree.name)
    if isinstance(tree, Negate):
        return -evaluate(tree.operand, value)
    left, right = evaluate(tree.left, value), evaluate(tree.right, value)
    with np.errstate(all="ignore"):  # overflow is inf, 0/0 NaN, as numpy says
        if tree.op == "+":
            return np.add(left, right)
        if tree.op == "-":
            return np.subtract(left, right)
        if tree.op == "*":
            return np.multiply(left, right)
        denominator = np.asarray(right, dtype=np.float64)
        safe = np.where(denominator == 0, np.nan, denominator)
        return np.divide(left, safe)


def to_pandas(tree: Expr, column: Callable[[str], str], nonzero: str = "nonzero") -> str:
    """``tree`` as Python source over pandas Series: ``column(name)`` is the source of a metric's
    Series; a denominator that is not a number goes through ``nonzero`` (a function of the
    generated code: the Series with NaN for 0)."""

    def code(node: Expr, parent: int) -> str:
        if isinstance(node, Number):
            return repr(node.value)
        if isinstance(node, Name):
            return column(node.name)
        if isinstance(node, Negate):
            return f"-{code(node.operand, 3)}"
        level = 1 if node.op in "+-" else 2
        left = code(node.left, level)
        right = code(node.right, level + 1)  # a - (b - c): the right side keeps its brackets
        if node.op == "/" and not isinstance(node.right, Number):
            right = f"{nonzero}({code(node.right, 0)})"
        text = f"{left} {node.op} {right}"
        return f"({text})" if level < parent else text

    return code(tree, 0)

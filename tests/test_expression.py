"""The expressions of derived metrics (cctviz.core.expression): what parses, to what, what is
refused and where the error points; values as numpy computes them, NaN for a zero denominator;
the same expression written as pandas code gives the same values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cctviz.core.expression import (
    Binary,
    ExpressionError,
    Name,
    Negate,
    Number,
    evaluate,
    names,
    parse,
    to_pandas,
)

COLUMNS = {
    "time": np.array([1.0, 0.0, 3.0, np.nan, -2.0]),
    "time (inc)": np.array([4.0, 0.0, 0.0, 5.0, 8.0]),
    "a`b": np.array([1.0, 2.0, 3.0, 4.0, 5.0]),
}


def _value(name: str) -> np.ndarray:
    return COLUMNS[name]


def test_precedence_and_associativity() -> None:
    assert parse("`a` - `b` - `c`") == Binary(
        "-", Binary("-", Name("a", 0), Name("b", 6)), Name("c", 12)
    )
    assert parse("1 + 2 * `x`") == Binary("+", Number(1.0), Binary("*", Number(2.0), Name("x", 8)))
    assert parse("-(`x`)") == Negate(Name("x", 2))
    assert parse("+`x`") == Name("x", 1)
    assert parse(" 1.5e3 / .5 ") == Binary("/", Number(1500.0), Number(0.5))


def test_names_keep_spaces_and_parentheses_inside_backquotes() -> None:
    tree = parse("`time (inc)` / (`time` + `time (inc)`)")
    assert [n.name for n in names(tree)] == ["time (inc)", "time", "time (inc)"]


def test_values_as_numpy_with_nan_for_a_zero_denominator() -> None:
    got = evaluate(parse("`time` / `time (inc)`"), _value)
    # 1/4; 0/0 and 3/0 are NaN (hpcviewer: blank), NaN/5 stays NaN, -2/8
    np.testing.assert_array_equal(got, [0.25, np.nan, np.nan, np.nan, -0.25])
    got = evaluate(parse("-(`time` - 1) * 2 + 10"), _value)
    np.testing.assert_array_equal(got, [10.0, 12.0, 6.0, np.nan, 16.0])
    assert evaluate(parse("2 * 3"), _value) == 6.0


def test_division_by_an_expression_that_is_zero_somewhere() -> None:
    got = evaluate(parse("`time (inc)` / (`time` - 1)"), _value)
    np.testing.assert_array_equal(got, [np.nan, 0.0, 0.0, np.nan, 8.0 / -3.0])


@pytest.mark.parametrize(
    "text",
    [
        "`time` / `time (inc)`",
        "-(`time` - 1) * 2 + 10",
        "`time (inc)` / (`time` - 1)",
        "1 / `time` - `time` / 2",
        "`time` - (`time (inc)` - `time`)",
        "--`time`",
    ],
)
def test_pandas_code_gives_the_same_values(text: str) -> None:
    frame = pd.DataFrame(COLUMNS)
    tree = parse(text)
    code = to_pandas(tree, lambda n: f"frame[{n!r}]")
    scope = {"frame": frame, "nonzero": lambda s: s.where(s != 0)}
    got = eval(code, scope)  # the code to_code writes, run: our own output, not user text
    np.testing.assert_array_equal(np.asarray(got, dtype=float), evaluate(tree, _value))


@pytest.mark.parametrize(
    ("text", "at", "what"),
    [
        ("", 0, "an empty expression"),
        ("   ", 0, "an empty expression"),
        ("`time` +", 8, "ends where a value is expected"),
        ("(`time`", 7, r"a '\)' is missing"),
        ("`time`)", 6, r"a '\)' without its '\('"),
        ("`time` `time`", 7, "after a complete value"),
        ("`time", 0, "backquote is not closed"),
        ("`` + 1", 0, "an empty metric name"),
        ("`time` / 0", 7, "a division by the number 0"),
        ("`time` / 0.0", 7, "a division by the number 0"),
        ("1e999 * `time`", 0, "too large"),
        ("`time` ** 2", 8, r"'\*' where a value is expected"),
        ("time / 2", 0, "'time' is not allowed: metric names go in backquotes"),
        ("`time` % 2", 7, "'%' is not allowed"),
    ],
)
def test_syntax_errors_say_what_and_where(text: str, at: int, what: str) -> None:
    with pytest.raises(ExpressionError, match=what) as caught:
        parse(text)
    assert caught.value.at == at
    assert f"at character {at + 1} of the expression" in str(caught.value)
    assert "\n  " + " " * at + "^" in str(caught.value)  # the caret under the place


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('echo hacked')",
        "`time`.__class__",
        "open('/etc/passwd')",
        "abs(`time`)",
        "max(`time`, 1)",
        "lambda: 1",
        "[`time`]",
        "`time` if 1 else 2",
        "`time`; import os",
        "`time` == 1",
        "'time'",
        '"time"',
        "1_000",
    ],
)
def test_hostile_or_unsupported_text_is_refused_not_run(text: str) -> None:
    with pytest.raises(ExpressionError):
        parse(text)


def test_hostile_text_in_backquotes_is_only_a_name() -> None:
    tree = parse("`__import__('os').system('x')` * 2")
    assert names(tree) == [Name("__import__('os').system('x')", 0)]


def test_an_expression_must_be_text() -> None:
    with pytest.raises(TypeError, match="an expression is text"):
        parse(3)  # type: ignore[arg-type]

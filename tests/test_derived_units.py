"""Units of derived metrics and of swapped data (issue 58 follow-ups): ``w.derive(..., unit=)``
checked by the unit grammar, else inferred by the few rules of
``cctviz.analysis.derive_units``, in ``w.units``; ``w.data = other`` reads the units again from
the new data, keeping the user's for the metrics it has. Real profiles: the cpi HPCToolkit
database (µs, from experiment.xml) and a cProfile file (seconds)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cctviz
from cctviz.analysis.derive_units import infer
from cctviz.core.expression import parse
from cctviz.core.units import UnitError

from .profiles import data_root
from .test_units import _read

UNITS = {"t": "s", "inc": "sec", "ms": "ms", "n": "calls", "bare": ""}


@pytest.mark.parametrize(
    ("expression", "unit"),
    [
        ("`t` + `inc`", "s"),  # one unit in two spellings: a sum keeps it
        ("`t` - `inc` - `t`", "s"),
        ("-`t`", "s"),
        ("`t` * 2", "s"),
        ("0.5 * (`t` + `inc`)", "s"),
        ("`t` / 1000", "s"),  # a number is not read as a change of prefix
        ("`n` + `n`", "calls"),
        ("`t` / `inc`", None),  # a ratio of one unit: a fraction, no unit
        ("`t` / `n`", None),  # seconds per call: not obvious, none
        ("`t` + `ms`", None),  # two scales: their sum is no number of either
        ("`t` * `t`", None),
        ("`t` + 1", None),
        ("2 / `t`", None),
        ("`bare` + `bare`", None),  # a metric without a unit
        ("`missing` * 2", None),
    ],
)
def test_the_inferred_unit_follows_the_documented_rules(expression: str, unit: str | None) -> None:
    assert infer(parse(expression), UNITS) == unit


@pytest.fixture
def cpi() -> tuple[Any, Path]:
    db = data_root("hatchet/hpctoolkit-cpi-database")
    return _read("from_hpctoolkit", db), db


def test_a_derived_metrics_unit_is_given_or_inferred_and_in_w_units(cpi: tuple[Any, Path]) -> None:
    gf, db = cpi
    w = cctviz.CCT(gf, source=str(db))
    assert w.units == {"time": "µs", "time (inc)": "µs"}
    w.derive("children", "`time (inc)` - `time`", kind="inclusive")
    w.derive("share", "`time` / `time (inc)`")
    w.derive("per rank", "`time (inc)` / 4", unit="ms")  # the user's: not inferred
    assert w.units == {
        "time": "µs",
        "time (inc)": "µs",
        "children": "µs",
        "per rank": "ms",
    }  # the share has none
    assert w.derived["per rank"] == {
        "expression": "`time (inc)` / 4",
        "kind": "ratio",
        "unit": "ms",
    }
    assert "unit" not in w.derived["children"]
    w.derive("twice children", "2 * `children`")  # from a derived metric's inferred unit
    assert w.units["twice children"] == "µs"
    w.derive("children", "`time (inc)` / `time (inc)`")  # replaced: its unit follows
    assert "children" not in w.units and "twice children" not in w.units
    w.derive("twice children", None)
    w.derive("children", None)
    assert set(w.units) == {"time", "time (inc)", "per rank"}
    # saved with the view: a new view of the same data gets the unit back
    again = cctviz.CCT(gf, source=str(db), state=w.view_state)
    assert again.units["per rank"] == "ms"
    # given at construction, as the trait holds it
    made = cctviz.CCT(gf, source=str(db), derived={"sum": "`time` + `time (inc)`"})
    assert made.units["sum"] == "µs"
    described = made.describe()
    assert "sum" in made.metrics and "µs" not in described  # values told in s/ms


@pytest.mark.parametrize(
    ("unit", "message"),
    [
        ("1e-6 s", r"derived metric 'x': unit '1e-6 s' does not parse: it starts with a number"),
        ("KB", r"derived metric 'x': .*'K' is not an SI prefix of 'B'"),
        ("<b>s</b>", r"derived metric 'x': .*it holds '<'"),
        ("", r"derived metric 'x': unit '' does not parse: it is empty"),
        (3, r"derived metric 'x': a unit is text; got int 3"),
    ],
)
def test_a_derived_unit_that_does_not_parse_is_refused(
    cpi: tuple[Any, Path], unit: Any, message: str
) -> None:
    gf, db = cpi
    w = cctviz.CCT(gf, source=str(db))
    with pytest.raises(UnitError, match=message):
        w.derive("x", "`time` * 2", unit=unit)
    assert "x" not in w.derived and "x" not in w.units and "x" not in w.metrics


def test_other_data_reads_its_units_again_and_keeps_the_users(cpi: tuple[Any, Path]) -> None:
    gf, db = cpi
    profile = data_root("hatchet/cprofile-cycle") / "cprofile-cycle.pstats"
    w = cctviz.CCT(gf, source=str(db), units={"time": "ms"})
    w.derive("sum", "`time (inc)` + `time (inc)`")
    assert w.units == {"time": "ms", "time (inc)": "µs", "sum": "µs"}
    w.data = _read("from_cprofile", profile)  # seconds, as pstats writes them
    # the database's µs went; the user's ms stayed (the new data has `time`); the derived
    # metric's unit is inferred again from the new data's
    assert w.units == {"time": "ms", "time (inc)": "s", "sum": "s"}
    w.units = {**w.units, "time (inc)": "ks"}  # set by the user after: kept too
    w.data = gf  # read without its folder: nothing states its units
    assert w.units == {"time": "ms", "time (inc)": "ks", "sum": "ks"}
    fresh = cctviz.CCT(gf, source=str(db))
    fresh.data = _read("from_cprofile", profile)
    assert fresh.units == {"time": "s", "time (inc)": "s"}

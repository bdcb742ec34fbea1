"""Units: the grammar (cctviz/core/units.py, the cases the front end must agree on in
tests/conformance/units-cases.json), each metric's unit read from real profiles where their
format states it (cctviz/adapters/units.py), the view's effective units (data, then the user's)
and the errors of a unit that does not parse or names no metric."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import traitlets

import cctviz
from cctviz.adapters.units import _cali_units, discover, spread
from cctviz.core.units import UnitError, canonical, column_format, format_value, parse

from .profiles import REPO, data_root, distribution

CASES = json.loads((REPO / "tests/conformance/units-cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("text", "expected"), CASES["parse"], ids=lambda c: repr(c)[:30])
def test_parse_as_the_cases_say(text: str, expected: Any) -> None:
    if isinstance(expected, str):
        with pytest.raises(UnitError, match="Accepted: a base unit s") as raised:
            parse(text)
        assert expected in str(raised.value)
        return
    unit = parse(text)
    assert [unit.symbol, unit.per, unit.si] == [expected[0], expected[1], expected[3]]
    assert unit.scale == pytest.approx(expected[2], rel=1e-12)


@pytest.mark.parametrize(("value", "unit", "text"), CASES["one"], ids=lambda c: repr(c)[:20])
def test_one_value_prints_with_the_prefix_that_fits_it(value: float, unit: str, text: str) -> None:
    assert format_value(value, unit) == text


@pytest.mark.parametrize(("values", "unit", "texts"), CASES["column"], ids=lambda c: repr(c)[:20])
def test_a_column_shares_one_prefix(values: list[float], unit: str, texts: list[str]) -> None:
    f = column_format(values, unit)
    assert [f(v) for v in values] == texts


def test_missing_and_infinite_values_say_so() -> None:
    assert [format_value(v, "s") for v in (float("nan"), float("inf"), -float("inf"))] == [
        "missing",
        "∞",
        "\u2212∞",
    ]


def test_canonical_spelling_of_what_formats_write() -> None:
    assert [canonical(u) for u in ("usec", "sec", "nsec", "KiB", "samples", "GB/s")] == [
        "µs",
        "s",
        "ns",
        "KiB",
        "samples",
        "GB/s",
    ]


# -- discovery on real profiles -------------------------------------------------------------


def _read(reader: str, path: Path) -> Any:
    import hatchet as ht

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(ht.GraphFrame, reader)(str(path))


def test_caliper_units_from_attribute_metadata_and_names() -> None:
    cali = data_root("hatchet/caliper-example-cali") / "example-profile.cali"
    pytest.importorskip("caliperreader")
    said = _cali_units(cali)  # the file's own attribute.unit, by attribute name and by alias
    assert said["avg#inclusive#sum#time.duration"] == "sec"
    assert said["Avg time/rank"] == "sec"
    gf = _read("from_caliperreader", cali)
    found = discover(gf, cali)
    time_columns = [c for c in gf.dataframe.columns if "time" in str(c)]
    assert time_columns and all(found[c] == "s" for c in time_columns)
    # without the file: Caliper's documented unit of time.duration (UMD: attribute names;
    # LLNL: the spot channel's aliases)
    assert discover(gf) == found
    named = "Avg time/rank" if distribution() == "llnl" else "avg#inclusive#sum#time.duration"
    assert found[named] == "s"


def test_thicket_units_from_its_cali_files() -> None:
    thicket = pytest.importorskip("thicket")
    folder = data_root("thicket/mpi_scaling_cali")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tk = thicket.Thicket.from_caliperreader(sorted(map(str, folder.glob("*.cali"))))
    columns = [c for c in tk.dataframe.columns if "time" in str(c)]  # "Avg time/rank"…
    assert columns and discover(tk) == dict.fromkeys(columns, "s")


def test_hpctoolkit_units_from_the_metric_names_of_its_database() -> None:
    db = data_root("hatchet/hpctoolkit-cpi-database")
    gf = _read("from_hpctoolkit", db)
    assert discover(gf) == {}  # Hatchet keeps no word of the database: nothing is guessed
    # experiment.xml names the metric "CPUTIME (usec)": Hatchet's "time" and "time (inc)"
    assert discover(gf, db) == {"time": "µs", "time (inc)": "µs"}
    assert gf.dataframe["time (inc)"].max() == pytest.approx(1000306)  # 1.0 s in µs


def test_hpctoolkit_v4_units_from_meta_db() -> None:
    db = data_root("hatchet/hatchet_cpi_v4_database")
    reader = "from_hpctoolkit_latest" if distribution() == "llnl" else "from_hpctoolkit"
    gf = _read(reader, db)
    assert discover(gf, db) == {"time": "s", "time (inc)": "s"}  # meta.db: "CPUTIME (sec)"
    # without the database too: LLNL's reader keeps file_path; UMD's names time only
    # "CPUTIME (sec)" (its GraphFrame is known by its relation and instruction columns)
    assert discover(gf) == {"time": "s", "time (inc)": "s"}
    assert cctviz.CCT(gf).units == {"time": "s", "time (inc)": "s"}


def test_hpctoolkit_units_hatchet_keeps_in_its_column_names() -> None:
    """A GraphFrame of Hatchet's XML reader passed alone: its time is in µs or in s alike (no
    unit), but a metric Hatchet keeps under HPCToolkit's name states its SI unit."""
    gf = _read("from_hpctoolkit", data_root("hatchet/hpctoolkit-cpi-database"))
    frame = gf.dataframe
    for name in ("REALTIME (usec) (E)", "REALTIME (usec):Sum (I)", "GXCOPY:H2D (B) (E)"):
        frame[name] = frame["time"]
    frame["PAPI_TOT_INS (inst) (E)"] = frame["time"]  # a label: it may be anything, left out
    frame["IO (cycles) (E)"] = frame["time"]
    assert discover(gf) == {
        "REALTIME (usec) (E)": "µs",
        "REALTIME (usec):Sum (I)": "µs",
        "GXCOPY:H2D (B) (E)": "B",
    }
    # the same names on a frame no HPCToolkit reader made: nothing is read from them
    other = SimpleNamespace(dataframe=frame.drop(columns=["nid", "module"]), metadata={})
    assert discover(other) == {}
    v4 = frame.assign(relation=0, instruction=0)  # UMD's v4 columns: time is CPUTIME (sec)
    gf.dataframe = v4.rename(columns={"REALTIME (usec) (E)": "GPUOPS (sec) (inc)"})
    assert discover(gf) == {"time": "s", "time (inc)": "s", "GPUOPS (sec) (inc)": "s"}


def test_cprofile_times_are_seconds() -> None:
    gf = _read("from_cprofile", data_root("hatchet/cprofile-cycle") / "cprofile-cycle.pstats")
    assert discover(gf) == {"time": "s", "time (inc)": "s"}


def test_spread_to_derived_and_companion_metrics() -> None:
    names = ["time", "time (inc, derived)", "time (inc) (mean)", "timer"]
    assert spread({"time": "s", "time (inc)": "ms"}, names) == {
        "time": "s",
        "time (inc)": "ms",
        "time (inc, derived)": "s",
        "time (inc) (mean)": "ms",
    }


# -- the widget -----------------------------------------------------------------------------


@pytest.fixture
def cpi() -> tuple[Any, Path]:
    db = data_root("hatchet/hpctoolkit-cpi-database")
    return _read("from_hpctoolkit", db), db


def test_view_units_from_the_data_and_the_users_over_them(cpi: tuple[Any, Path]) -> None:
    gf, db = cpi
    assert cctviz.CCT(gf, source=str(db)).units == {"time": "µs", "time (inc)": "µs"}
    w = cctviz.CCT(gf, source=str(db), units={"time": "ms"})
    assert w.units == {"time": "ms", "time (inc)": "µs"}  # the user's wins, per metric
    assert cctviz.CCT(gf, source="a run").units == {}  # no database said: no unit


@pytest.mark.parametrize(
    ("units", "message"),
    [
        ({"time": "1e-6 s"}, r"units\['time'\]: unit '1e-6 s' does not parse: it starts with a"),
        ({"time": "KB"}, r"'K' is not an SI prefix of 'B' \(kilo is 'kB' or binary 'KiB'"),
        ({"time": "<i>s</i>"}, r"it holds '<' \(U\+003C\).*Accepted: a base unit s \(sec"),
        ({"time": ""}, r"units\['time'\]: unit '' does not parse: it is empty"),
    ],
)
def test_a_unit_that_does_not_parse_is_refused(
    cpi: tuple[Any, Path], units: dict[str, str], message: str
) -> None:
    gf, _ = cpi
    with pytest.raises(UnitError, match=message):
        cctviz.CCT(gf, units=units)
    w = cctviz.CCT(gf)
    with pytest.raises(traitlets.TraitError, match=message.split(": unit ")[-1]):
        w.units = units
    assert w.units == {}


def test_a_unit_of_no_metric_names_the_metrics(cpi: tuple[Any, Path]) -> None:
    w = cctviz.CCT(cpi[0])
    with pytest.raises(UnitError, match=r"'tme', not a metric.*'time', 'time \(inc\)'"):
        w.units = {"tme": "s"}


def test_figure_units_option_is_checked_before_any_drawing(cpi: tuple[Any, Path]) -> None:
    from cctviz.figure.render import figure_options

    with pytest.raises(UnitError, match=r"units\['time'\]: unit 'Ks' does not parse"):
        figure_options(width=900, height=500, units={"time": "Ks"})


def test_figure_legends_print_values_with_their_unit(cpi: tuple[Any, Path]) -> None:
    pytest.importorskip("playwright", reason="figures need cctviz[export]")
    gf, db = cpi
    w = cctviz.CCT(gf, source=str(db))  # experiment.xml: CPUTIME (usec)
    texts = re.findall(r'class="cct-legend-(?:title|tick)"[^>]*>([^<]*)<', w.to_svg())
    # µs rescaled to seconds' prefixes, one per legend: 347,000 µs is 347 ms, 1,000,306 µs 1000 ms
    assert texts == [
        "colour: time (exclusive) [s]",
        "0 s",
        "347 ms",
        "size: time (inc) [s]",
        "62.5 ms",
        "250 ms",
        "1000 ms",
    ]
    w.units = {"time": "samples", "time (inc)": "samples"}  # the user's word over the data's
    texts = re.findall(r'class="cct-legend-(?:title|tick)"[^>]*>([^<]*)<', w.to_svg())
    assert texts[:4] == ["colour: time (exclusive)", "[samples]", "0 samples", "347k samples"]

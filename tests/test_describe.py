"""w.describe(): what the view shows in words (issue 32, point 4) — the hot path, the top nodes by
colour with their shares (by the one rule of shares), the selection; names are text, never
markup."""

from __future__ import annotations

import hatchet as ht
import numpy as np

import cctviz
from cctviz.core.markdown import text
from cctviz.core.units import column_texts
from cctviz.view.describe import hot_path

HOSTILE = "<img src=x onerror=alert(1)>"


def _gf() -> object:
    tree = [
        {
            "frame": {"name": "main", "type": "function"},
            "metrics": {"time (inc)": 100.0, "time": 5.0},
            "children": [
                {
                    "frame": {"name": "solve", "type": "function"},
                    "metrics": {"time (inc)": 80.0, "time": 10.0},
                    "children": [
                        {
                            "frame": {"name": HOSTILE, "type": "function"},
                            "metrics": {"time (inc)": 70.0, "time": 70.0},
                            "children": [],
                        },
                    ],
                },
                {
                    "frame": {"name": "io_*write*", "type": "function"},
                    "metrics": {"time (inc)": 15.0, "time": 15.0},
                    "children": [],
                },
            ],
        }
    ]
    return ht.GraphFrame.from_literal(tree)


def test_describe_names_the_hot_path_and_the_top_nodes_with_their_shares() -> None:
    w = cctviz.CCT(_gf(), color_by="time", size_by="time (inc)")
    out = w.describe()
    names = [w.table.name(i) for i in hot_path(w.table, w.table.metrics["time (inc)"])]
    assert names == ["main", "solve", HOSTILE]
    assert (
        "**Hot path** (by time \\(inc\\)): main 100 (100.0% of total) → solve 80 (80.0% of total)"
        in out
    )
    top = out.split("**Top 4 by time:**")[1].splitlines()[1:]
    assert (
        top[0].endswith(": 70 (70.0% of total)")
        and "io\\_\\*write\\*: 15 (15.0% of total)" in top[1]
    )
    solve = int(np.flatnonzero(w.table.name_code == w.table.names.index("solve"))[0])
    w.select([solve])
    assert "**Selected** (1): solve 10 (10.0% of total)." in w.describe()


def test_names_are_text_never_markup() -> None:
    out = cctviz.CCT(_gf()).describe()
    assert HOSTILE not in out and "<img" not in out
    assert text(HOSTILE) in out and "&lt;img src=x onerror=alert\\(1\\)&gt;" in out


def test_a_metric_without_shares_is_given_as_values() -> None:
    w = cctviz.CCT(_gf(), color_by="time", size_by="time (inc)", metric_kinds={"time": "other"})
    top = w.describe().split("**Top")[1]
    assert "of total" not in top.split("\n\n")[0]


def test_describe_tells_imbalance_over_ranks_and_nothing_where_one_row_per_node() -> None:
    from .profiles import data_root

    gf = ht.GraphFrame.from_hpctoolkit(str(data_root("hatchet/hpctoolkit-cpi-database")))
    w = cctviz.CCT(gf)
    out = w.describe()
    assert "ranks combined by mean" in out
    ratio = cctviz.from_graphframe(gf, reducer="imbalance").metrics["time"].values
    size = w.table.metrics[w.size_by].values
    big = np.nan_to_num(size) >= 0.01 * np.nanmax(size[w.table.roots])
    worst = int(np.flatnonzero(big)[np.nanargmax(np.where(big, ratio, np.nan)[big])])
    line = next(x for x in out.splitlines() if x.startswith("**Imbalance** (time: max ÷ mean"))
    assert line.split(": ", 2)[2].split(",")[0].endswith(f"{ratio[worst]:.2f}×"), line
    # one row per node: nothing combined, no imbalance to tell
    plain = cctviz.CCT(_gf(), color_by="time", size_by="time (inc)").describe()
    assert "**Imbalance**" not in plain and "combined by" not in plain


def test_describe_of_an_ensemble_tells_its_profiles_imbalance_and_changes(tmp_path) -> None:
    from cctviz.ensemble.synthetic import Change

    ens = cctviz.examples.ensemble(
        tmp_path / "e",
        60,
        40,
        seed=1,
        changes=[Change(30, 30, 1.5)],
        job_sizes=(64,),
        problem_sizes=(30,),
    )
    w = cctviz.CCT(ens)
    out = w.describe()
    # the store's version: cctviz.Ensemble(path, version=...) gives the same numbers again
    head = (
        f"## cctviz\\.Ensemble {text(str(ens.path))} \\(60 profiles, store version {ens.version}\\)"
    )
    assert out.startswith(head)
    assert "profiles combined by mean" in out and "max ÷ mean over profiles" in out
    changes = next(x for x in out.splitlines() if x.startswith("**Changes** along launchdate"))
    own = w.changes[w.changes["cause"] == "exclusive"].iloc[0]
    assert f"({len(w.changes)}): {text(w.table.name(int(own['node'])))}" in changes
    assert f"{own['change']:+.1%}" in changes and ", own)" in changes
    # before → after in the unit of the metric the changes are of, one SI prefix for both
    assert w.color_by not in w.units  # a synthetic store: no unit, the numbers alone
    assert "({} → {}, own".format(*column_texts([own["before"], own["after"]])) in changes
    w.units = {**w.units, w.color_by: "s"}
    said = next(x for x in w.describe().splitlines() if x.startswith("**Changes** along"))
    before, after = column_texts([own["before"], own["after"]], "s")
    assert before.endswith(" s") and f"({before} → {after}, own" in said


def test_the_summary_renders_in_a_notebook_and_prints_as_markdown() -> None:
    out = cctviz.CCT(_gf(), color_by="time", size_by="time (inc)").describe()
    assert isinstance(out, str) and out._repr_markdown_() == str(out)
    assert str(out).startswith("## ")


def test_values_are_told_with_their_unit_and_an_si_prefix() -> None:
    """Issue 58: describe prints a value as the view does (``w.units``, one SI prefix), not as
    ``.4g``; a metric without a unit as a number."""
    w = cctviz.CCT(_gf(), color_by="time", size_by="time (inc)", units={"time": "ms"})
    w.units = {**w.units, "time (inc)": "ms"}
    out = w.describe()
    assert f"**Hot path** (by {text('time (inc)')}): main 100 ms (100.0% of total)" in out
    assert f"1. {text(HOSTILE)}: 70 ms (70.0% of total)" in out
    w.units = {"time": "s", "time (inc)": "s"}
    w.select("solve")
    out = w.describe()
    assert "main 100 s (100.0% of total)" in out and "**Selected** (1): solve 10 s (" in out
    w.units = {"time": "us", "time (inc)": "ks"}  # µs; seconds never get a prefix above s
    out = w.describe()
    assert f"1. {text(HOSTILE)}: 70 µs (70.0% of total)" in out and "main 100000 s (" in out
    w.units = {}
    assert f"1. {text(HOSTILE)}: 70 (70.0% of total)" in w.describe()


def test_a_real_databases_microseconds_are_told_in_seconds() -> None:
    """The cpi database states µs (experiment.xml): about a second of time is told in seconds,
    its unit and prefix from the data (read from the database folder given as the source)."""
    from .conftest import load
    from .profiles import data_root
    from .test_adapter import _by_folder

    folder = "hatchet/hpctoolkit-cpi-database"
    w = cctviz.CCT(load(_by_folder(folder)), size_by="time (inc)", source=str(data_root(folder)))
    assert w.units["time (inc)"] == "µs"
    inc = float(w.table.metric("time (inc)").values.max())
    assert 0.5e6 < inc < 2e6  # about a second, in microseconds
    top = float(np.nanmax(w.table.metric("time").values))
    assert 1e5 < top < 1e6  # a few hundred milliseconds, in microseconds
    out = w.describe()
    assert f"{text('<unknown procedure>')} {inc / 1e6:.3g} s (100.0% of total)" in out
    assert (
        f"1. {text('<unknown file>:0')} (in {text('<unknown procedure>')}): {top / 1e3:.3g} ms ("
        in out
    )
    assert "µs" not in out and "e+" not in out


def test_a_ratio_the_reducer_makes_has_no_unit_but_a_derived_metric_has_its_own() -> None:
    """The imbalance (max ÷ mean) of a µs metric is a ratio: told without a unit, as the legend
    does; a derived metric of kind ratio is told with the unit it was given."""
    from .conftest import load
    from .profiles import data_root
    from .test_adapter import _by_folder

    folder = "hatchet/hpctoolkit-cpi-database"
    gf = load(_by_folder(folder))
    w = cctviz.CCT(gf, source=str(data_root(folder)), reducer="imbalance")
    assert w.units[w.color_by] == "µs" and w.table.metrics[w.color_by].kind == "ratio"
    top = w.describe().split("**Top")[1].split("\n\n")[0]
    assert "s (" not in top and "s\n" not in top and "µs" not in top
    w.reducer = "mean"
    w.derive("in ms", "`time` / 1000", unit="ms")  # kind ratio (the default), unit given
    w.color_by = "in ms"
    top = w.describe().split("**Top")[1]
    biggest = float(np.nanmax(w.table.metric("in ms").values))
    assert f"): {biggest:.3g} ms (" in top or f": {biggest:.3g} ms" in top

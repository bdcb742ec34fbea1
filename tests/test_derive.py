"""Derived metrics of a view (CCT.derive, the `derived` trait) on real profiles: their values are
the expression over each node's values as shown (rows combined by the reducer), computed again
under another reducer; they are ordinary metrics (menus through the payload, color_by,
node_frame), saved with the view, written by to_code as pandas code that gives the same values;
bad input is a clear error."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import cctviz
from cctviz.analysis.derive import UnknownInputError
from cctviz.core.expression import ExpressionError
from cctviz.widget.code import drawn_ids

from .conftest import load
from .profiles import PROFILES, distribution

CPI = next(p for p in PROFILES if p.folder == "hatchet/hpctoolkit-cpi-database")  # node, rank
THREADS = next(p for p in PROFILES if p.folder == "hatchet/hpctoolkit-allgather-database")
TAU = next(p for p in PROFILES if p.folder == "hatchet/tau-cpi-mpi")  # node, rank
ONE_ROW = next(p for p in PROFILES if p.folder == "hatchet/pyinstrument")  # node
SHARE = "`time` / `time (inc)`"


def _share(nf: pd.DataFrame) -> np.ndarray:
    """The exclusive share by pandas arithmetic on node_frame (NaN for a 0 denominator)."""
    inc = nf["time (inc)"]
    return (nf["time"] / inc.where(inc != 0)).to_numpy(dtype=float)


def _path(node: Any) -> tuple[str, ...]:
    """A Hatchet node's call path: the frames from its root."""
    return tuple(repr(sorted(n.frame.attrs.items())) for n in node.path())


def _by_path(view: Any, name: str) -> dict[tuple[str, ...], list[float]]:
    """A column of the rebuilt profile: each node's value (every row of a node holds the same
    one), grouped by call path (siblings may have equal frames), sorted."""
    df = view.dataframe
    values: dict[Any, float] = {}
    nodes = df.index.get_level_values("node")
    for node, value in zip(nodes, df[name].to_numpy(dtype=float), strict=True):
        if node in values:
            assert values[node] == value or (np.isnan(value) and np.isnan(values[node]))
        values[node] = value
    out: dict[tuple[str, ...], list[float]] = {}
    for node, value in values.items():
        out.setdefault(_path(node), []).append(value)
    return {k: sorted(v) for k, v in out.items()}


def _shown(w: Any, name: str) -> dict[tuple[str, ...], list[float]]:
    """The view's values of ``name`` of the nodes it draws, as ``_by_path`` groups them."""
    values = w.node_frame[name].to_numpy(dtype=float)
    out: dict[tuple[str, ...], list[float]] = {}
    for i in drawn_ids(w):
        out.setdefault(_path(w.table.nodes[i]), []).append(float(values[i]))
    return {k: sorted(v) for k, v in out.items()}


def _same(got: dict[Any, list[float]], want: dict[Any, list[float]]) -> None:
    assert got.keys() == want.keys()
    for key, values in got.items():
        assert values == pytest.approx(want[key], nan_ok=True, rel=1e-12), key


def _run(w: Any, data: Any) -> Any:
    scope: dict[str, Any] = {"gf": data}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # the generated code, run as a user would (no __future__ import inherited)
        exec(compile(w.to_code("gf"), "<to_code>", "exec", dont_inherit=True), scope)
    return scope["view"]


def test_values_are_the_expression_over_the_values_shown() -> None:
    w = cctviz.CCT(load(CPI))
    w.derive("exc share", SHARE)
    nf = w.node_frame
    np.testing.assert_array_equal(nf["exc share"].to_numpy(dtype=float), _share(nf))
    assert np.isnan(nf["exc share"]).any() and (nf["exc share"] > 0).any()  # 0 ÷ 0 is NaN
    assert w.metrics == ["time", "time (inc)", "exc share"]
    assert w.derived == {"exc share": {"expression": SHARE, "kind": "ratio"}}
    kinds = w.metric_kinds.set_index("metric") if "metric" in w.metric_kinds else w.metric_kinds
    assert "exc share" in kinds.index.astype(str)


def test_it_reaches_the_page_as_a_metric_without_shares() -> None:
    w = cctviz.CCT(load(CPI))
    w.derive("exc share", SHARE)
    sent = {m["name"]: m for m in w._payload["metrics"]}
    assert sent["exc share"]["kind"] == "ratio" and sent["exc share"]["share"] is None
    assert sent["exc share"]["rule"] == "expression"
    got = np.frombuffer(sent["exc share"]["values"]["buffer"], dtype="<f8")
    np.testing.assert_array_equal(got, w.table.metrics["exc share"].values)
    w.color_by = "exc share"  # the colour menu's choice, as from Python
    assert w.color_by == "exc share"


def test_a_new_reducer_computes_it_again_from_the_reduced_inputs() -> None:
    data = load(TAU)
    w = cctviz.CCT(data, reducer="mean")
    w.derive("exc share", SHARE)
    w.color_by = "exc share"
    mean = w.node_frame["exc share"].to_numpy(dtype=float)
    w.reducer = "max"
    nf = w.node_frame
    assert w.color_by == "exc share"
    np.testing.assert_array_equal(nf["exc share"].to_numpy(dtype=float), _share(nf))
    assert not np.allclose(mean, nf["exc share"], equal_nan=True)  # other inputs, other values
    # max(time) ÷ max(time inc) per node, not the max of each rank's ratio
    df = data.dataframe
    ratio = (df["time"] / df["time (inc)"].where(df["time (inc)"] != 0)).groupby(level="node")
    per_row = ratio.max().reindex(list(w.table.nodes)).to_numpy(dtype=float)
    assert not np.allclose(per_row, nf["exc share"], equal_nan=True)


def test_kinds_the_user_gives() -> None:
    w = cctviz.CCT(load(CPI))
    w.derive("busy", "`time (inc)` - `time`", kind="inclusive")
    w.derive("double", "2 * `time`", kind="exclusive")
    sent = {m["name"]: m for m in w._payload["metrics"]}
    assert (sent["busy"]["kind"], sent["busy"]["share"]) == ("inclusive", "busy")
    assert (sent["double"]["kind"], sent["double"]["share"]) == ("exclusive", None)
    with pytest.raises(ValueError, match=r"kind 'sum' is not accepted; accepted: 'ratio', 'incl"):
        w.derive("x", "`time`", kind="sum")


def test_one_may_name_another_and_removing_it_is_refused_while_used() -> None:
    w = cctviz.CCT(load(CPI))
    w.derive("exc share", SHARE)
    w.derive("percent", "100 * `exc share`")
    nf = w.node_frame
    np.testing.assert_allclose(nf["percent"], 100 * _share(nf), equal_nan=True)
    with pytest.raises(ValueError, match="'exc share' is an input of 'percent'"):
        w.derive("exc share", None)
    w.color_by = "percent"
    w.derive("percent", None)
    assert "percent" not in w.metrics and w.color_by == w._default_metrics()[0]
    with pytest.raises(KeyError, match="no derived metric 'nope' to remove; derived metrics: 'e"):
        w.derive("nope", None)


def test_saved_with_the_view_and_given_to_the_constructor() -> None:
    data = load(CPI)
    w = cctviz.CCT(data, derived={"exc share": SHARE}, color_by="exc share")
    assert w.color_by == "exc share" and "exc share" in w.metrics
    state = w.view_state
    assert state["derived"] == {"exc share": {"expression": SHARE, "kind": "ratio"}}
    again = cctviz.CCT(data, state=state)
    assert again.color_by == "exc share"
    np.testing.assert_array_equal(again.node_frame["exc share"], w.node_frame["exc share"])
    other = cctviz.CCT(load(ONE_ROW), state={**state, "derived": {"x": "`missing` * 2"}})
    assert other.derived == {} and "x" not in other.metrics  # as a metric it lacks: left out


def test_under_level_of_detail_the_loaded_nodes_carry_it() -> None:
    w = cctviz.CCT(load(THREADS), budget=50)
    w.derive("exc share", SHARE)
    sent = {m["name"]: m for m in w._payload["metrics"]}
    assert "exc share" in sent and w._payload["size"] < w.table.size
    assert w.load_more(-1) >= 0 and "exc share" in {m["name"] for m in w._payload["metrics"]}


@pytest.mark.parametrize("reducer", ["mean", "sum", "max", "median", "std", "imbalance"])
@pytest.mark.parametrize("profile", [CPI, TAU], ids=lambda p: p.folder)
def test_to_code_computes_the_same_values_with_pandas(reducer: str, profile: Any) -> None:
    data = load(profile)
    w = cctviz.CCT(data, reducer=reducer)
    w.derive("exc share", SHARE)
    w.derive("scaled", "-(`exc share` - 1) * 2 + `time` / 1e6")
    deep = int(w.table.depth.max())  # the deepest level is hidden: the code filters
    w.collapsed = tuple(i for i in range(w.table.size) if w.table.depth[i] == deep - 1)
    view = _run(w, data)
    for name in ("exc share", "scaled"):
        got = _by_path(view, name)
        assert 1 < sum(map(len, got.values())) < w.table.size
        _same(got, _shown(w, name))
    assert "exc share" not in data.dataframe.columns  # the profile itself is not changed


def test_to_code_adds_up_threads_within_a_rank_as_the_view_does() -> None:
    data = load(THREADS)
    w = cctviz.CCT(data, reducer="std", budget=None)
    w.derive("exc share", SHARE)
    assert "ranks = view.dataframe" in w.to_code()
    got = _by_path(_run(w, data), "exc share")
    assert sum(map(len, got.values())) == w.table.size
    _same(got, _shown(w, "exc share"))


def test_to_code_with_one_row_per_node_and_every_node_drawn() -> None:
    data = load(ONE_ROW)
    w = cctviz.CCT(data, reducer="mean")
    assert not w.table.reduced_over  # one row per node
    w.derive("exc share", SHARE)
    code = w.to_code()
    assert "view = gf.copy()" in code
    got = _by_path(_run(w, data), "exc share")
    assert sum(map(len, got.values())) == w.table.size
    _same(got, _shown(w, "exc share"))
    assert "exc share" not in data.dataframe.columns


def test_to_code_names_what_it_cannot_compute() -> None:
    w = cctviz.CCT(load(CPI), reducer="imbalance")  # size shows the mean: a companion metric
    assert "time (inc) (mean)" in w.metrics
    w.derive("x", "`time (inc) (mean)` * 2")
    w.derive("y", "`x` + `time`")
    code = w.to_code()
    assert "# 'x' is not computed here: it reads 'time (inc) (mean)', which no column" in code
    assert "# 'y' is not computed here: it reads 'x'" in code


@pytest.mark.parametrize(
    ("expression", "error", "match"),
    [
        ("`tme` / 2", UnknownInputError, r"no metric 'tme' .*available metrics: 'time', 'time \("),
        ("`time` / (2", ExpressionError, r"a '\)' is missing at character 12"),
        ("", ExpressionError, "an empty expression"),
        ("3 * 2", ExpressionError, "names no metric"),
        ("`name` * 2", UnknownInputError, "'name' is a column of the dataframe, not numeric"),
        ("__import__('os')", ExpressionError, "'__import__' is not allowed"),
        ("`time`.real", ExpressionError, r"'\.' is not allowed"),
    ],
)
def test_bad_expressions_are_clear_errors(expression: str, error: type, match: str) -> None:
    w = cctviz.CCT(load(CPI))
    with pytest.raises(error, match=match):
        w.derive("bad", expression)
    assert "bad" not in w.metrics and w.derived == {}


def test_bad_names_are_clear_errors() -> None:
    w = cctviz.CCT(load(CPI))
    with pytest.raises(ValueError, match="a metric named 'time' exists already; give the derived"):
        w.derive("time", "2 * `time`")
    with pytest.raises(ValueError, match="needs a name"):
        w.derive(" ", "2 * `time`")
    with pytest.raises(TypeError, match="an expression is text, such as"):
        w.derive("x", ["`time`"])  # type: ignore[arg-type]


def test_a_name_is_text_never_markup() -> None:
    w = cctviz.CCT(load(CPI))
    hostile = "<img src=x onerror=alert(1)>"
    w.derive(hostile, SHARE)
    assert hostile in w.metrics
    w.color_by = hostile
    said = str(w.describe())
    assert "&lt;img src=x onerror=alert\\(1\\)&gt;" in said and "<img" not in said
    sent = {m["name"] for m in w._payload["metrics"]}
    assert hostile in sent  # a plain string: the page writes names as text nodes


def test_the_page_may_not_set_it() -> None:
    w = cctviz.CCT(load(CPI))
    w.set_state({"derived": {"x": {"expression": "`time` * 2", "kind": "ratio"}}})
    assert w.derived == {} and "x" not in w.metrics
    assert "written by Python only" in w.front_end_errors[-1]


@pytest.mark.llnl
def test_to_code_on_a_thicket_computes_the_same_values() -> None:
    spec = next(p for p in PROFILES if p.id == "thicket/mpi_scaling_cali:thicket")
    if distribution() != "llnl":
        pytest.skip("Thicket needs LLNL's llnl-hatchet")
    data = load(spec)
    w = cctviz.CCT(data, reducer="median")
    first, second = w.metrics[:2]
    w.derive("ratio of two", f"`{first}` / `{second}`")
    w.collapsed = tuple(i for i in range(w.table.size) if w.table.depth[i] == 1)
    got = _by_path(_run(w, data), "ratio of two")
    assert 1 < sum(map(len, got.values())) < w.table.size
    _same(got, _shown(w, "ratio of two"))

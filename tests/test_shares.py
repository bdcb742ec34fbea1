"""Shares ("40 % of total") on real profiles: which metrics have one and of what
(``cctviz.view.payload.share_base``, sent with each metric), and the figure's labels and legend that
the renderer draws from it. js/test/cct/picture/shares.test.js checks the front end's arithmetic."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import cctviz

from .conftest import load
from .profiles import Profile, readable

# HPCToolkit (a procedure's exclusive time repeated by its loops and lines) and Caliper (no
# inclusive metric measured in LLNL's names: a derived partner)
FOLDERS = (
    "hatchet/hatchet_cpi_v4_database",
    "hatchet/hpctoolkit-cpi-database",
    "thicket/mpi_scaling_cali",
)
PROFILES = [p for p in readable() if p.folder in FOLDERS and p.reader != "thicket"]


def shares(w: cctviz.CCT) -> dict[str, str | None]:
    """Each metric's share base as the payload sends it."""
    return {m["name"]: m["share"] for m in w._payload["metrics"]}


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.id)
def test_a_share_is_of_an_inclusive_value_at_the_roots(profile: Profile) -> None:
    w = cctviz.CCT(load(profile))
    sent = shares(w)
    for m in w.table.metrics.values():
        if m.kind == "inclusive":
            assert sent[m.name] == m.name
        elif m.kind == "exclusive":
            # its inclusive partner, measured or derived: never the sum of exclusive values
            assert m.partner is not None and sent[m.name] == m.partner
            assert w.table.metrics[m.partner].kind == "inclusive"
        else:
            assert sent[m.name] is None
    assert any(base is not None for base in sent.values())


def test_hpctoolkit_exclusive_values_repeat_so_their_sum_is_no_base() -> None:
    """cpi (HPCToolkit v4): Σ exclusive is 2.3 × the program's time; the base is the latter."""
    (profile,) = [p for p in PROFILES if p.folder == FOLDERS[0]]
    w = cctviz.CCT(load(profile))
    t = w.table
    base = t.metrics[str(shares(w)["time"])].values
    program = np.nansum(base[t.roots])
    assert np.nansum(t.metrics["time"].values) > 2 * program
    assert program == pytest.approx(np.nansum(t.metrics["time (inc)"].values[t.roots]))


def test_no_share_under_the_reducers_that_do_not_add_up() -> None:
    gf = cctviz.examples.load("hpctoolkit-cpi")  # 4 ranks
    for reducer in ("median", "std", "imbalance"):
        w = cctviz.CCT(gf, reducer=reducer)
        sent = shares(w)
        assert {sent["time"], sent["time (inc)"]} == {None}, reducer
        # the size companions (the mean over ranks, see size_reducer) add up: they have shares
        assert sent["time (mean)"] == sent["time (inc) (mean)"] == "time (inc) (mean)"
    w.reducer = "max"
    assert shares(w) == {"time": "time (inc)", "time (inc)": "time (inc)"}


def test_a_compare_view_shares_only_each_runs_values() -> None:
    runs = list(cctviz.examples.runs().values())
    w = cctviz.compare(runs[:2], labels=("27", "64"))
    sent = shares(w)
    c = w.columns
    assert {run: sent[run] for run in c.runs} == {run: run for run in c.runs}
    for name in (c.diff, c.larger, c.ratio, c.log_ratio, c.change):
        assert sent[name] is None, name
    series = cctviz.compare(runs, labels=list(cctviz.examples.runs()))
    assert shares(series)[str(series.columns.efficiency)] is None
    # a level-of-detail view sends the same bases
    lod = cctviz.compare(runs[:2], labels=("27", "64"), budget=10)
    assert shares(lod) == sent


def _percent(text: str | None) -> float | None:
    found = re.search(r" ([\d.]+)%$", text or "")
    return float(found.group(1)) if found else None


def test_a_figures_labels_and_legend_give_shares_of_the_program_time() -> None:
    pytest.importorskip("playwright", reason="figures need Playwright")
    (profile,) = [p for p in PROFILES if p.folder == FOLDERS[0]]
    w = cctviz.CCT(load(profile), color_by="time", size_by="time", legend_share="total")
    t = w.table
    exclusive = t.metrics["time"].values
    program = float(np.nansum(t.metrics["time (inc)"].values[t.roots]))
    root = ET.fromstring(w.to_svg())
    checked = 0
    for el in root.iter():
        share = _percent(el.text) if "cct-label" in el.get("class", "") else None
        if share is None or el.get("data-id") is None:
            continue
        want = 100 * exclusive[int(el.get("data-id", -1))] / program
        digit = 1.0 if want >= 10 else 10 ** (math.floor(math.log10(want)) - 1)
        assert abs(share - want) <= digit / 2 + 1e-9, (el.text, want)
        checked += 1
    assert checked >= 5
    texts = [el.text or "" for el in root.iter()]
    # the colour legend's top end: the largest exclusive value's share of the program's time
    top = f"{100 * np.nanmax(exclusive) / program:.0f} %"
    assert top in texts and "% of total" in " ".join(texts)


def test_a_compare_figure_gives_no_share_of_a_difference() -> None:
    pytest.importorskip("playwright", reason="figures need Playwright")
    runs = list(cctviz.examples.runs().values())
    w = cctviz.compare(runs[:2], labels=("27", "64"), legend_share="total")
    assert w.color_by == w.columns.diff

    def texts() -> list[str]:
        return [el.text or "" for el in ET.fromstring(w.to_svg()).iter()]

    drawn = texts()
    labels = [x for x in drawn if _percent(x) is not None]
    assert labels == [] and not any(x.endswith(" %") for x in drawn)  # labels, legend ends
    assert "% of" not in " ".join(drawn)
    w.color_by = w.columns.a  # a run's own values: the legend's ends are shares again
    assert any(x.endswith(" %") for x in texts())

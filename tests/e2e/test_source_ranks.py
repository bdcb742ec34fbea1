"""End to end (issue 58, points 4 and 5): on the real allgather HPCToolkit database, the table
pane's Source tab shows the selected statement's file (found under ``w.source_paths``) with its
line marked and the measured lines' values in the gutter; the Ranks tab's strip sets ``w.rank``
in Python on a click."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
DATABASE = SHARED / "hatchet" / "hpctoolkit-allgather-database"
PSM_QUEUE = "/builddir/build/BUILD/mvapich2-2.3/src/mpid/ch3/channels/psm/src/psm_queue.c"

SETUP = f"""
import tempfile, pathlib, warnings
import numpy as np, hatchet, cctviz
warnings.simplefilter("ignore")
gf = hatchet.GraphFrame.from_hpctoolkit({str(DATABASE)!r})
# the database has no src/ copy: a stand-in psm_queue.c (its lines numbered) in a checkout
folder = pathlib.Path(tempfile.mkdtemp()) / "mvapich2"
source = folder / "mpid/ch3/channels/psm/src/psm_queue.c"
source.parent.mkdir(parents=True)
source.write_text("".join(f"    psm_progress(q, {{n}});  /* stand-in line {{n}} */\\n"
                          for n in range(1, 1200)))
w = cctviz.CCT(gf, source_paths=[str(folder)], height=500)
df = gf.dataframe
time = w.table.metrics["time"].values
lines = [i for i in range(w.table.size) if w.table.first_row[i] >= 0
         and df["file"].iat[w.table.first_row[i]] == {PSM_QUEUE!r}]
# the statement with the most measured lines around it (the Source tab shows 12 each side)
node = max(lines, key=lambda i: (sum(v is not None for v in w.source_text(i, 12).values),
                                 np.nan_to_num(time[i])))
w.selection = (node,)
w.table_mode = "source"
w
"""


def test_the_source_tab_marks_the_line_and_the_rank_strip_sets_the_rank(
    open_notebook, page
) -> None:
    if not DATABASE.is_dir():
        pytest.skip(f"the shared profiles are missing ({DATABASE})")
    page.set_viewport_size({"width": 1300, "height": 800})  # a cell about 900 px wide
    notebook = open_notebook([SETUP])
    line = notebook.python_json("w.source_text(node).line")
    view = page.locator(".cctviz").first
    marked = view.locator(".cct-source-marked")
    marked.wait_for()
    assert marked.get_attribute("data-line") == str(line)
    assert f"stand-in line {line} " in marked.inner_text()
    assert view.locator(".cct-source-measured").count() >= 2
    assert view.locator(".cct-source-path").inner_text().endswith(f"psm_queue.c:{line}")
    ARTIFACTS.mkdir(exist_ok=True)
    page.wait_for_timeout(500)
    view.screenshot(path=str(ARTIFACTS / "source-pane.png"))
    # the Ranks tab: a click on a bar shows that rank's tree, in Python
    view.get_by_role("tab", name="Ranks").click()
    notebook.wait_python("w.table_mode", "ranks")
    bars = view.locator(".cct-rank")
    bars.first.wait_for()
    assert bars.count() == 10
    rank = int(bars.nth(2).get_attribute("data-rank"))
    bars.nth(2).click()
    notebook.wait_python("w.rank", rank)
    view.locator(f".cct-rank[data-rank='{rank}'][aria-pressed='true']").wait_for()
    view.screenshot(path=str(ARTIFACTS / "rank-strip.png"))
    values = f"w.ranks_of(node).query('rank == {rank}')['time']"
    expected = notebook.python_json(f"float({values}.mean())")
    assert notebook.python_json("float(w.node_frame['time'].iloc[node])") == pytest.approx(expected)

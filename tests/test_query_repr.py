"""``w.selection_query`` prints what it matches (issue 28.8b); it stays a Hatchet query."""

from __future__ import annotations

import cctviz

from .conftest import load
from .test_adapter import _by_folder


def test_selection_query_reads_as_the_call_paths_it_matches() -> None:
    gf = load(_by_folder("hatchet/hpctoolkit-cpi-database"))
    w = cctviz.CCT(gf)
    w.select("main")
    text = repr(w.selection_query)
    assert "object at 0x" not in text
    assert text == (
        f"<hatchet {type(w.selection_query).__name__} matching 1 calling context by call path: "
        "<program root> → main>"
    )
    # many contexts: the first few paths, and how many in all
    w.select("<unknown procedure>")
    many = repr(w.selection_query)
    count = len(w.selection)
    assert count > 5
    assert f"matching {count} calling contexts by call path: <program root> → main → " in many
    assert many.endswith(f"; … ({count} in all)>") and many.count(" → main → ") == 5
    # still a query Hatchet's filter takes: it keeps exactly the selection
    kept = gf.filter(w.selection_query, squash=False).dataframe
    nodes = set(kept.index.get_level_values("node"))
    assert {id(n) for n in nodes} == {id(n) for n in w.selected_nodes}

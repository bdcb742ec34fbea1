"""``CCT.to_code``: Hatchet code that rebuilds the visible tree from the GraphFrame."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from .. import selection as sel
from .. import view

if TYPE_CHECKING:
    from .cct import CCT


def to_code(w: CCT, name: str = "gf") -> str:
    """Python code that rebuilds the visible tree of ``w`` from the GraphFrame ``name`` with
    Hatchet's own ``filter`` (squashed): the nodes drawn, collapsed glyphs included, aggregates
    and level-of-detail folds not."""
    data = w.data
    if sel.is_thicket(data):
        raise TypeError("to_code writes GraphFrame code; for a Thicket use w.view_state")
    table = w.table
    lod = w._lod
    if lod is None:
        ids = view.visible_nodes(
            table,
            collapsed=w.collapsed,
            prune_range=w.prune_range,
            color_values=table.metrics[w.color_by].values,
            focused=w.focused,
            visible_roots=w.visible_roots,
        )
    else:  # what the browser draws: the loaded nodes and their folds (folds are not nodes)
        drawn = lod.drawn()
        ids = view.visible_nodes(
            drawn.table,
            collapsed=w.collapsed,
            prune_range=w.prune_range,
            color_values=drawn.table.metrics[w.color_by].values,
            focused=w.focused,
            visible_roots=w.visible_roots,
            node_id=drawn.node_id,
            folded=drawn.folded,
        )
    nids = sorted(int(table.hatchet_nid[i]) for i in ids)
    notes = [f"# cctviz view of {name}: {len(ids)} of {table.size} nodes"]
    if lod is not None:
        notes.append(f"# level of detail: {len(w.loaded)} nodes loaded, the rest folded")
    if w.focused is not None:
        notes.append(f"# focus: {table.name(w.focused)!r}")
    if w.visible_roots is not None:
        notes.append(f"# roots: {[table.name(i) for i in w.visible_roots]!r}")
    if w.collapsed:
        notes.append(f"# collapsed: {[table.name(i) for i in w.collapsed]!r}")
    if w.prune_range is not None:
        lo, hi = w.prune_range
        notes.append(f"# pruned: {w.color_by!r} kept in [{lo!r}, {hi!r}] (and ancestors)")
    # as in selected_graphframe: keep the full profile's inclusive values where Hatchet lets
    # us (LLNL), since recomputing them fails on several real profiles
    options = "squash=True, num_procs=1"
    if "update_inc_cols" in inspect.signature(data.filter).parameters:
        options += ", update_inc_cols=False"
    return "\n".join(
        [
            *notes,
            f"visible = {set(nids)!r}  # _hatchet_nid of the nodes drawn",
            f"view = {name}.filter(",
            f'    lambda row: row["node"]._hatchet_nid in visible, {options}',
            ")",
            "",
        ]
    )

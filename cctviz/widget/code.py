"""``CCT.to_code``: Hatchet code that rebuilds the visible tree from the GraphFrame."""

from __future__ import annotations

import inspect
import warnings
from typing import TYPE_CHECKING, Any

from .. import selection as sel
from .. import view

if TYPE_CHECKING:
    from .cct import CCT


def to_code(w: CCT, name: str = "gf") -> str:
    """Python code that rebuilds the visible tree of ``w`` from ``name`` (a GraphFrame, or a
    Thicket) with Hatchet's own filter (Thicket's ``query``), squashed: the nodes drawn,
    collapsed glyphs included, aggregates and level-of-detail folds not. With every node visible
    it filters nothing; where the installed Hatchet cannot squash the profile it filters without
    squashing, and says so."""
    data = w.data
    table = w.table
    ids = _drawn(w)
    notes = [f"# cctviz view of {name}: {len(ids)} of {table.size} nodes"]
    if w._lod is not None:
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
    if len(ids) == table.size:
        return "\n".join([*notes, f"view = {name}  # every node is visible: nothing to filter", ""])
    nids = sorted(int(table.hatchet_nid[i]) for i in ids)
    squash, why = _can_squash(data, set(nids))
    if not squash:
        notes.append(f"# the installed Hatchet cannot squash this profile ({why});")
        notes.append("# the nodes are filtered without squashing: the tree keeps every node,")
        notes.append("# the dataframe only the visible ones")
    visible = f"visible = {set(nids)!r}  # _hatchet_nid of the nodes drawn"
    if sel.is_thicket(data):
        return "\n".join([*notes, *_thicket_code(name, visible, squash), ""])
    # as in selected_graphframe: keep the full profile's inclusive values where Hatchet lets
    # us (LLNL), since recomputing them fails on several real profiles
    options = f"squash={squash}, num_procs=1"
    if squash and "update_inc_cols" in inspect.signature(data.filter).parameters:
        options += ", update_inc_cols=False"
    return "\n".join(
        [
            *notes,
            visible,
            f"view = {name}.filter(",
            f'    lambda row: row["node"]._hatchet_nid in visible, {options}',
            ")",
            "",
        ]
    )


def _drawn(w: CCT) -> list[int]:
    """Ids of the nodes the view draws."""
    table = w.table
    lod = w._lod
    if lod is None:
        return view.visible_nodes(
            table,
            collapsed=w.collapsed,
            prune_range=w.prune_range,
            color_values=table.metrics[w.color_by].values,
            focused=w.focused,
            visible_roots=w.visible_roots,
        )
    drawn = lod.drawn()  # what the browser draws: the loaded nodes and their folds
    return view.visible_nodes(
        drawn.table,
        collapsed=w.collapsed,
        prune_range=w.prune_range,
        color_values=drawn.table.metrics[w.color_by].values,
        focused=w.focused,
        visible_roots=w.visible_roots,
        node_id=drawn.node_id,
        folded=drawn.folded,
    )


def _can_squash(data: Any, nids: set[int]) -> tuple[bool, str]:
    """Whether Hatchet squashes this profile to these nodes (it is tried), and why not."""

    if sel.is_thicket(data):
        how: Any = sel.nid_query(nids)
    else:

        def how(row: Any) -> bool:
            node = row["node"] if "node" in row.index else row.name
            return int((node[0] if isinstance(node, tuple) else node)._hatchet_nid) in nids

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sel.hatchet_filter(data, how, squash=True)
    except Exception as error:  # any failure inside Hatchet means: do not squash
        return False, f"{type(error).__name__}: {str(error)[:80]}"
    return True, ""


def _thicket_code(name: str, visible: str, squash: bool) -> list[str]:
    """Thicket's own query, on the base syntax of the LLNL hatchet it runs on."""
    options = "squash=True, update_inc_cols=False" if squash else "squash=False"
    return [
        "from hatchet.query import Query",
        "",
        visible,
        "",
        "",
        "def drawn(rows):",
        "    # a node's rows, one per profile",
        '    return rows.index.get_level_values("node")[0]._hatchet_nid in visible',
        "",
        "",
        f'view = {name}.query(Query().match(".", drawn), {options})',
    ]

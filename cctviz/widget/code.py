"""``CCT.to_code``: Hatchet code that rebuilds the visible tree from the GraphFrame."""

from __future__ import annotations

import warnings
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from ..adapters import pinned
from ..adapters.derived import SUFFIX
from ..core import rebuild
from ..view import selection as sel
from ..view import state as view
from . import code_derived

if TYPE_CHECKING:
    from ..core.table import NodeTable
    from .cct import CCT


def to_code(w: CCT, name: str = "gf") -> str:
    """Python code that rebuilds the visible tree of ``w`` from ``name`` (a GraphFrame, or a
    Thicket): the nodes drawn, collapsed glyphs included, aggregates and level-of-detail folds
    not, each holding the values the view shows (the full profile's). A GraphFrame is filtered
    by Hatchet and its tree rebuilt over the kept nodes (Hatchet's squash would change values);
    a Thicket goes through its own ``query``, whose squash sums the rows of sibling nodes with
    equal frames: those are named in a comment and a warning. With every node visible it
    filters nothing. With a rank chosen (``w.rank``), the code keeps that rank's rows (after
    the filter, before the derived metrics), so it holds the values the view shows."""
    data = w.data
    table = w.table
    ids = drawn_ids(w)
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
    derived = [*_rank_lines(w.rank), *code_derived.lines(table, data, w._derivations, "view")]
    if len(ids) == table.size:
        if derived:  # the derived columns (or one rank's rows) go into a copy: {name} stays
            whole = f"view = {name}.copy()  # every node is visible: nothing to filter"
            return "\n".join([*notes, whole, *derived, ""])
        return "\n".join([*notes, f"view = {name}  # every node is visible: nothing to filter", ""])
    if not ids:
        raise ValueError(
            "the view draws no node (the prune range or the roots hide them all): there is no "
            "tree to rebuild; widen w.prune_range or reset w.focused / w.visible_roots"
        )
    notes += _derived_note(table)
    pin = pinned.text(table, data)
    nids = sorted({int(table.hatchet_nid[i]) for i in ids})
    visible = f"visible = {set(nids)!r}  # _hatchet_nid of the nodes drawn"
    if sel.is_thicket(data):
        squash, why = _can_squash(data, set(nids))
        if not squash:
            notes.append(f"# the installed Hatchet cannot squash this profile ({why});")
            notes.append("# the nodes are filtered without squashing: the tree keeps every node,")
            notes.append("# the dataframe only the visible ones")
        else:
            notes += _merged_note(table, ids)
        keep = pinned.code_line(True, pin)
        return "\n".join(
            [*notes, *_thicket_code(name, visible, squash), *_pin_lines(name, keep), *derived, ""]
        )
    id_set = set(ids)
    roots = sorted({int(table.hatchet_nid[i]) for i in ids if int(table.parent[i]) not in id_set})
    keep = pinned.code_line(False, pin)
    code = [*_graphframe_code(name, visible, roots), *_pin_lines(name, keep), *derived]
    return "\n".join([*notes, *code, ""])


def _rank_lines(rank: Any) -> list[str]:
    """The lines that keep one rank's rows of ``view`` (``w.rank``; none when it is None)."""
    if rank is None:
        return []
    return [
        "",
        f"# the view shows rank {rank!r} only (w.rank): its rows, the rank level kept",
        f'view.dataframe = view.dataframe.xs({rank!r}, level="rank", drop_level=False)',
    ]


def _pin_lines(name: str, keep: str) -> list[str]:
    """The lines that pin the metric kinds in the rebuilt profile's metadata (a new dict or
    frame: ``{name}``'s own metadata is not changed)."""
    return [
        "",
        f"# how cctviz read each metric of {name}: on this smaller tree its rules could read one",
        "# otherwise (the tree check sees fewer parents); cctviz.CCT(view) reads these kinds",
        "# (a metric_kinds= of yours still comes first)",
        keep,
    ]


def _graphframe_code(name: str, visible: str, roots: list[int]) -> list[str]:
    """Hatchet's filter without squash (each kept row as it is in the profile), then the tree
    of the kept nodes, by the function ``selected_graphframe`` uses (its source, so that the code
    needs Hatchet only). Hatchet's squash is not used: it merges sibling nodes with equal frames
    (summing their rows) and UMD hatchet's recomputes the inclusive columns over the smaller
    tree, so that the GraphFrame would not hold the values the view shows."""
    return [
        visible,
        f"roots = {set(roots)!r}  # the view's roots",
        "",
        "",
        *rebuild.source().rstrip("\n").split("\n"),
        "",
        "",
        f"# the rows of the visible nodes, each as it is in {name}: the view shows each node's own",
        "# values from the full profile. Hatchet's squash is not used: it would merge sibling",
        "# nodes with equal frames (summing their rows) and, in UMD hatchet, recompute the",
        "# inclusive columns over the smaller tree",
        f"view = {name}.filter(",
        '    lambda row: row["node"]._hatchet_nid in visible, squash=False, num_procs=1',
        ")",
        "rebuild_tree(view, visible, roots)  # the tree of the visible nodes",
    ]


def _derived_note(table: NodeTable) -> list[str]:
    """How cctviz's derived inclusive metrics relate to the GraphFrame the code builds."""
    derived = [m for m in table.metrics if m.endswith(SUFFIX)]
    if not derived:
        return []
    return [
        f"# {', '.join(map(repr, derived))}: cctviz's sums of the exclusive metric over each",
        "# node's subtree in the full profile (hidden descendants included); no column holds",
        "# them, and cctviz.CCT(view) sums over view's smaller tree, so they differ where a node",
        "# has hidden descendants (the exclusive values themselves are kept)",
    ]


def _merged_note(table: NodeTable, ids: list[int]) -> list[str]:
    """Thicket's squash merges kept siblings with equal frames: say which, and warn."""
    id_set = set(ids)
    groups: dict[tuple[int, Any], list[int]] = defaultdict(list)
    for i in ids:
        p = int(table.parent[i])
        groups[(p if p in id_set else -1, table.nodes[i].frame)].append(i)
    merged = [g for g in groups.values() if len(g) > 1]
    if not merged:
        return []
    names = "; ".join(" + ".join(f"{table.name(i)!r} (node {i})" for i in g) for g in merged)
    message = (
        f"to_code: Thicket's squash merges sibling nodes with equal frames, summing their rows: "
        f"{names}. The merged node holds the sums of their values (exclusive and inclusive), "
        "not each node's own as the view shows them"
    )
    warnings.warn(message, UserWarning, stacklevel=3)
    return [
        "# values not kept: Thicket's squash merges sibling nodes with equal frames and sums",
        f"# their rows (all metrics): {names}",
    ]


def drawn_ids(w: CCT, collapsed: tuple[int, ...] | None = None) -> list[int]:
    """Ids of the nodes the view draws (with ``collapsed`` in place of ``w.collapsed``)."""
    table = w.table
    lod = w._lod
    state: dict[str, Any] = {
        "collapsed": w.collapsed if collapsed is None else collapsed,
        "prune_range": w.prune_range,
        "focused": w.focused,
        "visible_roots": w.visible_roots,
    }
    if lod is None:
        return view.visible_nodes(table, color_values=table.metrics[w.color_by].values, **state)
    drawn = lod.drawn()  # what the browser draws: the loaded nodes and their folds
    return view.visible_nodes(
        drawn.table,
        color_values=drawn.table.metrics[w.color_by].values,
        node_id=drawn.node_id,
        folded=drawn.folded,
        **state,
    )


def _can_squash(data: Any, nids: set[int]) -> tuple[bool, str]:
    """Whether Thicket's query squashes this Thicket to these nodes (it is tried), and why not."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sel.hatchet_filter(data, sel.nid_query(nids), squash=True)
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

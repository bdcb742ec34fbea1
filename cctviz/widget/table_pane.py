"""The table pane's half in Python: the rows of its modes (calling contexts, functions, callers,
sandwich) within the view's scope, the callers and callees of a function as pandas, and the
pane's requests (``rows``, ``pick``, ``locate`` messages, each answered by a ``reply``; what
they ask for is worked out in ``pane_rows``)."""

from __future__ import annotations

import difflib
import pathlib
from typing import TYPE_CHECKING, Any

import numpy as np
import traitlets as t

from ..analysis.lexical import function_names, lexical
from ..analysis.merged import MergedTrees, merged_frame
from ..core import progress
from ..figure import provenance
from ..figure.render import figure_format, text_option
from ..figure.table_figure import table_figure_of, table_stages
from ..view.tree_table import (
    default_columns,
    figure_rows,
    first_sort,
    share_totals,
    tree_frame,
    tree_rows,
)
from .owned import OwnedPart
from .pane_rows import as_json, check_node, merged_rows, pick_ids, request, tops, where_of
from .part import Message, handles

if TYPE_CHECKING:
    import pandas as pd


class TablePane(OwnedPart):
    """The table pane's part of a view: its rows, and the view's ``callers``/``callees``."""

    # -- Python --------------------------------------------------------------------------------
    def callers(self, function: str, depth: int | None = None) -> pd.DataFrame:
        """The view's ``callers`` (see ``CCT.callers``)."""
        trees = self._merged()
        return merged_frame(trees, trees.function(function, "callers"), "callers", depth)

    def callees(self, function: str, depth: int | None = None) -> pd.DataFrame:
        """The view's ``callees`` (see ``CCT.callees``)."""
        trees = self._merged()
        return merged_frame(trees, trees.function(function, "callees"), "callees", depth)

    @t.validate("sandwich")
    def _valid_sandwich(self, proposal: t.Bunch) -> str:
        name = proposal["value"]
        if name and name not in self._function_names():
            close = difflib.get_close_matches(name, self._function_names(), n=3)
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            raise t.TraitError(f"sandwich: no function named {name!r} in this profile{hint}")
        return str(name)

    @t.observe("sandwich")
    def _show_sandwich(self, change: t.Bunch) -> None:
        if change["new"] and self.view.table_mode != "sandwich":
            self.view.table_mode = "sandwich"

    @t.observe("table_mode")
    def _sandwich_of_selection(self, change: t.Bunch) -> None:
        # the sandwich with no function named shows the selected node's function
        if change["new"] == "sandwich" and not self.view.sandwich and self.view.selection:
            # a loop's or a line's function
            owner = int(lexical(self.view._table).owner[self.view.selection[0]])
            self.view.sandwich = function_names(self.view._table)[
                int(self.view._table.name_code[owner])
            ]

    def _function_names(self) -> list[str]:
        """The names of the functions (not of HPCToolkit's loops and lines)."""
        table = self.view._table
        codes = np.unique(table.name_code[~lexical(table).part])
        names = function_names(table)
        return list(dict.fromkeys(names[c] for c in codes.tolist()))

    # -- the scope ------------------------------------------------------------------------------
    def _scope(self) -> np.ndarray | None:
        """The nodes the pane takes into account: the focused subtree, the visible roots' trees."""
        table = self.view._table
        if self.view.focused is None and self.view.visible_roots is None:
            return None
        scope = np.zeros(table.size, dtype=bool)
        starts = (
            [self.view.focused]
            if self.view.focused is not None
            else list(self.view.visible_roots or ())
        )
        trees = self._merged_cache(None)
        for start in starts:
            scope[start : trees.end[start] + 1] = True
        return scope

    def _merged_cache(self, key: Any) -> MergedTrees:
        """The merged trees of the current table within scope ``key`` (None: the whole tree);
        kept until the table changes (``WidgetPart._use``)."""
        cache = self.view._derived.merged
        if key not in cache:
            if len(cache) > 4:
                cache.clear()
            scope = None if key is None else self._scope()
            cache[key] = MergedTrees(self.view._table, scope)
        return cache[key]

    def _merged(self) -> MergedTrees:
        key = (
            None
            if self.view.focused is None and self.view.visible_roots is None
            else (
                self.view.focused,
                self.view.visible_roots,
            )
        )
        return self._merged_cache(key)

    def _where(self, ids: np.ndarray) -> list[str | None]:
        """Where each node's code is: its module (or file) without the directories, from the
        node's first dataframe row; None where the profile does not say."""
        derived = self.view._derived
        if not derived.where_read:
            derived.where, derived.where_read = where_of(self.view._table, self.view._data), True
        where = derived.where
        if where is None:
            return [None] * len(ids)
        return [where[int(i)] for i in ids]

    # -- the columns -----------------------------------------------------------------------------
    def columns(self) -> list[str]:
        """The view's ``table_columns`` (see ``CCT.table_columns``)."""
        view = self.view
        chosen = [m for m in view.table_metrics if m in view._table.metrics]
        return chosen or default_columns(view._table, view.color_by, view.size_by)

    @t.observe("_payload")
    def _keep_known_columns(self, _change: t.Bunch) -> None:
        # a new table (other data, another size reducer) may lack a chosen metric: it goes
        view = self.view
        kept = tuple(m for m in view.table_metrics if m in view._table.metrics)
        if kept != view.table_metrics:
            view.table_metrics = kept

    def table_frame(self) -> pd.DataFrame:
        """The view's ``table_frame`` (see ``CCT.table_frame``)."""
        table, columns = self.view._table, self.columns()
        trees = self._merged()
        whole = bool(trees.scope.all())
        top = np.flatnonzero(table.parent < 0) if whole else tops(trees)
        first = first_sort(table, columns, tree=True)
        sort_by = columns[first] if first >= 0 else None
        ids, depths = tree_rows(table, top, None if whole else trees.scope, sort_by)
        return tree_frame(table, ids, depths, columns)

    def table_figure(
        self, path: str | pathlib.Path | None, rows: Any, **options: Any
    ) -> pathlib.Path | str:
        """The view's ``table_figure`` (see ``CCT.table_figure``)."""
        if path is not None:
            figure_format(path)  # a bad extension fails before any drawing
        view = self.view
        frame = self.table_frame()
        frame = frame.loc[figure_rows(view._table, frame, rows)]
        record = provenance.record(
            source=text_option("source", view.source),
            nodes=view._table.size,
            color_by=view.color_by,
            size_by=view.size_by,
            units=dict(view.units),
            reducer=view._table.reducer,
            view_state=view.view_state,
            ensemble=view._ensemble_record(),
        )
        options["units"] = {**view.units, **(options.get("units") or {})}
        name = "the tree-table" if path is None else pathlib.Path(path).name
        with progress.work(f"drawing {name}", table_stages(path)):
            figure = table_figure_of(frame, record, **options)
            return figure.svg if path is None else figure.write(path)

    # -- requests ------------------------------------------------------------------------------
    @handles("rows")
    def _rows_request(self, content: Message) -> dict[str, Any]:
        return {"rows": self._rows(content)}

    @handles("locate")
    def _locate_request(self, content: Message) -> dict[str, Any]:
        return {"located": self._locate(content)}

    @handles("pick")
    def _pick_request(self, content: Message) -> dict[str, Any]:
        """Select the node ids a row stands for."""
        ids = self._pick_ids(content)
        kept = list(self.view.selection) if content.get("add") else []
        self.view.selection = tuple(dict.fromkeys([*kept, *ids]))
        if content.get("mode") in ("contexts", "changes") and len(ids) == 1:
            self._show_picked(ids[0])
        return {"picked": len(ids)}

    def _show_picked(self, node: int) -> None:
        """A node picked in the table is shown in the tree, as a search step shows its match:
        loaded under level of detail, its collapsed ancestors opened, the view brought to it."""
        from .search import SHOW_MATCH

        self.view._reveal([node])
        self.view.collapsed = self.view._search._open_ancestors([node])
        self.view.send({"type": SHOW_MATCH, "node": node})

    def _rows(self, content: Message) -> dict[str, Any]:
        req = request(content)
        columns = self.columns()
        table, trees = self.view._table, self._merged()
        shares = {
            "totals": share_totals(table, columns),
            "kinds": [table.metrics[c].kind for c in columns],
        }
        if req.mode == "contexts":
            if req.node is None:
                ids = np.flatnonzero(table.parent < 0) if trees.scope.all() else tops(trees)
            else:
                check_node(table, req.node)
                start, count = trees.child_start[req.node], trees.child_count[req.node]
                ids = trees.child_order[start : start + count]
            return {
                "columns": columns,
                **shares,
                "where": self._where(ids),
                "label": [table.name(int(i)) for i in ids],
                "values": [as_json(table.metrics[c].values[ids]) for c in columns],
                "count": [1] * len(ids),
                "node": ids.tolist(),
                "more": (trees.child_count[ids] > 0).tolist(),
                "part": [False] * len(ids),
            }
        out: dict[str, Any] = {"columns": columns, **shares, "values": [[] for _ in columns]}
        for key in ("where", "label", "count", "node", "more", "part"):
            out[key] = []
        for rows in merged_rows(trees, req, content.get("itself") is True):
            level = rows.level
            _, first = np.unique(level.row, return_index=True)
            out["where"] += self._where(level.at[first])
            out["label"] += [trees.names[c] for c in level.name]
            for i, c in enumerate(columns):
                out["values"][i] += as_json(trees.values(level, c))
            out["count"] += trees.contexts(level).tolist()
            out["node"] += [-1] * level.size
            out["more"] += rows.more.tolist()
            out["part"] += [rows.part] * level.size
        return out

    def _pick_ids(self, content: dict[str, Any]) -> list[int]:
        """The node ids a row stands for: its context, or the contexts it merges."""
        req = request(content)
        if req.mode == "contexts":
            if req.node is None:
                raise ValueError("pick in the contexts table needs a node id")
            check_node(self.view._table, req.node)
            return [req.node]
        return pick_ids(self._merged(), req)

    def _locate(self, content: dict[str, Any]) -> dict[str, Any]:
        """For nodes the tree selected: their names and their paths of ids from their root."""
        ids = content.get("nodes")
        if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
            raise ValueError(f"locate needs a list of node ids; got {ids!r}")
        table = self.view._table
        paths = []
        for i in ids[:100]:
            check_node(table, i)
            chain = []
            j = i
            while j >= 0:
                chain.append(j)
                j = int(table.parent[j])
            paths.append(chain[::-1])
        # the function each is a context of, as the functions' rows name it
        names = function_names(table)
        return {"names": [names[table.name_code[i]] for i in ids[:100]], "paths": paths}

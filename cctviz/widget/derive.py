"""Derived metrics of a view (``CCT.derive``, the ``derived`` trait): metrics computed per node by
an expression over the table's other metrics (:mod:`cctviz.analysis.derive`).

The ``derived`` trait holds the definitions (name → expression and kind), so that saved view
state carries them; the table holds their values as ordinary metrics (menus, ``color_by``,
``node_frame``, the table pane, figures). Every new table — another reducer, other data, an
ensemble's changes — goes through the view's ``_use``, which computes them again from its values
(``WidgetPart._derivations``); this part checks the trait and sends the table when it changes.
"""

from __future__ import annotations

from typing import Any

import traitlets as t

from ..analysis import derive
from . import view_units
from .owned import OwnedPart


class Derivations(OwnedPart):
    """The derived metrics' part of a view (see the module's doc)."""

    def derive(
        self, name: str, expression: str | None, kind: str = "ratio", unit: str | None = None
    ) -> None:
        """``CCT.derive``: add, replace or (``expression=None``) remove one definition."""
        current = dict(self.view.derived)
        if expression is not None:
            given = {} if unit is None else {"unit": unit}
            current[name] = {"expression": expression, "kind": kind, **given}
        elif name not in current:
            listed = ", ".join(map(repr, current)) or "none"
            raise KeyError(f"no derived metric {name!r} to remove; derived metrics: {listed}")
        else:
            del current[name]
            users = [n for n, d in derive.parsed(current).items() if name in d.inputs]
            if users:
                raise ValueError(
                    f"derived metric {name!r} is an input of {', '.join(map(repr, users))}: "
                    "remove those first"
                )
        self.view.derived = current

    def _columns(self) -> dict[str, bool]:
        """The dataframe's columns (name → numeric), for errors naming one that is no metric."""
        dtypes = getattr(getattr(self.view._data, "dataframe", None), "dtypes", None)
        if dtypes is None:
            return {}
        return {str(c): dt.kind in "biuf" for c, dt in dtypes.items()}

    def first(self, value: Any) -> dict[str, dict[str, str]]:
        """``CCT(data, derived=...)``: checked and computed before the traits that may name them
        (``color_by``) are set; returns the trait's value."""
        view = self.view
        definitions = derive.check(value or {}, view._table, self._columns())
        if definitions:
            view._derivations = definitions
            view._use(view._data, view._table)
        return {name: d.as_json() for name, d in definitions.items()}

    @t.validate("derived")
    def _valid(self, proposal: t.Bunch) -> dict[str, dict[str, str]]:
        definitions = derive.check(proposal["value"], self.view._table, self._columns())
        return {name: d.as_json() for name, d in definitions.items()}

    @t.observe("derived")
    def _derive_again(self, change: t.Bunch) -> None:
        view = self.view
        held = {name: d.as_json() for name, d in view._derivations.items()}

        def computed() -> Any:  # the table, its derived metrics computed again by `_use`
            view._derivations = derive.parsed(change["new"])
            return view._table

        # unchanged: set by `first` or by `_use` (the table holds them already)
        if not view._values_again(held, change["new"], computed):
            return
        with view.hold_sync(), view.hold_trait_notifications():
            colour, size = view._default_metrics()
            if view.color_by not in view._table.metrics:  # a derived metric removed
                view.color_by = colour
            if view.size_by not in view._table.metrics:
                view.size_by = size
            view_units.derived_again(view)
            view._payload = view._encode()

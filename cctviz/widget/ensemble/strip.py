"""The strip of an ensemble's view, a part it owns (``owned.py``): the profile strip beside the tree
(one point per profile, axes ``strip_x`` and ``strip_y``: ``cctviz.widget.ensemble.strip_payload``),
``where`` (a SQL condition on the profiles' metadata that brushing the strip sets; Python's alone:
the page sends a brush's numbers, never SQL) and the tree reduced again over the profiles that pass
it, ``profiles_selected``; a node's values over the profiles for its tooltip."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
import traitlets as t

from ..owned import OwnedPart
from ..part import Message, handles

if TYPE_CHECKING:  # cctviz.ensemble needs the ensemble extra (pyarrow, DuckDB): imported late
    from ...ensemble.ensemble import Ensemble
    from ..cct import CCT
    from .strip_payload import Axis


class Strip(OwnedPart):
    """The strip of an ensemble's view: ``where``, the strip and what they select."""

    _brush: dict[str, Any] | None = None
    """The strip's brushed ranges that made ``where`` (None: ``where`` came from Python)."""
    _brushed_where: str | None = None
    """The condition ``_brush`` made: a ``where`` other than it (set from Python) drops the
    brush, the same one (set by the brush's message) keeps it."""
    _drawing = True
    """False while both axes are set: the strip is drawn once, after."""
    _axes: list[Axis]
    """The axes the strip offers, for the ensemble shown."""

    def __init__(self, view: CCT, ensemble: Ensemble) -> None:
        super().__init__(view)
        from . import strip_payload as st

        self.ensemble = ensemble
        self._axes = st.axes(ensemble)

    def first(self) -> None:
        """The strip's default axes and its first points (after the view's traits exist)."""
        from . import strip_payload as st

        x, y = st.default_axes(self.ensemble, self._axes, self.view.color_by)
        self._drawing = False  # both axes first, then one strip
        try:
            self.view.strip_x, self.view.strip_y = x, y
        finally:
            self._drawing = True
        self._draw_strip()

    # -- what the user reads -----------------------------------------------------------------
    @property
    def profiles_selected(self) -> pd.DataFrame:
        """The view's ``profiles_selected`` (see ``CCT.profiles_selected``)."""
        return self.view._data.profiles

    # -- where ---------------------------------------------------------------------------------
    @t.validate("where")
    def _valid_where(self, proposal: t.Bunch) -> str:
        where = str(proposal["value"]).strip()
        if not where:
            return ""
        from ...ensemble.engine.where import WhereError

        sub = self.ensemble.where(where)  # a WhereError (a ValueError) when it does not run
        if not len(sub):
            raise WhereError(
                f"no profile passes {where!r}: the view is unchanged ({len(self.ensemble)} "
                "profiles; w.strip_x and the strip show their values)"
            )
        return where

    @t.observe("where")
    def _reduce_where(self, change: t.Bunch) -> None:
        # from a brush, the strip draws it again; from Python, it shows which profiles pass
        if change["new"] != self._brushed_where:
            self._brush = self._brushed_where = None
        data = self.ensemble.where(change["new"]) if change["new"] else self.ensemble
        self.view._swap(data)
        self._draw_strip()

    # -- the strip -----------------------------------------------------------------------------
    @t.validate("strip_x", "strip_y")
    def _valid_axis(self, proposal: t.Bunch) -> str:
        name = str(proposal["value"])
        from . import strip_payload as st

        try:
            st.find_axis(self._axes, name)
        except KeyError as error:
            raise t.TraitError(error.args[0]) from None
        return name

    @t.observe("strip_x", "strip_y")
    def _new_axes(self, _change: t.Bunch) -> None:
        # ranges of other axes: where stays, the strip shows who passes
        self._brush = self._brushed_where = None
        self._draw_strip()

    def _draw_strip(self) -> None:
        ens, options = self.ensemble, self._axes
        if not (self._drawing and self.view.strip_x and self.view.strip_y):
            return
        from . import strip_payload as st

        passing = set(self.view._data.profiles.index) if self.view.where else None
        self.view._strip = st.payload(
            ens,
            options,
            self.view.strip_x,
            self.view.strip_y,
            passing,
            self.view.where,
            self._brush,
        )

    @handles("brush")
    def _brush_request(self, content: Message) -> dict[str, Any]:
        """The user brushed the strip (or cleared the brush): ``where`` from the ranges."""
        from . import strip_payload as st

        brush = st.ranges(content)  # numbers only: the page's text never reaches the SQL
        where = st.condition(self.ensemble, self._axes, self.view.strip_x, self.view.strip_y, brush)
        try:
            self._set_where(where, brush if where else None)
        except ValueError:
            self._draw_strip()  # the strip drops the brush that selected nothing
            raise
        return {"where": self.view.where}

    def _set_where(self, where: str, brush: dict[str, Any] | None) -> None:
        """``where`` from a brush: the brush and the condition it made are kept first, so that
        the observer of ``where`` (``_reduce_where``) knows the brush is its own."""
        old = self.view.where
        previous = self._brush, self._brushed_where
        self._brush, self._brushed_where = brush, (where if brush else None)
        try:
            self.view.where = where
        except BaseException:  # refused: the strip keeps what it showed
            self._brush, self._brushed_where = previous
            raise
        if self.view.where == old:  # the same condition: only the brush drawn changes
            self._draw_strip()

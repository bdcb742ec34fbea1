"""An ensemble's parts of a view: its strip, its changes and its trend pane, made together when
the view's data is a ``cctviz.Ensemble`` and dropped together when it no longer is (a view of one
profile has none of them: ``w._ens`` is None, and what only they take is refused with a reason,
``only_for_ensembles``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import traitlets as t

from .changes import Changes
from .strip import Strip
from .trend import Trend

if TYPE_CHECKING:
    from ...ensemble.ensemble import Ensemble
    from ..cct import CCT
    from ..owned import OwnedPart

SINGLE = "this widget shows a single GraphFrame or Thicket"
FOR_ENSEMBLES = {
    "where": f"where filters the profiles of a cctviz.Ensemble; {SINGLE}",
    "strip_x": "strip_x is for a widget of an Ensemble",
    "strip_y": "strip_y is for a widget of an Ensemble",
    "trend_by": f"trend_by is for a widget of a cctviz.Ensemble; {SINGLE}",
    "table_mode": f"table_mode 'changes' lists the changes along the runs of a cctviz.Ensemble; "
    f"{SINGLE}",
}
"""What a view of one profile says of a value only an ensemble's view takes."""
NO_CHANGES = (
    f"changes are found along the runs of a cctviz.Ensemble; {SINGLE} (compare two with "
    "cctviz.compare)"
)


def only_for_ensembles(name: str, value: object, ensemble: bool) -> str:
    """``value`` of trait ``name`` checked on a view without an ensemble's parts (``ensemble``:
    it has them, and they check the value: only ``table_mode`` is left here)."""
    if name == "table_mode":
        if value == "changes" and not ensemble:
            raise t.TraitError(FOR_ENSEMBLES[name])
        return str(value)
    text = str(value).strip() if name == "where" else str(value)
    if text and not ensemble:
        raise t.TraitError(FOR_ENSEMBLES[name])
    return text


CLASSES = (Strip, Changes, Trend)
"""The classes of an ensemble's parts, in the order they react to a trait they share."""


@dataclass(frozen=True)
class EnsembleParts:
    """The parts of an ensemble's view, bound to it."""

    strip: Strip
    changes: Changes
    trend: Trend

    @classmethod
    def of(cls, view: CCT, ensemble: Ensemble) -> EnsembleParts:
        """The parts of ``view`` for ``ensemble``, bound (they observe and check its traits)."""
        parts = cls(Strip(view, ensemble), Changes(view, ensemble), Trend(view, ensemble))
        for part in parts.all():
            part.bind()
        return parts

    def all(self) -> tuple[OwnedPart, ...]:
        return (self.strip, self.changes, self.trend)

    def first(self) -> None:
        """The strip's first points, then the trend pane's first series (after the view's
        traits exist)."""
        self.strip.first()
        self.trend.first()

    def drop(self) -> None:
        """Unbind every part: the view reacts as a view of one profile again."""
        for part in self.all():
            part.unbind()

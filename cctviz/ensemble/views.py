"""What an ensemble is turned into, beside its statistics: a node's trend along the runs, the
changes of level (regressions, their report, the compare view that explains one), one run as a
GraphFrame, a small subset as a Thicket, the reduced tree as a GraphFrame. Each method of
``Views`` is a thin door to the module that does the work; ``cctviz.Ensemble`` has them."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import pandas as pd


class Views:
    """The ensemble's derived views (mixed into ``cctviz.Ensemble``)."""

    if TYPE_CHECKING:  # what they use of cctviz.Ensemble
        profiles: pd.DataFrame

        def where(self, condition: str) -> Any: ...

        def select(self, profiles: Any) -> Any: ...

    def trend(
        self,
        node: Any,
        metric: str,
        by: str | None = None,
        reducer: str = "mean",
        *,
        children: bool = False,
    ) -> pd.DataFrame:
        """``metric`` at ``node`` (a key, a path or a unique name) against the metadata column
        ``by`` (default: the launch date, else the run): one row per value of ``by``, the
        profiles sharing it combined with ``reducer``; with ``children=True`` the node's children
        follow, each a series of its own (column ``key``, ``path``, ``name``)."""
        from .trend import trend

        return trend(self, node, metric, by, reducer, children)

    def regressions(
        self,
        metric: str,
        by: str | None = None,
        min_change: float = 0.05,
        *,
        min_score: float = 6.0,
    ) -> pd.DataFrame:
        """The changes of level of ``metric`` along ``by`` (default: the launch date), one row
        per (node, change), largest effect first: ``key``, ``path``, ``at`` (the value of ``by``
        where the new level starts), ``profile`` (the first profile there), ``before``,
        ``after``, ``change`` (after ÷ before − 1), ``score`` (standard errors) and ``cause``
        ("exclusive": the node's own value changed; "inclusive only": its descendants'). The
        method is in cctviz.ensemble.changes. Runs that differ in configuration (job sizes,
        problem sizes, compilers: cctviz.ensemble.configs) give a ``ConfigurationWarning``."""
        from . import configs
        from .changes import regressions
        from .trend import check_axis

        profiles = self.profiles
        axis = check_axis(profiles, by)
        said = configs.sentence(configs.varying(profiles, axis), axis)
        if said:
            warnings.warn(said[0].upper() + said[1:] + ".", configs.ConfigurationWarning, 2)
        return regressions(self, metric, by, min_change, min_score)

    def report(
        self, metric: str, by: str | None = None, min_change: float = 0.05, top: int = 10
    ) -> str:
        """The changes ``regressions`` finds, as Markdown: largest first, each with its call path,
        the run where it happened (with its metadata), before and after, and the share of the
        total it explains."""
        from ..markdown import Markdown
        from .report import report

        return Markdown(report(self, metric, by, min_change, top))

    def explain(self, change: Any, by: str | None = None) -> Any:
        """The compare view (``cctviz.compare``) of the run just before ``change`` (a row of
        ``regressions``) and the run where it starts, aligned by call path, with the changed node
        selected and focused."""
        from .explain import explain

        return explain(self, change, by)

    def at(self, profile: str) -> Any:
        """One profile of the store (its id, see ``profiles``) as a Hatchet GraphFrame."""
        if not isinstance(profile, str) or profile not in self.profiles.index:
            raise KeyError(f"no profile {profile!r} in {self!r}")
        return self.select([profile]).to_graphframe("mean")

    def to_thicket(self, where: str | None = None) -> Any:
        """The selected profiles (and ``where``, a further filter) as a Thicket, so that
        Thicket's stats, query language and plots work on them: meant for a small subset."""
        from .thicket import to_thicket

        return to_thicket(self.where(where) if where else self)

    def to_graphframe(self, reducer: str = "mean") -> Any:
        """The reduced tree as a Hatchet GraphFrame: every measured metric reduced over the
        selected profiles with ``reducer``, and ``profiles`` (how many hold each node). What
        ``cctviz.CCT(ens)`` draws."""
        from .graphframe import to_graphframe

        return to_graphframe(self, reducer)

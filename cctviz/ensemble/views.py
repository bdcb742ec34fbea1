"""What an ensemble is turned into, beside its statistics: a node's trend along the runs, the
changes of level (regressions, their report, the compare view that explains one), one run as a
GraphFrame, a small subset as a Thicket, the reduced tree as a GraphFrame. Each method of
``Views`` is a thin door to the module that does the work; ``cctviz.Ensemble`` has them."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import pandas as pd

if TYPE_CHECKING:
    from .ensemble import Ensemble


class Views:
    """The ensemble's derived views (mixed into ``cctviz.Ensemble``)."""

    _configuration: list[str] | None = None  # set by the user (see configuration)

    @property
    def _ensemble(self) -> Ensemble:
        """This ensemble, as its type (``Views`` is mixed into ``cctviz.Ensemble`` only)."""
        return cast("Ensemble", self)

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
        from .analysis.trend import trend

        return trend(self._ensemble, node, metric, by, reducer, children)

    @property
    def configuration(self) -> list[str]:
        """The metadata columns whose values make runs of different configurations (job size,
        problem size, compiler …): ``regressions`` looks for changes within each configuration's
        own runs, never across a switch of configuration. Detected from the metadata of the
        selected profiles (the rule is in cctviz.ensemble.analysis.configs) unless set:
        ``ens.configuration = ["jobsize", "compiler"]`` (``[]``: all runs are one series; ``None``:
        detect again). Sub-ensembles (``where``, ``select``) keep what was set."""
        from .analysis import configs
        from .analysis.trend import check_axis

        named = getattr(self, "_configuration", None)
        if named is not None:
            return list(named)
        return configs.detect(self.profiles, check_axis(self.profiles, None))

    @configuration.setter
    def configuration(self, columns: Sequence[str] | None) -> None:
        from .analysis import configs

        self._configuration = configs.check_named(self.profiles, columns)

    def regressions(
        self,
        metric: str,
        by: str | None = None,
        min_change: float = 0.05,
        *,
        fdr: float = 0.05,
        across: Sequence[str] = (),
        min_score: float = 0.0,
    ) -> pd.DataFrame:
        """The changes of level of ``metric`` along ``by`` (default: the launch date) within each
        configuration (``configuration``), one row per (node, configuration, change), largest
        effect first: ``key``, ``path``, ``at`` (the value of ``by`` where the new level starts),
        ``profile`` (the first run there), ``before``, ``after`` (medians of the runs before and
        after), ``change`` (after ÷ before − 1), ``score`` (standard errors), ``cause``
        ("exclusive": the node's own value changed; "inclusive only": its descendants'),
        ``config`` (the configuration's values), ``previous`` (the last run before),
        ``runs_before``, ``runs_after``, ``p`` and ``q`` (the test's p-value and its
        Benjamini–Hochberg adjusted value) and ``environment`` (the metadata that differs
        between the runs before and after, best separators first: "compiler_version: 12 → 13").

        Only changes that pass at false discovery rate ``fdr`` over every node and configuration
        screened, and move the level by ``min_change`` or more, are kept. ``across``: columns
        whose values are not split on but scaled to a common level per node, so one series runs
        across them (e.g. ``across=["compiler"]`` for a change that hit every compiler). The
        method is in cctviz.ensemble.analysis.changes and cctviz.ensemble.analysis.segments."""
        from .analysis import configs
        from .analysis.changes import configuration, regressions
        from .analysis.trend import check_axis

        axis = check_axis(self.profiles, by)
        found = regressions(self._ensemble, metric, by, min_change, min_score, fdr, across)
        said = configs.too_short(self.profiles, axis, configuration(self._ensemble, axis, across))
        if said:
            warnings.warn(said, configs.ConfigurationWarning, 2)
        return found

    def report(
        self,
        metric: str,
        by: str | None = None,
        min_change: float = 0.05,
        top: int = 10,
        *,
        fdr: float = 0.05,
        across: Sequence[str] = (),
        units: Mapping[str, str] | None = None,
    ) -> str:
        """The changes ``regressions`` finds, as Markdown: largest first, each with its call path,
        its configuration, the run where it happened (with its metadata), before and after, what
        else changed (``environment``) and, for a metric that adds up, the share of its
        configuration's median run total it is. ``units``: metric name → unit (as a view's
        ``units=``, e.g. ``{"time (inc)": "s"}``): before and after print in ``metric``'s with
        one SI prefix (``12.1 ms → 18.2 ms``); a unit that does not parse is a
        ``cctviz.core.units.UnitError`` saying what is accepted."""
        from ..core.markdown import Markdown
        from ..core.units import check
        from .analysis.report import report

        if units is not None and not isinstance(units, Mapping):
            raise TypeError(
                f"units is a mapping of metric name to unit, e.g. {{'time': 's'}}; got "
                f"{type(units).__name__}"
            )
        given = check(units or {}, "units")
        return Markdown(
            report(self._ensemble, metric, by, min_change, top, fdr=fdr, across=across, units=given)
        )

    def explain(self, change: Any, by: str | None = None) -> Any:
        """The compare view (``cctviz.compare``) of the run just before ``change`` (a row of
        ``regressions``) and the run where it starts, aligned by call path, with the changed node
        selected and focused."""
        from .analysis.explain import explain

        return explain(self._ensemble, change, by)

    def at(self, profile: str) -> Any:
        """One profile of the store (its id, see ``profiles``) as a Hatchet GraphFrame."""
        if not isinstance(profile, str) or profile not in self.profiles.index:
            raise KeyError(f"no profile {profile!r} in {self!r}")
        return self.select([profile]).to_graphframe("mean")

    def to_thicket(self, where: str | None = None) -> Any:
        """The selected profiles (and ``where``, a further filter) as a Thicket, so that
        Thicket's stats, query language and plots work on them: meant for a small subset."""
        from .analysis.thicket import to_thicket

        ens = self._ensemble
        return to_thicket(ens.where(where) if where else ens)

    def to_graphframe(self, reducer: str = "mean") -> Any:
        """The reduced tree as a Hatchet GraphFrame: every measured metric reduced over the
        selected profiles with ``reducer``, and ``profiles`` (how many hold each node). What
        ``cctviz.CCT(ens)`` draws."""
        from .analysis.graphframe import to_graphframe

        return to_graphframe(self._ensemble, reducer)

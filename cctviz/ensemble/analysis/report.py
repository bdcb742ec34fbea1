"""Words as well as pictures: the changes of an ensemble as Markdown, for notebooks, reports and
tools that read text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from ...core.markdown import text
from ...core.units import column_texts

if TYPE_CHECKING:
    from ..ensemble import Ensemble

KEEP = ("commit", "version", "compiler", "jobsize", "cluster", "user")  # metadata worth naming
ADDITIVE = ("exclusive", "inclusive")  # kinds whose values add up to a run's total


def _share(ens: Ensemble, metric: str, found: pd.DataFrame) -> Any:
    """Each change's share of its configuration's median run total, when ``metric`` adds up
    (a share of a ratio or a parameter means nothing): None otherwise."""
    kinds = ens.metrics
    if metric not in kinds.index or kinds.loc[metric, "kind"] not in ADDITIVE:
        return None
    kind = kinds.loc[metric, "kind"]
    inclusive = metric if kind == "inclusive" else kinds.loc[metric, "partner"]
    if not isinstance(inclusive, str) or inclusive not in ens.metric_names:
        return None
    totals = ens.totals(inclusive)  # per profile: the roots' inclusive sum
    runs = ens.profiles
    out = []
    for row in found.itertuples():
        same = pd.Series(True, index=runs.index)
        for column, value in row.config.items():
            same &= runs[column] == value if pd.notna(value) else runs[column].isna()
        total = float(totals.reindex(runs.index[same]).median())
        out.append(abs(row.after - row.before) / total if total else float("nan"))
    return out


def report(
    ens: Ensemble, metric: str, by: str | None, min_change: float, top: int, **options: Any
) -> str:
    """Markdown: the changes found, largest first, with path, configuration, run (with its
    metadata), before → after, what else changed, and (for a metric that adds up) the share of the
    configuration's median run total the change is; a note of the configurations looked in.
    Before and after print in ``metric``'s unit (``options["units"]``: metric → unit) with one
    SI prefix."""
    from . import configs
    from .changes import configuration, regressions
    from .trend import axis_text, check_axis

    profiles = ens.profiles
    by = check_axis(profiles, by)
    found = regressions(ens, metric, by, min_change, fdr=options.get("fdr", 0.05),
                        across=options.get("across", ()))  # fmt: skip
    title = f"## Changes of {text(metric)} in {len(ens)} profiles"
    where = f" (where {text(' and '.join(ens.filters))})" if ens.filters else ""
    columns = configuration(ens, by, options.get("across", ()))
    groups = len(profiles.groupby(columns, dropna=False)) if columns else 1
    said = [configs.sentence(columns, by, groups), configs.too_short(profiles, by, columns)]
    notes = [f"**Note**: {text(s)}." for s in said if s]
    note = "".join(f"\n\n{n}" for n in notes)
    if found.empty:
        return f"{title}{where}\n\nNo change of {min_change:.0%} or more was found.{note}"
    own = found[found["cause"] != "inclusive only"]
    if (found["cause"] == "unknown").any():
        lead = (
            f"{len(found)} change(s) of {min_change:.0%} or more; whether a node's own value or "
            "only its callees' changed cannot be told (the store has no exclusive partner of "
            f"{text(metric)}): each node's change holds its callees'; largest first:"
        )
    else:
        lead = (
            f"{len(own)} change(s) of {min_change:.0%} or more at the node that caused them "
            f"({len(found) - len(own)} more at their ancestors, inclusive only); largest first:"
        )
    lines = [f"{title}{where}", "", lead, ""]
    lines[2:2] = [line for n in notes for line in (n, "")]
    shown = own.head(top)
    shares = _share(ens, metric, shown)
    named_columns = [c for c in KEEP if c not in columns]
    unit = (options.get("units") or {}).get(metric)
    for i, row in enumerate(shown.itertuples()):
        meta = (
            profiles.loc[row.profile] if row.profile in profiles.index else pd.Series(dtype=object)
        )
        named = ", ".join(
            f"{k} {text(meta[k])}" for k in named_columns if k in meta and pd.notna(meta[k])
        )
        config = f" in {text(configs.label(row.config))}" if row.config else ""
        since = f"; since {text('; '.join(row.environment))}" if row.environment else ""
        share = "" if shares is None else f"; {shares[i]:.1%} of its configuration's median run"
        before, after = column_texts([row.before, row.after], unit)
        lines.append(
            f"{i + 1}. **{' → '.join(text(n) for n in row.path)}**{config}: "
            f"{before} → {after} ({row.change:+.1%}) from {text(by)} "
            f"{text(axis_text(row.at))} (profile {text(row.profile)}"
            f"{', ' + named if named else ''}){since}{share}; score {row.score:.0f}, "
            f"q {row.q:.2g}."
        )
    if len(own) > top:
        lines.append(f"\n… and {len(own) - top} more (`ens.regressions(...)` lists them all).")
    return "\n".join(lines)

"""Words as well as pictures: the changes of an ensemble as Markdown, for notebooks, reports and
tools that read text."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..markdown import text

KEEP = ("commit", "version", "compiler", "jobsize", "cluster", "user")  # metadata worth naming


def _value(v: float) -> str:
    return f"{v:.4g}"


def report(ens: Any, metric: str, by: str | None, min_change: float, top: int) -> str:
    """Markdown: the changes found, largest first, with path, run, before → after and the share
    of the total the change explains."""
    from .trend import axis_text, check_axis

    by = check_axis(ens.profiles, by)
    found = ens.regressions(metric, by, min_change)
    title = f"## Changes of {text(metric)} in {len(ens)} profiles"
    where = f" (where {text(' and '.join(ens.filters))})" if ens.filters else ""
    if found.empty:
        return f"{title}{where}\n\nNo change of {min_change:.0%} or more was found."
    roots = ens.reduce(metric, ("median",))
    total = float(roots.loc[roots["parent"] == 0, "median"].sum())
    profiles = ens.profiles
    own = found[found["cause"] != "inclusive only"]
    lines = [
        f"{title}{where}",
        "",
        f"{len(own)} change(s) of {min_change:.0%} or more at the node that caused them "
        f"({len(found) - len(own)} more at their ancestors, inclusive only); largest first:",
        "",
    ]
    for i, row in enumerate(own.head(top).itertuples(), 1):
        meta = (
            profiles.loc[row.profile] if row.profile in profiles.index else pd.Series(dtype=object)
        )
        named = ", ".join(f"{k} {text(meta[k])}" for k in KEEP if k in meta and pd.notna(meta[k]))
        share = abs(row.after - row.before) / total if total else np.nan
        lines.append(
            f"{i}. **{' → '.join(text(n) for n in row.path)}**: {_value(row.before)} → "
            f"{_value(row.after)} ({row.change:+.1%}) from {text(by)} {text(axis_text(row.at))} "
            f"(profile {text(row.profile)}"
            f"{', ' + named if named else ''}); {share:.1%} of the total; score {row.score:.0f}."
        )
    if len(own) > top:
        lines.append(f"\n… and {len(own) - top} more (`ens.regressions(...)` lists them all).")
    return "\n".join(lines)

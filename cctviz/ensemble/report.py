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
    """Markdown: the changes found, largest first, with path, run (with its metadata and the
    configuration columns that vary), before → after and the share of the median run's total the
    change is; a caution where the runs differ in configuration."""
    from . import configs
    from .changes import regressions
    from .trend import axis_text, check_axis

    profiles = ens.profiles
    by = check_axis(profiles, by)
    found = regressions(ens, metric, by, min_change)
    title = f"## Changes of {text(metric)} in {len(ens)} profiles"
    where = f" (where {text(' and '.join(ens.filters))})" if ens.filters else ""
    varying = configs.varying(profiles, by)  # read once: the caution and each run's columns
    mixed = configs.sentence(varying, by)
    caution = f"\n\n**Caution**: {text(mixed)}." if mixed else ""
    if found.empty:
        return f"{title}{where}\n\nNo change of {min_change:.0%} or more was found.{caution}"
    roots = ens.reduce(metric, ("median",))
    total = float(roots.loc[roots["parent"] == 0, "median"].sum())
    own = found[found["cause"] != "inclusive only"]
    if (found["cause"] == "unknown").any():
        said = (
            f"{len(found)} change(s) of {min_change:.0%} or more; whether a node's own value or "
            "only its callees' changed cannot be told (the store has no exclusive partner of "
            f"{text(metric)}): each node's change holds its callees'; largest first:"
        )
    else:
        said = (
            f"{len(own)} change(s) of {min_change:.0%} or more at the node that caused them "
            f"({len(found) - len(own)} more at their ancestors, inclusive only); largest first:"
        )
    lines = [f"{title}{where}", "", said, ""]
    if caution:
        lines[2:2] = [caution.strip(), ""]
    named_columns = [*KEEP, *(c for c in varying if c not in KEEP)]
    for i, row in enumerate(own.head(top).itertuples(), 1):
        meta = (
            profiles.loc[row.profile] if row.profile in profiles.index else pd.Series(dtype=object)
        )
        named = ", ".join(
            f"{k} {text(meta[k])}" for k in named_columns if k in meta and pd.notna(meta[k])
        )
        share = abs(row.after - row.before) / total if total else np.nan
        lines.append(
            f"{i}. **{' → '.join(text(n) for n in row.path)}**: {_value(row.before)} → "
            f"{_value(row.after)} ({row.change:+.1%}) from {text(by)} {text(axis_text(row.at))} "
            f"(profile {text(row.profile)}"
            f"{', ' + named if named else ''}); {share:.1%} of the median run's total; score "
            f"{row.score:.0f}."
        )
    if len(own) > top:
        lines.append(f"\n… and {len(own) - top} more (`ens.regressions(...)` lists them all).")
    return "\n".join(lines)

"""Runs that differ in configuration. A change of level along the runs (``regressions``) means
"the code got slower since run r" only when the runs are of one configuration; a scaling study
(job sizes, problem sizes) or a series that mixes compilers shows levels that differ because the
runs do. These are the metadata columns whose values repeat over the profiles without being one:
between 2 and a third as many distinct values as profiles (a commit, a date or a host per run has
about as many as there are runs, a constant has one). ``regressions`` warns of them, ``report``
and the widget's Changes tab say them."""

from __future__ import annotations

import pandas as pd

from .profile import RESERVED
from .trend import TIME_AXES

MIN_PROFILES = 6  # fewer: no column can be told to be a configuration


class ConfigurationWarning(UserWarning):
    """The runs along the axis differ in configuration."""


def varying(profiles: pd.DataFrame, by: str) -> dict[str, str]:
    """Configuration columns that vary over ``profiles`` (not ``by``): each with its range (a
    number) or its number of values."""
    n = len(profiles)
    out: dict[str, str] = {}
    if n < MIN_PROFILES:
        return out
    for column in profiles.columns:
        name = str(column)
        if name == by or name in RESERVED or name in TIME_AXES:
            continue
        values = profiles[column].dropna()
        try:
            distinct = values.nunique()
        except TypeError:  # lists and other unhashable values: not a configuration
            continue
        if not 2 <= distinct <= max(2, n // 3):
            continue
        if pd.api.types.is_numeric_dtype(values):
            out[name] = f"{values.min():g}–{values.max():g}"
        else:
            out[name] = f"{distinct} values"
    return out


def sentence(columns: dict[str, str], by: str) -> str:
    """The warning in words ('' when the runs are of one configuration)."""
    if not columns:
        return ""
    listed = ", ".join(f"{name} ({what})" for name, what in columns.items())
    return (
        f"these runs differ in {listed}: a change along {by} may come from the configuration, "
        "not from the code; set where= to one configuration (or brush the strip)"
    )

"""Configurations: the runs that belong to one series. A change of level along the runs
(``regressions``) means "the code got slower since run r" only when the runs compared are of one
configuration; a scaling study (job sizes, problem sizes) or a series that alternates compilers
shows levels that differ because the runs do.

A **configuration column** is a metadata column whose values repeat over the profiles without
being one per run (between 2 and a third as many distinct values as profiles: a commit, a date or
a host per run has about as many as there are runs, a constant has one) and that either

- **recurs** along the axis: some value comes back after another one (a job size swept again
  and again, compilers that alternate night after night); or
- is the **outer loop of a sweep**: the runs were launched one configuration after another (the
  recurring columns' combined value stays for ``SWEEP_BLOCK`` runs or more at a time, as the
  median) and the column changes only where they change too (the problem size of a study that
  sweeps job sizes per problem size).

Columns named for where or by whom a run ran, or which code it ran (host, node, user, commit,
hash, path, job id: ``ENVIRONMENT``) are never detected as configurations: a nightly series run on
whichever nodes are free is one series. These and any other column that varies (a compiler
version that changes once and stays, a module) are the **environment** a change can come with;
``regressions`` names the environment that differs around each change. Detection is a best guess
from the metadata alone; ``ens.configuration = [...]`` says which columns are configurations."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..store.profile import RESERVED
from .trend import TIME_AXES

MIN_PROFILES = 6  # fewer: no column can be told to be a configuration
SWEEP_BLOCK = 3  # runs a sweep keeps one configuration for (the median block): random draws, 1–2
ENVIRONMENT = re.compile(
    r"(host|node|user|commit|hash|git|path|dir|cwd|pid|job[._ ]?id|slurm|date|time)", re.I
)


class ConfigurationWarning(UserWarning):
    """The runs along the axis differ in configuration."""


def _codes(values: pd.Series) -> np.ndarray:
    """Each value's code (missing values are a value of their own)."""
    return np.asarray(pd.factorize(values, use_na_sentinel=False)[0], np.int64)


def _candidates(profiles: pd.DataFrame, by: str) -> list[str]:
    n = len(profiles)
    if n < MIN_PROFILES:
        return []
    out = []
    for column in profiles.columns:
        name = str(column)
        if name == by or name in RESERVED or name in TIME_AXES:
            continue
        try:
            distinct = profiles[column].dropna().nunique()
        except TypeError:  # lists and other unhashable values: not a configuration
            continue
        if 2 <= distinct <= max(2, n // 3):
            out.append(name)
    return out


def varying(profiles: pd.DataFrame, by: str) -> dict[str, str]:
    """Columns that repeat over ``profiles`` without being one per run (not ``by``), each with
    its range (a number) or its number of values: the configuration columns and the
    environment that varies."""
    out: dict[str, str] = {}
    for name in _candidates(profiles, by):
        values = profiles[name].dropna()
        if pd.api.types.is_numeric_dtype(values):
            out[name] = f"{values.min():g}–{values.max():g}"
        else:
            out[name] = f"{values.nunique()} values"
    return out


def detect(profiles: pd.DataFrame, by: str) -> list[str]:
    """The configuration columns of ``profiles`` ordered along ``by`` (see the module's rule)."""
    names = [n for n in _candidates(profiles, by) if not ENVIRONMENT.search(n)]
    if not names:
        return []
    ordered = profiles.loc[profiles[by].notna()].sort_values(by, kind="stable")
    codes = {name: _codes(ordered[name]) for name in names}
    changes = {name: np.flatnonzero(np.diff(c) != 0) for name, c in codes.items()}
    recurring = [n for n in names if len(changes[n]) + 1 > len(np.unique(codes[n]))]
    if not recurring:
        return []
    combined = np.zeros(len(ordered), np.int64)
    for name in recurring:
        combined = combined * (int(codes[name].max()) + 1) + codes[name]
    inner = np.flatnonzero(np.diff(combined) != 0)
    # configurations launched in blocks (of 3 runs or more, as a rule): not drawn run by run
    blocks = np.diff(np.r_[0, inner + 1, len(ordered)])
    swept = float(np.median(blocks)) >= SWEEP_BLOCK
    outer = [n for n in names if n not in recurring and swept and np.isin(changes[n], inner).all()]
    return [n for n in names if n in recurring or n in outer]


def check_named(profiles: pd.DataFrame, named: Sequence[str] | None) -> list[str] | None:
    """``ens.configuration = named``: metadata column names (or None: detect them)."""
    if named is None:
        return None
    if isinstance(named, str):
        named = [named]
    if not isinstance(named, (list, tuple)):
        raise TypeError(
            f"configuration takes a list of metadata column names (or None); got {named!r:.120}"
        )
    names = list(named)
    if not all(isinstance(n, str) for n in names):
        raise TypeError(f"configuration takes metadata column names; got {names!r:.120}")
    for name in names:
        if name in RESERVED or name not in profiles.columns:
            raise KeyError(
                f"no metadata column {name!r} to group runs by; columns: "
                f"{', '.join(str(c) for c in profiles.columns if c not in RESERVED)}"
            )
    return list(dict.fromkeys(names))


def label(config: dict[str, Any]) -> str:
    """A configuration in words: ``jobsize 64, compiler gcc`` ('' for all runs)."""
    return ", ".join(f"{k} {_plain(v)}" for k, v in config.items())


def _plain(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def too_short(profiles: pd.DataFrame, by: str, columns: list[str]) -> str:
    """The warning when no configuration has the runs to tell a change ('' when one has)."""
    from .segments import MIN_SEGMENT

    held = profiles.loc[profiles[by].notna()]
    sizes = held.groupby(columns, dropna=False)[by].nunique() if columns else [held[by].nunique()]
    longest = int(max(sizes, default=0))
    if longest >= 2 * MIN_SEGMENT:
        return ""
    split = f"; split by {', '.join(columns)}" if columns else ""
    return (
        f"no configuration has the {2 * MIN_SEGMENT} values of {by} a change needs (at most "
        f"{longest}{split}): no change can be found; set ens.configuration (or across=) if "
        "these runs are one series"
    )


def sentence(columns: list[str], by: str, groups: int) -> str:
    """What the view and the report say when the runs shown are of several configurations: the
    changes were looked for within each ('' when the runs are of one)."""
    if not columns or groups < 2:
        return ""
    return (
        f"these runs are {groups} configurations ({', '.join(columns)}): changes along {by} are "
        "looked for within each configuration's own runs, never across a switch of configuration"
    )

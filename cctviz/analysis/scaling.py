"""Scaling studies: how many processes each run had, whether the series is strong scaling (the
same total problem on more processes) or weak scaling (the same problem per process), and the
parallel efficiency that follows; also which metric of a Caliper profile is per rank.

The runs' metadata decides where it can: a Thicket's ``metadata`` (its profiles' values, where
they agree within a run) or a GraphFrame's ``metadata`` dict (Caliper/Adiak: ``mpi.world.size``,
``jobsize``, ``problem_size``...). A problem size that shrinks as the process count grows is a size
per process under strong scaling; one that grows with it is a total under weak scaling; one that
stays the same says which only when its name (``local_size``, ``global_size``...) or the program
(LULESH's ``problem_size`` is the edge of each rank's domain, ``-s``) tells. Otherwise the caller
is asked to say ``scaling="strong"`` or ``"weak"``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..adapters.derived import SUFFIX

SCALINGS = ("strong", "weak")

#: Metadata naming the process (MPI rank) count of a run, in the order they are looked for.
RANK_COUNTS = ("mpi.world.size", "jobsize", "mpi.size", "nprocs", "num_procs", "ranks", "nranks")
#: Words in a size's name that say it is per process, or the whole problem.
_PER_RANK = re.compile(r"local|per[ _.-]?(rank|proc|process|task|domain)", re.I)
_TOTAL = re.compile(r"global|total", re.I)
#: Programs whose size metadata is known to be per rank: (executable pattern, column).
_KNOWN_PER_RANK = ((re.compile(r"lulesh", re.I), "problem_size"),)

# Caliper's statistics across ranks: "Avg time/rank" / "Total time" (LLNL's aliases) and
# "avg#inclusive#sum#time.duration" / "sum#…" (UMD's names)
_ALIAS = re.compile(r"^(?:(?:Min|Max|Avg) (?P<q>.+)/rank|Total (?P<t>.+))$")
_STAT = re.compile(r"^(?:min|max|avg|sum)#(?P<q>.+#.+)$")


def summed_over_ranks(metric: str) -> bool:
    """Whether ``metric`` is Caliper's sum over the ranks ("Total time", "sum#…#…"), which grows
    with the process count even where each rank's time does not."""
    base = metric.removesuffix(SUFFIX)
    return base.startswith("Total ") or bool(re.match(r"^sum#.+#", base))


def per_rank_mean(metric: str, kinds: Mapping[str, str]) -> str:
    """The mean over ranks of the quantity ``metric`` is a Caliper statistic of ("Total time" →
    "Avg time/rank", "sum#inclusive#sum#time.duration" → "avg#…"), of the same kind, if the
    profile has it; else ``metric``."""
    derived = metric.endswith(SUFFIX)
    base = metric.removesuffix(SUFFIX)
    alias, stat = _ALIAS.match(base), _STAT.match(base)
    if alias:
        mean = f"Avg {alias.group('q') or alias.group('t')}/rank"
    elif stat:
        mean = f"avg#{stat.group('q')}"
    else:
        return metric
    for name in (mean + SUFFIX if derived else mean, mean, mean + SUFFIX):
        if kinds.get(name) == kinds.get(metric):
            return name
    return metric


def run_metadata(run: Any) -> dict[str, Any]:
    """A run's metadata as scalars: a GraphFrame's dict, or of a Thicket each column whose
    profiles agree (one value); {} without any."""
    meta = getattr(run, "metadata", None)
    if isinstance(meta, Mapping):
        return {str(k): v for k, v in meta.items()}
    if meta is None or not hasattr(meta, "columns"):
        return {}
    out = {}
    for c in meta.columns:
        values = meta[c].dropna().astype(str).unique()
        if len(values) == 1:
            out[str(c)] = meta[c].dropna().iloc[0]
    return out


def _number(value: Any) -> float | None:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) and x > 0 else None


def _column(metas: Sequence[Mapping[str, Any]], names: Sequence[str]) -> tuple[str, list[float]]:
    """The first of ``names`` every run has as a positive number, with the values; ("", [])."""
    for name in names:
        values = [_number(m.get(name)) for m in metas]
        if all(v is not None for v in values):
            return name, [float(v) for v in values if v is not None]
    return "", []


def process_counts(
    metas: Sequence[Mapping[str, Any]], labels: Sequence[str]
) -> tuple[str, list[float]] | None:
    """Each run's process count and where it comes from (a metadata column, or "labels" when the
    labels are numbers and no metadata says), or None: not a scaling study (one count for all,
    or no counts at all)."""
    name, counts = _column(metas, RANK_COUNTS)
    if not counts:
        numbers = [_number(label) for label in labels]
        if any(n is None for n in numbers):
            return None
        name, counts = "labels", [float(n) for n in numbers if n is not None]
    return (name, counts) if len(set(counts)) > 1 else None


def _sizes(metas: Sequence[Mapping[str, Any]]) -> tuple[str, list[float]]:
    """A problem-size column every run has (``problem_size``, ``global_size``…), or ("", [])."""
    names = dict.fromkeys(
        k
        for m in metas
        for k in m
        if "size" in k.lower() and k not in RANK_COUNTS and "world" not in k.lower()
    )
    ordered = sorted(names, key=lambda k: ("problem" not in k.lower(), k))
    return _column(metas, ordered)


def infer_scaling(
    metas: Sequence[Mapping[str, Any]], counts: Sequence[float]
) -> tuple[str | None, str]:
    """("strong" | "weak", why) from the runs' metadata, or (None, what is missing)."""
    name, sizes = _sizes(metas)
    if not sizes:
        return None, "the runs' metadata has no problem size"
    if len(set(sizes)) > 1:
        slope = np.polyfit(np.log(counts), np.log(sizes), 1)[0]
        if slope < 0:
            return "strong", f"{name} shrinks as the process count grows"
        if slope > 0:
            return "weak", f"{name} grows with the process count"
        return None, f"{name} neither grows nor shrinks with the process count"
    if _PER_RANK.search(name):
        return "weak", f"{name} (per process) is the same in every run"
    if _TOTAL.search(name):
        return "strong", f"{name} (the whole problem) is the same in every run"
    program = " ".join(str(m.get(k, "")) for m in metas for k in ("executablepath", "cmdline"))
    for pattern, column in _KNOWN_PER_RANK:
        if name == column and pattern.search(program):
            program = pattern.pattern.upper()
            return "weak", f"{name} (per rank in {program}) is the same in every run"
    return None, f"{name} is {sizes[0]:g} in every run, which does not say per process or in total"


def efficiency(
    first: np.ndarray,
    last: np.ndarray,
    counts: tuple[float, float],
    scaling: str,
    summed: bool,
) -> np.ndarray:
    """Parallel efficiency from the first run to the last (1 = perfect) of per-node times: strong
    scaling ``t₁·p₁ / (tₙ·pₙ)``, weak ``t₁ / tₙ``, with ``t`` the time per process (a metric
    ``summed`` over the ranks is divided by the process count first)."""
    p1, pn = counts
    t1, tn = (first / p1, last / pn) if summed else (first, last)
    with np.errstate(divide="ignore", invalid="ignore"):
        if scaling == "strong":
            return np.where(tn > 0, (t1 * p1) / (tn * pn), np.nan)
        return np.where(tn > 0, t1 / tn, np.nan)


def decide(
    runs: Sequence[Any], labels: Sequence[str], scaling: str | None
) -> tuple[str | None, list[float], str]:
    """(scaling, process counts, why) for a compare view's runs: ``scaling`` as asked ("strong",
    "weak"), told by the metadata ("auto"), or (None, [], why) without an efficiency column (not a
    scaling study, or ``scaling=None``). Under "auto" only the metadata's process counts make a
    scaling study; labels that are numbers are read as counts only when ``scaling`` is given.
    "auto" with metadata counts that cannot tell strong from weak is an error that asks."""
    if scaling is not None and scaling not in ("auto", *SCALINGS):
        raise ValueError(f"scaling is 'auto', 'strong', 'weak' or None; got {scaling!r}")
    if scaling is None:
        return None, [], ""
    metas = [run_metadata(run) for run in runs]
    found = process_counts(metas, labels)
    if found is not None and found[0] == "labels" and scaling == "auto":
        # labels are names the user gave ("27", "512", "2024"): numbers among them are no sign
        # of a scaling study; only metadata is, or an explicit scaling= that reads them
        shown = ", ".join(f"{c:g}" for c in found[1])
        why = (
            f"labels {shown} look like process counts, but no metadata says so: "
            "scaling='strong' or 'weak' adds a parallel-efficiency column"
        )
        return None, [], why
    if found is None:
        if scaling == "auto":
            return None, [], ""
        raise ValueError(
            f"scaling={scaling!r} needs each run's process count: from metadata "
            f"({', '.join(RANK_COUNTS)}) or labels that are numbers, e.g. labels=[27, 64, 125]"
        )
    source, counts = found
    if scaling != "auto":
        return scaling, counts, "as asked"
    told, why = infer_scaling(metas, counts)
    if told is None:
        shown = ", ".join(f"{c:g}" for c in counts)
        raise ValueError(
            f"these runs are a scaling study ({shown} processes, from {source}) but {why}; say "
            "which: compare(..., scaling='strong') for the same total problem on more processes, "
            "scaling='weak' for the same problem per process, or scaling=None for no efficiency"
        )
    return told, counts, why

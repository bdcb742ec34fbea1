"""Ensembles: cctviz's store (DuckDB in process) side by side with Thicket, the tool an analyst
would use instead, on the same files in one run; then a synthetic ensemble of many profiles.

1. Ingest of real Caliper files (``../shared/data``: the LULESH strong/weak study and the other
   Thicket ensembles): ``Ensemble.add`` (2 worker processes) against
   ``Thicket.from_caliperreader`` on the same files (needs llnl-thicket: run in ``.venv-llnl``;
   under UMD hatchet the Thicket column says so).
2. A synthetic nightly ensemble (``cctviz.examples.ensemble``, 20 injected changes): writing it,
   the per-node reduction of the whole ensemble (mean, std, min, max, p95), a brushed subset (a
   fifth of the runs) reduced again, one node's distribution over every profile, the trend of a
   node and its children, regressions over every node, and the peak memory of this process.
   Mean, std, min and max read the per-node summaries kept at ingest; p95 reads every value.

    .venv-llnl/bin/python benchmarks/ensemble.py                     # real files + 10,000 × 5,000
    .venv/bin/python benchmarks/ensemble.py --smoke                  # small, no Thicket (CI)
    .venv/bin/python benchmarks/ensemble.py --profiles 2000 --nodes 1000
    .venv/bin/python benchmarks/ensemble.py --synthetic-only --profiles 100000 --nodes 1000 --growth
    .venv/bin/python benchmarks/ensemble.py --synthetic-only --profiles 100000 --nodes 1000 \
        --store /tmp/syn100k   # written once; run again to query it again without writing

The last is issue 56's scale table (10⁵ profiles × 1,000 nodes on 2 cores: every target printed
beside its row) and the growth of each query from 10³ profiles up, with its exponent.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import cctviz

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
REAL = (
    "thicket-tutorial/lulesh-strong-weak",
    "thicket/mpi_scaling_cali",
    "thicket/XL_BaseCuda",
    "thicket/rajaperf-lassen",
    "thicket/rajaperf-quartz",
    "thicket/simple-cali",
)


def timed(run):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = run()
    return time.perf_counter() - start, out


def peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # Linux: KB


def nightly_copies(files: list[Path], count: int, work: Path) -> list[Path]:
    """``count`` files made of the real ones, each copy with its launch date moved on by a day
    per copy (an edit of the Caliper file's text), so that both tools see distinct profiles."""
    out: list[Path] = []
    folder = work / "copies"
    folder.mkdir()
    for i in range(count):
        source = files[i % len(files)]
        text = source.read_text(errors="surrogateescape")
        found = re.search(r"^__rec=node,id=(\d+),attr=\d+,data=launchdate,", text, re.M)
        if found:
            pattern = re.compile(rf"(^__rec=node,id=\d+,attr={found.group(1)},data=)(\d+)", re.M)
            text = pattern.sub(lambda m, i=i: f"{m.group(1)}{int(m.group(2)) + 86400 * i}", text)
        target = folder / f"{i:05d}-{source.name}"
        target.write_text(text, errors="surrogateescape")
        out.append(target)
    return out


def ingest(
    files: list[Path], work: Path, what: str = "real Caliper files", rounds: int = 2
) -> None:
    """``Ensemble.add`` (2 worker processes) against ``Thicket.from_caliperreader`` on the same
    files, interleaved (ours, theirs, ours, theirs...: a change of the machine's load hits both),
    each with the load average when it ran."""
    print(f"\n## Ingest of {len(files):,} {what} (same files, same 2 cores, interleaved)\n")
    try:
        import thicket as th
    except ImportError:
        th = None
    print(
        "| round | cctviz Ensemble.add (s) | load | Thicket.from_caliperreader (s) | load | ratio |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    ours_all: list[float] = []
    theirs_all: list[float] = []
    for r in range(rounds):
        store = work / f"real-{r}"
        before = load()
        ours, added = timed(
            lambda store=store: cctviz.Ensemble(store).add(files, progress=False, workers=2)
        )
        assert added == len(files), added
        shutil.rmtree(store, ignore_errors=True)
        ours_all.append(ours)
        if th is None:
            print(f"| {r + 1} | {ours:.2f} | {before} | (needs llnl-thicket: .venv-llnl) | | |")
            continue
        after = load()
        theirs, _ = timed(
            lambda: th.Thicket.from_caliperreader([str(f) for f in files], disable_tqdm=True)
        )
        theirs_all.append(theirs)
        print(
            f"| {r + 1} | {ours:.2f} | {before} | {theirs:.2f} | {after} | {theirs / ours:.1f}× |"
        )
    if theirs_all:
        ratio = sum(theirs_all) / sum(ours_all)
        print(f"| all | {sum(ours_all):.2f} | | {sum(theirs_all):.2f} | | {ratio:.1f}× |")


# the targets on 2 cores, per size (profiles, nodes); others print none
TARGETS: dict[tuple[int, int], dict[str, str]] = {
    (100_000, 1_000): {
        "summed": "≤ 5 s",
        "whole": "≤ 5 s",
        "tenth": "≤ 2 s",
        "trend": "≤ 0.1 s",
        "trend again": "≤ 0.1 s",
        "memory": "≤ 4 GB",
    },
    (10_000, 5_000): {"whole": "≤ 2 s", "fifth": "≤ 1 s", "regressions": "≤ 30 s"},
}
STATS = ("mean", "std", "min", "max", "p95")
SUMMED = ("mean", "std", "min", "max")


def synthetic(
    n_profiles: int, n_nodes: int, work: Path, show: bool = True, store: Path | None = None
) -> dict[str, float]:
    """The synthetic ensemble's steps, timed (printed as a table when ``show``). ``store``: an
    ensemble this benchmark wrote before with the same sizes, queried again (no write)."""
    target = TARGETS.get((n_profiles, n_nodes), {})
    times: dict[str, float] = {}

    def row(name: str, what: str, seconds: float, unit: str = "s") -> None:
        times[name] = seconds
        if show:
            print(f"| {what} | {seconds:.3f} {unit} | {target.get(name, '')} |")

    if show:
        print(
            f"\n## Synthetic ensemble: {n_profiles:,} profiles × {n_nodes:,} nodes "
            f"({n_profiles * n_nodes:,} values per metric; load {load()})\n"
        )
        print("| step | time | target |")
        print("|---|---:|---|")
    from cctviz.ensemble.synthetic import Change

    # a nightly series of one configuration, with 20 changes of 10-40 % at known runs and nodes
    changes = [
        Change(n_nodes - 1 - 7 * i, n_profiles // 4 + i * n_profiles // 40, 1.1 + 0.015 * i)
        for i in range(20)
    ]
    where = store or work / "syn"
    if store is None or not store.exists():
        write, ens = timed(
            lambda: cctviz.examples.ensemble(
                where,
                n_profiles,
                n_nodes,
                seed=1,
                changes=changes,
                outliers=0.001,
                job_sizes=(64,),
                problem_sizes=(30,),
                compilers=("gcc-12",),
            )
        )
        row("write", "write the store", write)
    # the maintenance a nightly store gets (issue 56): its value files regrouped as few batches
    compacted, done = timed(lambda: cctviz.Ensemble(where, create=False).compact())
    row(
        "compact",
        f"`ens.compact()`: {done.files_before} value files → {done.files_after} "
        f"({done.profiles:,} profiles moved)",
        compacted,
    )
    ens = cctviz.Ensemble(where, create=False)  # a fresh kernel's view of it
    if len(ens.profiles) != n_profiles or len(ens.nodes) != n_nodes:
        raise SystemExit(
            f"{where} holds {len(ens.profiles)} × {len(ens.nodes)}, not the sizes asked"
        )
    summed, reduced = timed(lambda: ens.reduce("time (inc)", SUMMED))
    assert len(reduced) == n_nodes
    row("summed", f"reduce every node ({', '.join(SUMMED)}: the summaries kept at ingest)", summed)
    whole, _ = timed(lambda: ens.reduce("time (inc)", STATS))
    row("whole", f"reduce every node ({', '.join(STATS)}: p95 reads every value)", whole)
    tenth, _ = timed(lambda: ens.where(f"run < {n_profiles // 10}").reduce("time (inc)", STATS))
    row("tenth", f"a tenth of the runs by `where`, reduced ({', '.join(STATS)})", tenth)
    fifth, _ = timed(lambda: ens.where(f"run < {n_profiles // 5}").reduce("time (inc)", STATS))
    row("fifth", "a brushed fifth of the runs, reduced again", fifth)
    from cctviz.adapters.graphframe import from_graphframe
    from cctviz.ensemble.analysis.graphframe import PROFILES, to_graphframe
    from cctviz.widget.ensemble.table import ensemble_table

    kinds = {PROFILES: "max"}  # as CCT(ens) declares it
    direct, _ = timed(lambda: ensemble_table(ens, "median", "mean", kinds))
    row("table", "`CCT(ens)`'s table (median, size by mean), from the engine's rows", direct)
    if show and n_profiles * n_nodes <= 50_000_000:
        trip, _ = timed(
            lambda: [
                from_graphframe(to_graphframe(ens, r), metric_kinds=kinds)
                for r in ("median", "mean")
            ]
        )
        row("trip", "the same through two Hatchet GraphFrames and back (before issue 55)", trip)
    node = ens.nodes.index[n_nodes // 2]
    one, dist = timed(lambda: ens.distribution(node, "time"))
    assert len(dist) == n_profiles
    row("distribution", f"one node's distribution over {n_profiles:,} profiles", one)
    alone, _ = timed(lambda: ens.trend(node, "time (inc)"))
    row(
        "trend", f"one node's trend over {n_profiles:,} runs (the first: codes the profiles)", alone
    )
    # a click in the pane, on 15 other nodes: the median (one click alone is at the mercy of a
    # garbage collection or another process), and the slowest beside it
    clicks = sorted(
        timed(lambda k=k: ens.trend(k, "time (inc)"))[0]
        for k in ens.nodes.index[n_nodes // 3 :: max(1, n_nodes // 45)][:15]
    )
    row(
        "trend again",
        f"another node's trend over {n_profiles:,} runs (a click in the pane; median of "
        f"{len(clicks)} nodes, slowest {clicks[-1]:.3f} s)",
        clicks[len(clicks) // 2],
    )
    fan = ens.nodes["parent"].value_counts()
    typical = int(fan[fan >= min(12, fan.max())].index[-1])  # about a dozen children: a pane
    root = int(ens.nodes.index[0])
    for key, what in ((typical, "a node"), (root, "the root")):
        trend, _ = timed(lambda key=key: ens.trend(key, "time (inc)", children=True))
        row(
            f"trend {what}",
            f"the trend of {what} and its {fan.get(key, 0)} children over {n_profiles:,} runs",
            trend,
        )
    if not show:
        return times
    from cctviz.ensemble.analysis.trend import trend_of

    shown = [int(k) for k in ens.nodes.index[ens.nodes["parent"] == root]][:12]
    pane, _ = timed(lambda: trend_of(ens, root, shown, "time (inc)", "launchdate", "mean"))
    row(
        "pane",
        f"the trend pane of the root (it and {len(shown)} of its children) over "
        f"{n_profiles:,} runs",
        pane,
    )
    regress, _ = timed(lambda: ens.regressions("time (inc)"))
    row("regressions", "regressions over every node (inclusive time)", regress)
    # the changes are injected into nodes' exclusive time: found there at the right run ± 1
    own = ens.regressions("time")
    keys = list(ens.nodes.index)
    run = ens.profiles["run"]
    hits = sum(
        any(
            k == keys[c.node] and abs(int(run[p]) - c.at) <= 1
            for k, p in zip(own["key"], own["profile"], strict=True)
        )
        for c in changes
    )
    print(f"| changes found (exclusive time, right run ± 1) | {hits} of {len(changes)} | ≥ 95 % |")
    row("memory", "peak memory of this process", peak_gb(), "GB")
    return times


def growth(top: int, n_nodes: int, work: Path) -> None:
    """The query times at 10³ … ``top`` profiles, each step tenfold, and their growth
    exponent (time ∝ profiles^k: k = 1 is linear)."""
    sizes = [10**e for e in range(3, 10) if 10**e <= top]
    print(f"\n## Growth with the number of profiles ({n_nodes:,} nodes; load {load()})\n")
    measured = {}
    for n in sizes:
        measured[n] = synthetic(n, n_nodes, work / f"g{n}", show=False)
        shutil.rmtree(work / f"g{n}", ignore_errors=True)
    steps = [k for k in measured[sizes[0]] if k != "write"]
    print("| step | " + " | ".join(f"{n:,} profiles" for n in sizes) + " | exponent |")
    print("|---|" + "---:|" * (len(sizes) + 1))
    for step in ["write", *steps]:
        t = [measured[n][step] for n in sizes]
        k = math.log(t[-1] / t[0]) / math.log(sizes[-1] / sizes[0]) if t[0] > 0 else float("nan")
        print(f"| {step} | " + " | ".join(f"{x:.3f} s" for x in t) + f" | {k:.2f} |")


def load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes, synthetic only (CI)")
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--nodes", type=int, default=5_000)
    parser.add_argument(
        "--growth", action="store_true", help="also the times from 10³ profiles up, and exponents"
    )
    parser.add_argument(
        "--synthetic-only", action="store_true", help="no real files (no Thicket comparison)"
    )
    parser.add_argument(
        "--files", type=int, default=1_000, help="Caliper files to ingest (copies of the real ones)"
    )
    parser.add_argument(
        "--store",
        type=Path,
        help="keep the synthetic store here; when it exists, query it again without writing",
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cctviz-ensemble-"))
    try:
        if args.smoke:
            synthetic(50, 100, work)
            return
        files = sorted(f for folder in REAL for f in (SHARED / folder).rglob("*.cali"))
        if args.synthetic_only:
            files = []
        if files:
            lulesh = [f for f in files if "lulesh" in str(f)]
            others = [f for f in files if "lulesh" not in str(f)]
            ingest(lulesh, work / "lulesh", "LULESH strong/weak Caliper files (Thicket tutorial)")
            ingest(others, work / "others", "other real Caliper files (RAJAPerf, MPI, CUDA)")
            ingest(files, work / "real")
            if args.files > len(files):
                copies = nightly_copies(files, args.files, work)
                ingest(copies, work / "copies", "Caliper files: the real ones, copied nightly")
        elif not args.synthetic_only:
            print(f"(no real files: {SHARED} is missing)", file=sys.stderr)
        synthetic(args.profiles, args.nodes, work, store=args.store)
        if args.growth:
            growth(args.profiles, args.nodes, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

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

    .venv-llnl/bin/python benchmarks/ensemble.py                     # real files + 10,000 × 5,000
    .venv/bin/python benchmarks/ensemble.py --smoke                  # small, no Thicket (CI)
    .venv/bin/python benchmarks/ensemble.py --profiles 2000 --nodes 1000
"""

from __future__ import annotations

import argparse
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


def ingest(files: list[Path], work: Path, what: str = "real Caliper files") -> None:
    print(f"\n## Ingest of {len(files):,} {what} (same files, same 2 cores)\n")
    print("| tool | seconds | ratio |")
    print("|---|---:|---:|")
    ours, added = timed(
        lambda: cctviz.Ensemble(work / "real").add(files, progress=False, workers=2)
    )
    assert added == len(files), added
    try:
        import thicket as th
    except ImportError:
        print(f"| cctviz Ensemble.add | {ours:.1f} | |")
        print("| Thicket.from_caliperreader | (needs llnl-thicket: run in .venv-llnl) | |")
        return
    theirs, _ = timed(
        lambda: th.Thicket.from_caliperreader([str(f) for f in files], disable_tqdm=True)
    )
    print(f"| cctviz Ensemble.add | {ours:.1f} | {theirs / ours:.1f}× faster |")
    print(f"| Thicket.from_caliperreader | {theirs:.1f} | 1 |")


def synthetic(n_profiles: int, n_nodes: int, work: Path) -> None:
    print(
        f"\n## Synthetic ensemble: {n_profiles:,} profiles × {n_nodes:,} nodes "
        f"({n_profiles * n_nodes:,} values per metric)\n"
    )
    print("| step | seconds | target |")
    print("|---|---:|---|")
    from cctviz.ensemble.synthetic import Change

    # a nightly series of one configuration, with 20 changes of 10-40 % at known runs and nodes
    changes = [
        Change(n_nodes - 1 - 7 * i, n_profiles // 4 + i * n_profiles // 40, 1.1 + 0.015 * i)
        for i in range(20)
    ]
    write, ens = timed(
        lambda: cctviz.examples.ensemble(
            work / "syn",
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
    print(f"| write the store | {write:.1f} | |")
    stats = ("mean", "std", "min", "max", "p95")
    whole, reduced = timed(lambda: ens.reduce("time (inc)", stats))
    assert len(reduced) == n_nodes
    print(f"| reduce the whole ensemble per node ({', '.join(stats)}) | {whole:.2f} | ≤ 2 s |")
    cut = n_profiles // 5
    brushed, _ = timed(lambda: ens.where(f"run < {cut}").reduce("time (inc)", stats))
    print(f"| a brushed fifth of the runs, reduced again | {brushed:.2f} | ≤ 1 s |")
    from cctviz.adapters.graphframe import from_graphframe
    from cctviz.ensemble.analysis.graphframe import PROFILES, to_graphframe
    from cctviz.widget.ensemble.table import ensemble_table

    kinds = {PROFILES: "max"}  # as CCT(ens) declares it
    direct, _ = timed(lambda: ensemble_table(ens, "median", "mean", kinds))
    print(
        f"| `CCT(ens)`'s table (median, size by mean), from the engine's rows | {direct:.2f} "
        "| ≤ 2 s |"
    )
    trip, _ = timed(
        lambda: [
            from_graphframe(to_graphframe(ens, r), metric_kinds=kinds) for r in ("median", "mean")
        ]
    )
    print(f"| the same through two Hatchet GraphFrames and back (before issue 55) | {trip:.2f} | |")
    node = ens.nodes.index[n_nodes // 2]
    one, dist = timed(lambda: ens.distribution(node, "time"))
    assert len(dist) == n_profiles
    print(f"| one node's distribution over {n_profiles:,} profiles | {one:.3f} | ≤ 0.2 s |")
    fan = ens.nodes["parent"].value_counts()
    typical = int(fan[fan >= min(12, fan.max())].index[-1])  # about a dozen children: a pane
    root = int(ens.nodes.index[0])
    for key, what in ((typical, "a node"), (root, "the root")):
        trend, _ = timed(lambda key=key: ens.trend(key, "time (inc)", children=True))
        print(
            f"| the trend of {what} and its {fan.get(key, 0)} children over {n_profiles:,} runs "
            f"| {trend:.3f} | ≤ 0.2 s |"
        )
    from cctviz.ensemble.analysis.trend import trend_of

    shown = [int(k) for k in ens.nodes.index[ens.nodes["parent"] == root]][:12]
    pane, _ = timed(lambda: trend_of(ens, root, shown, "time (inc)", "launchdate", "mean"))
    print(
        f"| the trend pane of the root (it and {len(shown)} of its children) over "
        f"{n_profiles:,} runs | {pane:.3f} | ≤ 0.2 s |"
    )
    regress, _ = timed(lambda: ens.regressions("time (inc)"))
    print(f"| regressions over every node (inclusive time) | {regress:.1f} | ≤ 30 s |")
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
    print(f"| peak memory of this process | {peak_gb():.2f} GB | ≤ 4 GB |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes, synthetic only (CI)")
    parser.add_argument("--profiles", type=int, default=10_000)
    parser.add_argument("--nodes", type=int, default=5_000)
    parser.add_argument(
        "--files", type=int, default=1_000, help="Caliper files to ingest (copies of the real ones)"
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cctviz-ensemble-"))
    try:
        if args.smoke:
            synthetic(50, 100, work)
            return
        files = sorted(f for folder in REAL for f in (SHARED / folder).rglob("*.cali"))
        if files:
            ingest(files, work / "real")
            if args.files > len(files):
                copies = nightly_copies(files, args.files, work)
                ingest(copies, work / "copies", "Caliper files: the real ones, copied nightly")
        else:
            print(f"(no real files: {SHARED} is missing)", file=sys.stderr)
        synthetic(args.profiles, args.nodes, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

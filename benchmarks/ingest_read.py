"""Reading one Caliper file for the store (issue 56, point 4): ``read_item`` against
caliper-reader's own parse of the same file, on every real set of ``../shared/data`` (each
folder holding at least 20 ``.cali`` files).

Per file, in turn (so that the machine's load falls on all alike), best of ``--rounds``:

- parse: ``caliperreader.CaliperReader().read(path)``, the floor any reading pays;
- new: ``read_item`` as it is, region profiles read straight from their records
  (``cctviz.ensemble.store.caliper_rows``; its per-tree cache as the previous file left it);
- new, cold: the same with that cache emptied first (the first file of a tree);
- old: the path before it: the GraphFrame (``caliper.quick_graphframe``, Hatchet's reader for
  other shapes), then ``profile_rows`` (the single-profile node table, then the rows).

    .venv/bin/python benchmarks/ingest_read.py
    .venv-llnl/bin/python benchmarks/ingest_read.py --rounds 5
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from cctviz.ensemble.store import caliper_rows, sources
from cctviz.ensemble.store.caliper import FLAVOUR, read_simple
from cctviz.ensemble.store.profile import profile_rows

SHARED = Path(os.environ.get("CCTVIZ_SHARED_DATA") or Path(__file__).parents[2] / "shared/data")
STEPS = ("parse", "new", "new, cold", "old")


def parse(item: sources.Item) -> Any:
    import caliperreader as cr

    reader = cr.CaliperReader()
    reader.read(str(item.path))
    return reader


def new(item: sources.Item) -> Any:
    return sources.read_item(item, "mean")


def new_cold(item: sources.Item) -> Any:
    caliper_rows.kept_shape.cache_clear()
    return sources.read_item(item, "mean")


def old(item: sources.Item) -> Any:
    """``read_item`` before the direct path: a GraphFrame, then ``profile_rows``."""
    path = Path(str(item.path))
    gf = sources._read(path, read_simple(path))
    return profile_rows(
        gf, metadata=item.metadata, source=item.source, content_hash=item.content_hash
    )


RUNS: dict[str, Callable[[sources.Item], Any]] = {
    "parse": parse,
    "new": new,
    "new, cold": new_cold,
    "old": old,
}


def real_sets(root: Path, at_least: int) -> dict[str, list[Path]]:
    """The folders under ``root`` holding ``at_least`` .cali files themselves."""
    by_folder: dict[Path, list[Path]] = {}
    for f in sorted(root.rglob("*.cali")):
        by_folder.setdefault(f.parent, []).append(f)
    return {str(d.relative_to(root)): fs for d, fs in by_folder.items() if len(fs) >= at_least}


def measure(files: list[Path], rounds: int) -> dict[str, float]:
    """Seconds per step over ``files``: each file's best of ``rounds``, steps interleaved."""
    items = [sources.Item(str(f), sources.file_hash(f), {}, path=str(f)) for f in files]
    best = {(step, i): float("inf") for step in STEPS for i in range(len(items))}
    for _ in range(rounds):
        for i, item in enumerate(items):
            for step in STEPS:
                # each step pays for freeing what it made (read_item frees its parse)
                start = time.perf_counter()
                read = not isinstance(RUNS[step](item), sources.Skipped)
                took = time.perf_counter() - start
                assert read, (step, item.source)
                best[step, i] = min(best[step, i], took)
    return {step: sum(best[step, i] for i in range(len(items))) for step in STEPS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=SHARED)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--at-least", type=int, default=20, help=".cali files in a real set")
    args = parser.parse_args()
    sets = real_sets(args.data, args.at_least)
    if not sets:
        raise SystemExit(f"no folder of {args.data} holds {args.at_least} .cali files")
    first = next(iter(sets.values()))[0]
    warm = sources.Item(str(first), sources.file_hash(first), {}, path=str(first))
    for run in RUNS.values():  # imports and first calls, not timed
        run(warm)
    hatchet = {"llnl": "llnl-hatchet", "umd": "hatchet"}.get(FLAVOUR or "", "")
    version = f"{hatchet} {metadata.version(hatchet)}" if hatchet else "an unchecked Hatchet"
    print(f"\n## read_item against caliper-reader's parse ({version}, caliper-reader ", end="")
    print(f"{metadata.version('caliper-reader')}, best of {args.rounds} per file)\n")
    print("| set | files | parse s | new s | new, cold s | old s | new/parse | old/parse | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    ratios = []
    for name, files in sets.items():
        before = os.getloadavg()
        t = measure(files, args.rounds)
        after = os.getloadavg()
        ratios.append(t["new"] / t["parse"])
        load = f"{before[0]:.2f} → {after[0]:.2f}"
        print(
            f"| {name} | {len(files)} | {t['parse']:.3f} | {t['new']:.3f} | "
            f"{t['new, cold']:.3f} | {t['old']:.3f} | {t['new'] / t['parse']:.2f} | "
            f"{t['old'] / t['parse']:.2f} | {load} |"
        )
    print(f"\nnew/parse averaged over the {len(ratios)} sets: {sum(ratios) / len(ratios):.2f}")


if __name__ == "__main__":
    main()

"""``cctviz.read`` on large files of the formats Hatchet does not read, or reads slowly (issue
57: a 1 GB folded file in ≤ 60 s and ≤ 4 GB on 2 cores). Writes synthetic files of the sizes
asked (``formats_files.py``), reads each in a fresh process (so that the peak memory is the
read's alone) and prints one markdown table: format, file shape, size, seconds (wall and CPU),
peak resident memory, rows, whether the values add up to what was written, and Hatchet's own
reader on the same file where Hatchet reads the format (TAU: ``GraphFrame.from_tau``).

    python benchmarks/formats.py --quick                    # every family, small: < 30 s
    python benchmarks/formats.py --only folded              # the 1 GB folded file, 1M stacks
    python benchmarks/formats.py --only folded,perf --folded-mb 100 --stacks 200000
    python benchmarks/formats.py --only tau --hatchet 900   # from_tau on the full shape too

Families (``--only``): ``folded`` (``--folded-mb`` of ``--stacks`` distinct stacks, 13 to ~40
frames deep, of ~4,000 long C++ names, each on many lines with counts 1 to 1,000, in random
order), ``perf`` (``perf script`` output of the same stacks, ``--perf-mb``), ``callgrind`` (the
largest fixture), ``trace`` (``--events`` trace events), ``tau`` (``--ranks`` × ``--threads``
files of ``--paths`` call paths; ``from_tau`` took 769 s on the real run of that shape, so it is
timed on a directory of ``--hatchet-ranks`` ranks unless ``--hatchet`` gives a timeout for the
full one) and ``nsys`` (``--kernels`` kernels under NVTX ranges).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import formats_files as files

REPO = Path(__file__).resolve().parents[1]
FAMILIES = ("folded", "perf", "callgrind", "trace", "tau", "nsys")
QUICK = {"folded_mb": 4.0, "perf_mb": 4.0, "stacks": 2000, "events": 30_000, "ranks": 4,
         "threads": 2, "paths": 500, "hatchet_ranks": 4, "kernels": 30_000}  # fmt: skip
CHILD = """
import json, sys, time
from pathlib import Path
import cctviz, hatchet
start, cpu = time.perf_counter(), time.process_time()
gf = cctviz.read(Path(sys.argv[1]))
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
# this process's own peak (VmHWM: ru_maxrss would count the parent's size at the fork)
status = open("/proc/self/status").read()
peak = [int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")]
df = gf.dataframe
total = None
column = sys.argv[2]
if column.startswith("all:"):  # the column summed over every row
    total = float(df[column[4:]].sum())
elif column:  # over the roots' rows
    roots = [not n.parents for n in df.index.get_level_values(0)]
    total = float(df.loc[roots, column].sum())
print(json.dumps([seconds, cpu, peak[0] / 1024**2, len(df), total]))
"""
HATCHET = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
import hatchet as ht
start, cpu = time.perf_counter(), time.process_time()
gf = ht.GraphFrame.from_tau(sys.argv[1])
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
status = open("/proc/self/status").read()
peak = [int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")]
print(json.dumps([seconds, cpu, peak[0] / 1024**2, len(gf.dataframe)]))
"""


@dataclass
class Case:
    """A file to read: its family, shape, what its values must add up to (``column`` summed
    over the roots' rows, or every row: ``all:column``), and Hatchet's ``from_tau``'s timeout
    on it (0: not timed)."""

    family: str
    shape: str
    path: Path
    column: str = ""
    expected: float | None = None
    hatchet: float = 0.0


def cases(args: argparse.Namespace, tmp: Path) -> Iterator[Case]:
    """The files of each family asked for, written as they are needed."""
    only = set(args.only.split(","))
    if "folded" in only:
        path = tmp / "big.folded"
        total = files.write_folded(path, int(args.folded_mb * 2**20), args.stacks)
        yield Case("folded", f"{args.stacks:,} distinct stacks", path, "samples (inc)", total)
    if "perf" in only:
        path = tmp / "big.perf-script"
        samples = files.write_perf(path, int(args.perf_mb * 2**20), args.stacks)
        yield Case("perf", f"{args.stacks:,} distinct stacks, {samples:,} samples", path)
    if "callgrind" in only:
        fixtures = (REPO / "tests/data/formats/callgrind").glob("*.out")
        yield Case("callgrind", "the largest fixture", max(fixtures, key=_size))
    if "trace" in only:
        path = tmp / "big.json"
        total = files.write_trace(path, args.events)
        yield Case("trace events", f"{args.events:,} events", path, "all:time", total)
    if "tau" in only:
        shapes = [(args.ranks, args.hatchet)]
        if args.hatchet_ranks == args.ranks:  # from_tau on the one shape
            shapes = [(args.ranks, args.hatchet or args.hatchet_timeout)]
        elif not args.hatchet and args.hatchet_ranks:  # and on a smaller one
            shapes.append((args.hatchet_ranks, args.hatchet_timeout))
        for ranks, timeout in shapes:
            folder = tmp / f"tau-{ranks}"
            folder.mkdir()
            total = files.write_tau(folder, ranks, args.threads, args.paths)
            shape = f"{ranks} ranks × {args.threads} threads, {args.paths:,} paths"
            yield Case("tau", shape, folder, "time (inc)", total, timeout)
    if "nsys" in only:
        path = tmp / "big.sqlite"
        total = files.write_nsys(path, args.kernels)
        yield Case("nsys", f"{args.kernels:,} kernels", path, "time (inc)", total)


def measure(case: Case) -> tuple[float, float, float, int, float | None]:
    """Seconds (wall clock, CPU) and peak GB of ``cctviz.read`` in a fresh process, its rows
    and the roots' sum of ``case.column``."""
    run = [sys.executable, "-c", CHILD, str(case.path), case.column]
    out = subprocess.run(run, check=True, capture_output=True, text=True, cwd=REPO)
    seconds, cpu, peak, rows, total = json.loads(out.stdout.strip().splitlines()[-1])
    return seconds, cpu, peak, rows, total


def hatchet(case: Case) -> str:
    """Hatchet's ``from_tau`` on the same directory: seconds, CPU seconds and peak GB."""
    if not case.hatchet:
        return "not run (minutes: see the smaller shape)" if case.family == "tau" else "no reader"
    run = [sys.executable, "-c", HATCHET, str(case.path)]
    try:
        out = subprocess.run(run, capture_output=True, text=True, check=True,
                             timeout=case.hatchet, cwd=REPO)  # fmt: skip
    except subprocess.TimeoutExpired:
        return f"> {case.hatchet:.0f} s (stopped)"
    seconds, cpu, peak, _ = json.loads(out.stdout.strip().splitlines()[-1])
    return f"{seconds:.1f} s ({cpu:.1f} CPU), {peak:.2f} GB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(FAMILIES), help="families, comma-separated")
    parser.add_argument("--quick", action="store_true", help="small files of each: a smoke run")
    parser.add_argument("--folded-mb", type=float, default=1000)
    parser.add_argument("--perf-mb", type=float, default=300)
    parser.add_argument("--stacks", type=int, default=1_000_000, help="distinct stacks")
    parser.add_argument("--events", type=int, default=3_000_000, help="trace events")
    parser.add_argument("--ranks", type=int, default=64, help="TAU ranks")
    parser.add_argument("--threads", type=int, default=3, help="TAU threads per rank")
    parser.add_argument("--paths", type=int, default=5000, help="TAU call paths")
    parser.add_argument("--hatchet", type=float, default=0, help="from_tau's timeout at --ranks")
    parser.add_argument("--hatchet-ranks", type=int, default=4, help="from_tau's ranks (0: none)")
    parser.add_argument("--hatchet-timeout", type=float, default=900)
    parser.add_argument("--kernels", type=int, default=3_000_000, help="nsys kernels")
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: tmp)")
    args = parser.parse_args()
    unknown = set(args.only.split(",")) - set(FAMILIES)
    if unknown:
        parser.error(f"--only takes {', '.join(FAMILIES)}; not {', '.join(sorted(unknown))}")
    if args.quick:
        vars(args).update(QUICK)
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
    print("| format | file | size | seconds | CPU s | peak GB | rows | adds up | Hatchet | load |")
    print("|---|---|---:|---:|---:|---:|---:|:---:|---|---|")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for case in cases(args, Path(tmp)):
            seconds, cpu, peak, rows, total = measure(case)
            theirs = hatchet(case)
            exact = "–" if case.expected is None or total is None else _same(total, case.expected)
            print(
                f"| {case.family} | {case.shape} | {_size(case.path) / 2**20:,.1f} MB "
                f"| {seconds:.1f} | {cpu:.1f} | {peak:.2f} | {rows:,} | {exact} | {theirs} "
                f"| {_load()} |",
                flush=True,
            )
    print(f"\npython {sys.version.split()[0]}, {time.strftime('%Y-%m-%d')}")


def _same(got: float, expected: float) -> str:
    return "yes" if abs(got - expected) <= 1e-9 * max(abs(expected), 1.0) else f"no: {got:g}"


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.iterdir()) if path.is_dir() else path.stat().st_size


def _load() -> str:
    loadavg = Path("/proc/loadavg")
    return " ".join(loadavg.read_text().split()[:3]) if loadavg.exists() else "?"


if __name__ == "__main__":
    main()

"""``cctviz.read`` on big files (issue 57: a 1 GB folded file reads streaming in ≤ 60 s and
≤ 4 GB on 2 cores). Writes its own synthetic files of the sizes asked, reads each in a fresh
process (so that the peak memory is the read's alone) and prints a markdown table.

    python benchmarks/formats.py --smoke              # a few MB of each, seconds
    python benchmarks/formats.py --folded-mb 1000     # the 1 GB folded file
    python benchmarks/formats.py --folded-mb 100 --perf-mb 100 --stacks 500000

The folded file looks like a collapsed profile of a large C++ code: ``--stacks`` distinct stacks
(the paths of a random calling context tree of that many nodes, 13 to ~40 frames deep, of ~4,000
functions with long names), each written on many lines (folded files of many runs or ranks put
together) with counts 1 to 1,000, in random order, until the size is reached. The perf file is
``perf script`` output of the same stacks,
one sample per block. The callgrind row reads the largest callgrind fixture.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET = {"folded": (60.0, 4.0)}  # seconds, GB at 1 GB


def stacks(count: int, seed: int = 57) -> list[list[str]]:
    """``count`` distinct stacks, outermost frame first: every path from the root of a random
    calling context tree of ``count`` nodes (below a 12-frame start-up chain, as MPI codes
    have), so that stacks share prefixes as a program's do."""
    rng = random.Random(seed)
    names = [
        f"ns{i % 17}::Solver{i % 97}<double, {i % 5}>::kernel_{i}(Grid const&, int)"
        for i in range(4000)
    ]
    chain = [f"startup_{i}" for i in range(12)]
    parent = [-1] + [rng.randrange(i) for i in range(1, count)]  # a random recursive tree
    frame = [rng.randrange(4000) for _ in range(count)]
    paths: list[list[str]] = []
    for i in range(count):
        p = parent[i]
        paths.append((paths[p] if p >= 0 else chain) + [names[frame[i]]])
    return paths


def write_folded(path: Path, size: int, distinct: int) -> int:
    """A folded file of about ``size`` bytes; returns its total count."""
    rng = random.Random(1)
    lines = [";".join(s).encode() for s in stacks(distinct)]
    total = written = 0
    with open(path, "wb", buffering=1 << 22) as f:
        while written < size:
            rng.shuffle(lines)
            for line in lines:
                count = rng.randint(1, 1000)
                chunk = line + b" %d\n" % count
                f.write(chunk)
                written += len(chunk)
                total += count
                if written >= size:
                    break
    return total


def write_perf(path: Path, size: int, distinct: int) -> int:
    """``perf script`` output of about ``size`` bytes; returns its number of samples."""
    rng = random.Random(2)
    blocks = []
    for s in stacks(distinct):
        frames = "".join(
            f"\t{rng.randrange(1 << 40):16x} {n}+0x1f (/usr/bin/app)\n" for n in s[::-1]
        )
        blocks.append(frames.encode())
    samples = written = 0
    with open(path, "wb", buffering=1 << 22) as f:
        while written < size:
            for frames in blocks:
                tid = 1000 + rng.randrange(4)
                chunk = b"app %d/%d 123.456789:     250000 cpu-clock:u: \n%s\n" % (
                    4242,
                    tid,
                    frames,
                )
                f.write(chunk)
                written += len(chunk)
                samples += 1
                if written >= size:
                    break
    return samples


CHILD = """
import resource, sys, time
sys.path.insert(0, {repo!r})
import cctviz
start, cpu = time.perf_counter(), time.process_time()
gf = cctviz.read({path!r})
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
# this process's own peak (VmHWM: ru_maxrss would count the parent's size at the fork)
status = open("/proc/self/status").read()
kb = [int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")]
peak = (kb[0] if kb else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024**2  # GB
print(seconds, cpu, peak, len(gf.dataframe))
"""


def measure(path: Path) -> tuple[float, float, float, int]:
    """Seconds (wall clock, CPU) and peak GB of ``cctviz.read(path)`` in a fresh process, and
    its rows (on a shared machine the CPU seconds are the steadier figure)."""
    code = CHILD.format(repo=str(REPO), path=str(path))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    seconds, cpu, peak, rows = out.stdout.split()
    return float(seconds), float(cpu), float(peak), int(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folded-mb", type=float, default=0)
    parser.add_argument("--perf-mb", type=float, default=0)
    parser.add_argument("--stacks", type=int, default=200_000, help="distinct stacks")
    parser.add_argument("--smoke", action="store_true", help="a few MB of each format")
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: tmp)")
    args = parser.parse_args()
    if args.smoke:
        args.folded_mb, args.perf_mb, args.stacks = args.folded_mb or 4, args.perf_mb or 4, 2000
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        rows: list[tuple[str, Path, str]] = []
        if args.folded_mb:
            path = Path(tmp) / "big.folded"
            total = write_folded(path, int(args.folded_mb * 2**20), args.stacks)
            rows.append(("folded", path, f"{args.stacks:,} distinct stacks, total {total:,}"))
        if args.perf_mb:
            path = Path(tmp) / "big.perf-script"
            samples = write_perf(path, int(args.perf_mb * 2**20), args.stacks)
            rows.append(("perf", path, f"{args.stacks:,} distinct stacks, {samples:,} samples"))
        grind = max(
            (REPO / "tests/data/formats/callgrind").glob("*.out"), key=lambda p: p.stat().st_size
        )
        rows.append(("callgrind", grind, "the largest fixture"))
        print("| format | size | seconds | CPU seconds | peak GB | GraphFrame rows | file |")
        print("|---|---:|---:|---:|---:|---:|---|")
        for name, path, what in rows:
            size = path.stat().st_size
            seconds, cpu, peak, n = measure(path)
            print(
                f"| {name} | {size / 2**20:,.1f} MB | {seconds:.1f} | {cpu:.1f} | {peak:.2f} "
                f"| {n:,} | {what} |"
            )
        load = (
            Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []
        )
        print(f"\nload average {' '.join(load)}; python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()

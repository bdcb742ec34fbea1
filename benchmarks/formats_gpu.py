"""Reading a large Nsight Systems export (issue 57): seconds and peak resident memory of
``cctviz.adapters.formats.nsys.read`` on a synthetic ``nsys export --type sqlite`` database of
millions of kernels, written with the real export's own ``CREATE TABLE`` statements (taken from
the fixture tests/data/formats/nsys/saxpy-mpi-cuda.sqlite): each kernel launched by a
``cudaLaunchKernel`` call (one of eight backtraces in ``CUDA_CALLCHAINS``) under NVTX ranges
three deep, four CPU threads in two processes, two devices. The read runs in a fresh process so
the peak is the reader's own; its per-device totals are checked against SQL ``sum(end - start)``.

    .venv/bin/python benchmarks/formats_gpu.py                  # 3,000,000 kernels
    .venv/bin/python benchmarks/formats_gpu.py --kernels 300000
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "formats" / "nsys" / "saxpy-mpi-cuda.sqlite"
TABLES = ("StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
          "CUDA_CALLCHAINS", "NVTX_EVENTS")  # fmt: skip
CHILD = """
import json, resource, sys, time
from pathlib import Path
began = time.perf_counter()
from cctviz.adapters.formats.nsys import read
gf = read(Path(sys.argv[1]))
took = time.perf_counter() - began
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # kB → GB
df = gf.dataframe
top = df[[not n.parents for n in df.index.get_level_values(0)]]
sums = top.groupby(level=["rank", "thread"])["time (inc)"].sum()
print(json.dumps([took, peak, len(df), {f"{r}/{t}": float(v) for (r, t), v in sums.items()}]))
"""
KERNEL = (
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
    "correlationId, globalPid, demangledName, shortName, mangledName, registersPerThread, gridX, "
    "gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, "
    "localMemoryPerThread, localMemoryTotal, gridId) "
    "VALUES (?, ?, ?, 1, 7, ?, ?, ?, ?, ?, 32, 1, 1, 1, 256, 1, 1, 0, 0, 0, 0, ?)"
)
RUNTIME = (
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, "
    "nameId, returnValue, callchainId) VALUES (?, ?, 0, ?, ?, 1, 0, ?)"
)


def write(path: Path, kernels: int) -> None:
    """``kernels`` kernels (and as many API calls) in the export's schema."""
    with sqlite3.connect(FIXTURE) as real:
        schema = [
            real.execute("SELECT sql FROM sqlite_master WHERE name = ?", (t,)).fetchone()[0]
            for t in TABLES
        ]
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    for statement in schema:
        db.execute(statement)
    names = ["cudaLaunchKernel", *(f"frame_{i}" for i in range(20)), "libapp.so"]
    names += [f"kernel_{i}(float*, int)" for i in range(50)] + [f"kernel_{i}" for i in range(50)]
    names += [f"phase_{i}" for i in range(10)]
    db.executemany("INSERT INTO StringIds VALUES (?, ?)", enumerate(names, 1))
    chain = [(c, 2 + (c + d) % 20, 22, 0, 1000 + d, d) for c in range(1, 9) for d in range(12)]
    db.executemany("INSERT INTO CUDA_CALLCHAINS VALUES (?, ?, ?, ?, ?, ?)", chain)
    threads = [((p << 24) + t, p << 24) for p in (1, 2) for t in (1, 2)]
    per, t, k = kernels // len(threads), 0, 0
    for tid, pid in threads:
        nvtx: list[tuple[int, int, int, int]] = []
        rows_k: list[tuple[int, ...]] = []
        rows_r: list[tuple[int, ...]] = []
        for i in range(per):
            if i % 300 == 0:  # three nested ranges around each 300 launches
                for depth in range(3):
                    nvtx.append(
                        (t + depth, t + 300 * 100 - depth, tid, 73 + (i // 300 + depth) % 10)
                    )
            k += 1
            rows_r.append((t + 10, t + 20, tid, k, 1 + k % 8))
            name = 23 + k % 50
            rows_k.append((t + 30, t + 30 + 40 + k % 37, k % 2, k, pid, name, name + 50, name, k))
            t += 100
            if len(rows_k) >= 200_000:
                db.executemany(KERNEL, rows_k)
                db.executemany(RUNTIME, rows_r)
                rows_k, rows_r = [], []
        db.executemany(KERNEL, rows_k)
        db.executemany(RUNTIME, rows_r)
        db.executemany(
            "INSERT INTO NVTX_EVENTS (start, end, eventType, globalTid, textId) "
            "VALUES (?, ?, 59, ?, ?)",
            nvtx,
        )
        t += 1_000_000
    db.commit()
    db.close()


def sql_sums(path: Path) -> dict[str, float]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT globalPid >> 24, deviceId, sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL "
            "GROUP BY 1, 2"
        )
        return {f"{p}/{d}": float(s) for p, d, s in rows}


def main() -> None:
    import json

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", type=int, default=3_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.sqlite"
        began = time.perf_counter()
        write(path, args.kernels)
        print(
            f"wrote {args.kernels:,} kernels, {path.stat().st_size / 1e6:.0f} MB in "
            f"{time.perf_counter() - began:.0f} s"
        )
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(path)],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        took, peak, rows, sums = json.loads(out.stdout.strip().splitlines()[-1])
        load = os.getloadavg()[0]
        exact = sums == sql_sums(path)
    print()
    print("| kernels | seconds | peak GB | rows | per-device totals = SQL sums | load average |")
    print("|---:|---:|---:|---:|:---:|---:|")
    print(f"| {args.kernels:,} | {took:.1f} | {peak:.2f} | {rows:,} | {exact} | {load:.2f} |")


if __name__ == "__main__":
    main()

"""Reading a large trace-event file (issue 57): seconds and peak resident memory of
``cctviz.adapters.formats.trace_events.read`` on a synthetic trace of millions of events
(``X`` spans nested five deep and ``B``/``E`` pairs, four threads in two processes), each read
in a fresh process so the peak is the reader's own.

    .venv/bin/python benchmarks/trace_events.py                 # 3,000,000 events
    .venv/bin/python benchmarks/trace_events.py --events 300000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import resource, sys, time
from pathlib import Path
began = time.perf_counter()
from cctviz.adapters.formats.trace_events import read
gf = read(Path(sys.argv[1]))
took = time.perf_counter() - began
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # kB → GB
total = float(gf.dataframe["time"].sum())
print(f"{took:.2f} {peak:.2f} {len(gf.dataframe)} {total:.0f}")
"""


def write(path: Path, events: int) -> float:
    """A trace of about ``events`` events; returns its summed span durations (µs)."""
    names = [f"region_{i}" for i in range(40)]
    total, n, t = 0.0, 0, 0
    with open(path, "w") as out:
        out.write('{"traceEvents": [\n')
        first = True
        while n < events:
            for pid, tid in ((1, 1), (1, 2), (2, 1), (2, 2)):
                lines = []
                for depth in range(5):  # X spans nested five deep
                    dur = 100 - 10 * depth
                    name = names[(n + depth * 7) % len(names)]
                    lines.append(
                        {"ph": "X", "pid": pid, "tid": tid, "ts": t + depth, "dur": dur,
                         "name": name, "cat": "bench"}
                    )  # fmt: skip
                    total += dur
                begin = {"ph": "B", "pid": pid, "tid": tid, "ts": t + 6, "name": names[n % 40]}
                lines += [begin, {"ph": "E", "pid": pid, "tid": tid, "ts": t + 9}]
                total += 3
                for event in lines:
                    out.write(("" if first else ",\n") + json.dumps(event))
                    first = False
                n += len(lines)
            t += 200
        out.write("\n]}\n")
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=3_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.json"
        began = time.perf_counter()
        total = write(path, args.events)
        size = path.stat().st_size
        took = time.perf_counter() - began
        print(f"wrote {args.events:,} events, {size / 1e6:.0f} MB in {took:.0f} s")
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(path)],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[1],
        ).stdout.split()
        load = (
            Path("/proc/loadavg").read_text().split()[:3] if os.path.exists("/proc/loadavg") else []
        )
        print("| events | file MB | seconds | peak GB | rows | total = file's | load |")
        print("|---|---|---|---|---|---|---|")
        print(
            f"| {args.events:,} | {size / 1e6:.0f} | {out[0]} | {out[1]} | {out[2]} | "
            f"{abs(float(out[3]) - total) <= 1e-9 * total} | {' '.join(load)} |"
        )


if __name__ == "__main__":
    main()

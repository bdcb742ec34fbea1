"""Reading a TAU profile directory of a LULESH run's shape (issue 57): seconds and peak resident
memory of ``cctviz.adapters.formats.tau.read`` on a synthetic directory of 192 ``profile.*``
files (64 ranks × 3 threads) holding about 5,000 call paths (TAU's decorated names: ``[SAMPLE]``,
``[CONTEXT]``, ``[UNWIND] … [@]``, ``name [{file} {line,col}-{line,col}]``), in a fresh
process so the peak is the reader's own; optionally Hatchet's ``from_tau`` on the same
directory with a timeout (it took 769 s on the real run).

    .venv/bin/python benchmarks/formats_tau.py                  # 64 ranks × 3 threads
    .venv/bin/python benchmarks/formats_tau.py --hatchet 900    # also from_tau, 900 s at most
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import resource, sys, time
from pathlib import Path
began = time.perf_counter()
from cctviz.adapters.formats.tau import read
gf = read(Path(sys.argv[1]))
took = time.perf_counter() - began
usage = resource.getrusage(resource.RUSAGE_SELF)
peak = usage.ru_maxrss / 1e6  # kB → GB
cpu = usage.ru_utime + usage.ru_stime  # with the imports; less sensitive to load than wall time
roots = [n for n in gf.graph.roots]
total = float(gf.dataframe.loc[roots, "time (inc)"].sum())
print(f"{took:.2f} {cpu:.2f} {peak:.2f} {len(gf.graph)} {len(gf.dataframe)} {total:.0f}")
"""
HATCHET = """
import sys, time
import hatchet as ht
began = time.perf_counter()
gf = ht.GraphFrame.from_tau(sys.argv[1])
print(f"{time.perf_counter() - began:.1f} {len(gf.graph)}")
"""
HEAD = (
    "{count} templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls # "
    "<metadata><attribute><name>Metric Name</name><value>TIME</value></attribute>"
    "<attribute><name>Node Name</name><value>bench{rank}</value></attribute></metadata>\n"
)


def names(count: int, rng: random.Random) -> list[str]:
    """TAU names in the forms a sampled, instrumented LULESH run writes."""
    out = []
    for i in range(count):
        kind = i % 4
        if kind == 0:
            out.append(f"Calc{i}(Domain&) [{{lulesh.cc}} {{{100 + i},1}}-{{{140 + i},1}}]")
        elif kind == 1:
            out.append(f"[SAMPLE] kernel_{i} [{{/src/lulesh.cc}} {{{200 + i}}}]")
        elif kind == 2:
            out.append(f"[UNWIND] /src/lulesh-util.cc.{300 + i} [@] helper_{i} [{{lib.so}} {{0}}]")
        else:
            out.append(f"[CONTEXT] region_{i} {rng.randrange(9)}")
    return out


def tree(paths: int, rng: random.Random) -> list[tuple[str, ...]]:
    """About ``paths`` call paths below ``.TAU application``, each parent before its children."""
    pool = names(600, rng)
    out: list[tuple[str, ...]] = [(".TAU application",)]
    while len(out) < paths:
        parent = out[rng.randrange(len(out))] if len(out) > 1 else out[0]
        if len(parent) < 12:
            child = (*parent, pool[rng.randrange(len(pool))])
            if child not in out[-50:]:
                out.append(child)
    return list(dict.fromkeys(out))


def write(folder: Path, ranks: int, threads: int, paths: int) -> float:
    """The directory; returns the roots' inclusive time summed over every file (µs)."""
    rng = random.Random(57)
    every = tree(paths, rng)
    index = {p: i for i, p in enumerate(every)}
    kids: dict[int, list[int]] = {}
    for i, p in enumerate(every[1:], 1):
        kids.setdefault(index[p[:-1]], []).append(i)
    total = 0.0
    for rank in range(ranks):
        for thread in range(threads):
            keep = [i for i, p in enumerate(every) if thread == 0 or index[p[:2]] % 3 != thread]
            kept = set(keep)
            excl = {i: float(rng.randrange(1, 10_000)) for i in keep}
            incl: dict[int, float] = {}
            for i in reversed(keep):
                incl[i] = excl[i] + sum(incl[k] for k in kids.get(i, []) if k in kept)
            lines = []
            for i in keep:
                name = " => ".join(every[i])
                calls = 1 + i % 7
                subrs = sum(1 for k in kids.get(i, []) if k in kept)
                group = "TAU_DEFAULT" if i == 0 else "TAU_CALLPATH"
                lines.append(
                    f'"{name}" {calls} {subrs} {excl[i]:.0f} {incl[i]:.0f} 0 GROUP="{group}"'
                )
                if i:
                    flat = every[i][-1]
                    lines.append(
                        f'"{flat}" {calls} {subrs} {excl[i]:.0f} {incl[i]:.0f} 0 GROUP="X"'
                    )
            total += incl[0]
            events = '"Message size" 4 64 8 24 2560\n'
            text = HEAD.format(count=len(lines), rank=rank) + "\n".join(lines)
            text += (
                f"\n0 aggregates\n1 userevents\n# eventname numevents max min mean sumsqr\n{events}"
            )
            (folder / f"profile.{rank}.0.{thread}").write_text(text)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--threads", type=int, default=3)
    parser.add_argument("--paths", type=int, default=5000)
    parser.add_argument("--hatchet", type=float, default=0, help="from_tau's timeout (s)")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        began = time.perf_counter()
        total = write(folder, args.ranks, args.threads, args.paths)
        size = sum(p.stat().st_size for p in folder.iterdir())
        files = len(list(folder.iterdir()))
        print(f"wrote {files} files, {size / 1e6:.0f} MB in {time.perf_counter() - began:.0f} s")
        run = [sys.executable, "-c", CHILD, str(folder)]
        out = subprocess.run(run, capture_output=True, text=True, check=True, cwd=here)
        took, cpu, peak, nodes, rows, got = out.stdout.split()
        load = (
            Path("/proc/loadavg").read_text().split()[:3] if os.path.exists("/proc/loadavg") else []
        )
        theirs = "not run"
        if args.hatchet:
            try:
                done = subprocess.run(
                    [sys.executable, "-W", "ignore", "-c", HATCHET, str(folder)],
                    capture_output=True, text=True, check=True, timeout=args.hatchet,
                )  # fmt: skip
                theirs = "{} s, {} nodes".format(*done.stdout.split())
            except subprocess.TimeoutExpired:
                theirs = f"> {args.hatchet:.0f} s (stopped)"
        print(
            "| files | MB | nodes | rows | seconds | CPU s | peak GB | total = files' | load "
            "| from_tau |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        print(
            f"| {files} | {size / 1e6:.0f} | {nodes} | {rows} | {took} | {cpu} | {peak} | "
            f"{abs(float(got) - total) <= 1e-9 * total} | {' '.join(load)} | {theirs} |"
        )


if __name__ == "__main__":
    main()

"""The synthetic files ``benchmarks/formats.py`` reads, each returning what the reader's result
must add up to: folded stacks and ``perf script`` output of the paths of a random calling context
tree (a C++ code's long names), a trace-event file (``X`` spans nested five deep, ``B``/``E``
pairs, four threads in two processes), a TAU profile directory (TAU's decorated names, ranks ×
threads), and an Nsight Systems ``sqlite`` export written with the real export's own ``CREATE
TABLE`` statements (from the fixture ``tests/data/formats/nsys/saxpy-mpi-cuda.sqlite``)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "formats" / "nsys" / "saxpy-mpi-cuda.sqlite"


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


def write_trace(path: Path, events: int) -> float:
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


HEAD = (
    "{count} templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls # "
    "<metadata><attribute><name>Metric Name</name><value>TIME</value></attribute>"
    "<attribute><name>Node Name</name><value>bench{rank}</value></attribute></metadata>\n"
)


def tau_names(count: int, rng: random.Random) -> list[str]:
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


def tau_tree(paths: int, rng: random.Random) -> list[tuple[str, ...]]:
    """About ``paths`` call paths below ``.TAU application``, each parent before its children."""
    pool = tau_names(600, rng)
    out: list[tuple[str, ...]] = [(".TAU application",)]
    while len(out) < paths:
        parent = out[rng.randrange(len(out))] if len(out) > 1 else out[0]
        if len(parent) < 12:
            child = (*parent, pool[rng.randrange(len(pool))])
            if child not in out[-50:]:
                out.append(child)
    return list(dict.fromkeys(out))


def write_tau(folder: Path, ranks: int, threads: int, paths: int) -> float:
    """The directory; returns the roots' inclusive time summed over every file (µs)."""
    rng = random.Random(57)
    every = tau_tree(paths, rng)
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


TABLES = ("StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
          "CUDA_CALLCHAINS", "NVTX_EVENTS")  # fmt: skip
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


def write_nsys(path: Path, kernels: int) -> float:
    """``kernels`` kernels (and as many API calls) in the export's schema; returns their summed
    durations (ns)."""
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
    (total,) = db.execute("SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()
    db.close()
    return float(total)

"""Python preparation time and bytes sent: cctviz's binary columns vs Hatchet's to_literal + JSON.

For synthetic trees of 1k, 10k, 100k and 1M nodes, prints a table: the time from a GraphFrame to
the widget state ipywidgets sends (adapter + binary encoding + buffer extraction), the bytes sent,
and the same for ``gf.to_literal()`` + ``json.dumps`` (what Hatchet's ``%cct`` sends).
``to_literal`` grows super-linearly; it runs in a child process, stopped after 60 s (said so).

    python benchmarks/serialize.py            # full table
    python benchmarks/serialize.py --smoke    # 1k nodes only (CI)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import synthetic
from ipywidgets.widgets.widget import _remove_buffers

from cctviz import from_graphframe
from cctviz.view.payload import encode

LITERAL_LIMIT_S = 60.0


def ours(gf: Any) -> tuple[float, int]:
    start = time.perf_counter()
    state, _, buffers = _remove_buffers({"_payload": encode(from_graphframe(gf))})
    header = json.dumps(state)
    elapsed = time.perf_counter() - start
    return elapsed, len(header) + sum(memoryview(b).nbytes for b in buffers)


def _literal_child(gf: Any, out: Any) -> None:
    start = time.perf_counter()
    text = json.dumps(gf.to_literal(), default=lambda o: o.item() if hasattr(o, "item") else str(o))
    out.put((time.perf_counter() - start, len(text.encode())))


def hatchet_literal(gf: Any) -> tuple[float, int] | None:
    """to_literal + json.dumps in a forked child; None if it exceeds the limit."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_literal_child, args=(gf, queue))
    child.start()
    child.join(LITERAL_LIMIT_S)
    if child.is_alive():
        child.kill()
        child.join()
        return None
    return queue.get()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="1k nodes only, for CI")
    parser.add_argument("--sizes", type=int, nargs="*", help="node counts (default 1k..1M)")
    args = parser.parse_args()
    sizes = [1_000] if args.smoke else (args.sizes or [1_000, 10_000, 100_000, 1_000_000])

    print(
        f"{'nodes':>9} | {'cctviz prep':>11} | {'cctviz bytes':>12} | {'to_literal+json':>15} | "
        f"{'literal bytes':>13} | {'speed-up':>8}"
    )
    print("-" * 86)
    skip_literal = False
    for n in sizes:
        gf = synthetic.graphframe(n)
        ours(gf)  # warm caches and imports once
        t_ours, b_ours = min((ours(gf) for _ in range(3)), key=lambda r: r[0])
        if skip_literal:
            lit, note = None, "not run (> 60 s)"
        else:
            lit = hatchet_literal(gf)
            note = "stopped at 60 s" if lit is None else ""
            skip_literal = lit is None or lit[0] * 10 > LITERAL_LIMIT_S
        t_lit = f"{lit[0]:.3f} s" if lit else note
        b_lit = f"{lit[1]:,}" if lit else "-"
        speed = f"{lit[0] / t_ours:,.0f}×" if lit else "-"
        print(
            f"{n:>9,} | {t_ours * 1000:>8.1f} ms | {b_ours:>12,} | {t_lit:>15} | {b_lit:>13} | "
            f"{speed:>8}"
        )


if __name__ == "__main__":
    main()

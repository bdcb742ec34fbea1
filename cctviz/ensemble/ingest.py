"""Reading many profiles at once: files are read in this process first and, when what is left
would take more than a few seconds, in worker processes (spawned, not forked: a
forked Jupyter kernel can hang, see cctviz/examples/_serial.py), GraphFrames already in memory
in this process; a progress bar shows in the notebook (tqdm's widget) or the terminal."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .profile import ProfileRows
from .sources import Item, Skipped, read_item

SERIAL_BELOW = 8  # fewer files than this are read in this process: starting workers costs more
POOL_PAYS = 4.0  # seconds of reading left in this process above which workers are started


def _progress(total: int, show: bool) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="cctviz: reading profiles", unit="profile", disable=not show)


def read_all(
    items: list[Item], reducer: str, workers: int | None, progress: bool, ranks: bool = False
) -> Iterator[ProfileRows | Skipped]:
    """Each item read, in the order they finish."""
    files = [i for i in items if i.gf is None]
    in_memory = [i for i in items if i.gf is not None]
    count = workers if workers is not None else min(len(files), os.cpu_count() or 1)
    bar = _progress(len(items), progress)
    try:
        for item in in_memory:
            yield read_item(item, reducer, ranks)
            bar.update()
        # files are read here until the rest would take longer than starting workers costs
        # (each imports pandas, Hatchet and cctviz: ~1.5 s); 100 region profiles never pay it
        start, done = time.perf_counter(), 0
        while done < len(files):
            if count > 1 and len(files) - done >= SERIAL_BELOW and done >= SERIAL_BELOW // 2:
                per_file = (time.perf_counter() - start) / done
                if per_file * (len(files) - done) > POOL_PAYS:
                    break
            yield read_item(files[done], reducer, ranks)
            done += 1
            bar.update()
        rest = files[done:]
        if not rest:
            return
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
            chunk = max(1, len(rest) // (count * 8))
            options = ([reducer] * len(rest), [ranks] * len(rest))
            for result in pool.map(read_item, rest, *options, chunksize=chunk):
                yield result
                bar.update()
    finally:
        bar.close()

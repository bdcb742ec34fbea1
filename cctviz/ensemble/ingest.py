"""Reading many profiles at once: files are read in worker processes (spawned, not forked: a
forked Jupyter kernel can hang, see cctviz/examples/_serial.py), GraphFrames already in memory
in this process; a progress bar shows in the notebook (tqdm's widget) or the terminal."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .profile import ProfileRows
from .sources import Item, Skipped, read_item

SERIAL_BELOW = 8  # fewer files than this are read in this process: starting workers costs more


def _progress(total: int, show: bool) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="cctviz: reading profiles", unit="profile", disable=not show)


def read_all(
    items: list[Item], reducer: str, workers: int | None, progress: bool
) -> Iterator[ProfileRows | Skipped]:
    """Each item read, in the order they finish."""
    files = [i for i in items if i.gf is None]
    in_memory = [i for i in items if i.gf is not None]
    count = workers if workers is not None else min(len(files), os.cpu_count() or 1)
    bar = _progress(len(items), progress)
    try:
        for item in in_memory:
            yield read_item(item, reducer)
            bar.update()
        if count <= 1 or len(files) < SERIAL_BELOW:
            for item in files:
                yield read_item(item, reducer)
                bar.update()
            return
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
            chunk = max(1, len(files) // (count * 8))
            for result in pool.map(read_item, files, [reducer] * len(files), chunksize=chunk):
                yield result
                bar.update()
    finally:
        bar.close()

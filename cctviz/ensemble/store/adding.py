"""``Ensemble.add``: the profiles a source names, read (cctviz.ensemble.store.ingest) and written as
ONE batch, committed once at the end (cctviz.ensemble.store.commit). Values are written as they come
(every ~2 million, so memory stays bounded) and only the profiles' rows are held: an add of
10,000 files is all or nothing too. When another process committed some of the same profiles
first, the batch is abandoned and the profiles still missing are written again as a new one
(from memory when the add was small enough to hold; read again otherwise)."""

from __future__ import annotations

from typing import Any

from .commit import RETRIES, Lost, commit_profiles, profile_rows, write_batch
from .ingest import read_all
from .profile import ProfileRows
from .sources import Item, Skipped
from .store import StoreError, new_batch

FLUSH_ROWS = 2_000_000  # value rows held before they are written (~100 MB)


def add(
    shared: Any, todo: list[Item], reducer: str, workers: Any, progress: bool, ranks: bool
) -> int:
    """Adds the profiles of ``todo`` (none of them in the store when the add started) to the
    store of ``shared`` (an Ensemble's); returns how many it committed."""
    tables, duck = shared.tables, shared.duck
    held: list[ProfileRows] | None = None  # every row read, while they fit in memory
    for _ in range(RETRIES):
        if not (todo if held is None else held):
            return 0  # all of them committed by others
        batch, known = new_batch(), duck.node_keys()
        metas: list[dict[str, Any]] = []
        if held is not None:  # a second try of a small add: no file read again
            write_batch(tables.root, held, batch, known)
            metas = [r.meta for r in held]
        else:
            held, metas = _read_and_write(
                shared, todo, batch, known, (reducer, workers, progress, ranks)
            )
        if not metas:
            return 0
        try:
            added = commit_profiles(tables, profile_rows(tables.root, metas), batch)
        except Lost:  # another process committed some of them: the rest as a new batch
            tables.forget()
            done = duck.hashes()
            todo = [i for i in todo if i.content_hash not in done]
            if held is not None:
                held = [r for r in held if r.meta["hash"] not in done]
            continue
        tables.forget()
        shared.tree = None
        return int(added)
    raise StoreError(f"{tables.root}: no commit after {RETRIES} tries (too many concurrent adds)")


def _read_and_write(
    shared: Any, todo: list[Item], batch: str, known: set[int], options: tuple[Any, ...]
) -> tuple[list[ProfileRows] | None, list[dict[str, Any]]]:
    """Reads ``todo`` and writes it as ``batch``; the rows read (None when they did not fit in
    memory: written as they came) and every profile's row."""
    reducer, workers, progress, ranks = options
    every: list[ProfileRows] | None = []
    pending: list[ProfileRows] = []
    metas: list[dict[str, Any]] = []
    count = 0
    dask = getattr(shared, "dask", None)  # a cluster given as engine=: the files are read there
    client = getattr(dask, "client", None)
    meaning = _meanings(shared.duck.metrics())
    for result in read_all(todo, reducer, workers, progress, ranks, client):
        if isinstance(result, Skipped):
            shared.skipped.append(result)
            continue
        clash = contradiction(result, meaning)
        if clash:
            shared.skipped.append(Skipped(result.meta["source"], clash))
            continue
        pending.append(result)
        metas.append(result.meta)
        count += result.rows
        if count >= FLUSH_ROWS:  # written as they come: memory stays bounded
            write_batch(shared.root, pending, batch, known)
            every, pending, count = None, [], 0
        elif every is not None:
            every.append(result)
    if pending:
        write_batch(shared.root, pending, batch, known)
    return every, metas


def _meanings(metrics: Any) -> dict[str, tuple[str, str]]:
    """The store's metrics as ``contradiction`` compares them: case-folded name → (kind, name)."""
    return {str(m).casefold(): (str(k), str(m)) for m, k in metrics["kind"].items()}


def contradiction(rows: ProfileRows, meaning: dict[str, tuple[str, str]]) -> str | None:
    """Why ``rows`` cannot join the store (None: it can), and otherwise notes its metrics'
    kinds in ``meaning``. A store holds one meaning per metric name: a profile whose metric is
    exclusive where the store's is inclusive (or the reverse: sampled time beside a trace's
    durations, both called ``time``) would have its values summed, or not, as the other's."""
    pairs = {"exclusive", "inclusive"}
    new = list(zip(rows.kinds["metric"], rows.kinds["kind"], strict=True))
    for metric, kind in new:
        had = meaning.get(str(metric).casefold())
        if had is not None and {had[0], str(kind)} == pairs:
            return (
                f"its metric {str(metric)!r} is {kind}, but {had[1]!r} is {had[0]} in this store "
                "(the profiles already in it or earlier in this add): one name, two meanings. "
                "Add it to another store, or rename the metric before adding it (e.g. read it, "
                "rename the column of gf.dataframe, and add the GraphFrame)"
            )
    for metric, kind in new:
        meaning.setdefault(str(metric).casefold(), (str(kind), str(metric)))
    return None

"""What ``Ensemble.add`` takes, as a list of profiles to read: paths (files, globs, folders,
HPCToolkit databases), GraphFrames with their metadata, or a Thicket split into its profiles.
Reading a file happens in ``read_item`` (in a worker process for many files)."""

from __future__ import annotations

import glob
import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ...adapters.graphframe import is_graphframe
from ...core.extras import SKIPPED, MissingHatchet, hatchet
from . import other_formats
from .profile import ProfileRows, graphframe_hash, profile_rows

if TYPE_CHECKING:
    from .caliper import Simple

SUFFIXES = {
    ".cali": "from_caliperreader",
    ".json": "from_caliper",
    ".pstats": "from_cprofile",
    ".prof": "from_cprofile",
}
ACCEPTED = (
    "a path or a glob (Caliper .cali/.json, cProfile .pstats/.prof, an HPCToolkit database "
    "folder, a file cctviz.read reads (folded stacks, perf script, callgrind, speedscope, trace "
    "events, .cpuprofile, pprof, Cube .cubex…), or a folder of such files), a list of paths, a "
    "GraphFrame, a list of GraphFrames, or a Thicket"
)


class Reader(NamedTuple):
    """How a path is read: ``name`` is a Hatchet reader (``GraphFrame``'s method name) or
    ``other_formats.READER``; ``format`` the ``cctviz.read`` format already found in the file's
    content (None: found when the file is read), so that its head is read once."""

    name: str
    format: str | None = None


@dataclass
class Item:
    """One profile to add: a file to read, or a GraphFrame in memory."""

    source: str
    content_hash: str
    metadata: dict[str, Any] = field(default_factory=dict)
    path: str | None = None  # a file or database to read
    gf: Any = None  # a GraphFrame already read
    reader: Reader | None = None  # how ``path`` is read, as found when it was listed


@dataclass
class Skipped:
    """A profile that was not added, and why."""

    source: str
    reason: str


def is_thicket(obj: object) -> bool:
    return (
        type(obj).__name__ == "Thicket" and hasattr(obj, "metadata") and hasattr(obj, "dataframe")
    )


def _reader_of(path: Path, alone: bool = True) -> Reader | None:
    """How ``path`` is read (a Hatchet reader, or ``cctviz.read`` for one of cctviz's own
    formats), or None. ``alone``: a path the user named (its content tells), not one met in a
    folder walk (its name tells: no file under a folder is opened)."""
    if path.is_dir():
        if (path / "experiment.xml").exists():
            return Reader("from_hpctoolkit")
        if (path / "meta.db").exists():
            return Reader("from_hpctoolkit_latest")
        return _own_format(path)
    suffix = path.suffix.lower()
    if suffix == ".json":  # speedscope, trace events…: not Caliper's JSON
        return _own_format(path) or Reader(SUFFIXES[suffix])
    if suffix in SUFFIXES:
        return Reader(SUFFIXES[suffix])
    if alone:
        return _own_format(path)
    return Reader(other_formats.READER) if other_formats.named(path) else None


def _own_format(path: Path) -> Reader | None:
    """``cctviz.read`` with the format it finds in ``path``'s content, or None."""
    format = other_formats.format_of(path)
    return None if format is None else Reader(other_formats.READER, format)


def _files(path: Path) -> list[tuple[Path, Reader | None]]:
    """The profiles a path names, each with how it is read: itself, or the readable files and
    databases under a folder."""
    reader = _reader_of(path)
    if not path.is_dir() or reader:
        return [(path, reader)]
    found: list[tuple[Path, Reader | None]] = []
    for root, dirs, files in os.walk(path):
        here = Path(root)
        for d in list(dirs):
            if reader := _reader_of(here / d):
                found.append((here / d, reader))
                dirs.remove(d)
        for f in files:
            if reader := _reader_of(here / f, alone=False):
                found.append((here / f, reader))
    return sorted(found, key=lambda pair: pair[0])


def file_hash(path: Path) -> str:
    """sha256 of a file's bytes, or of a database folder's files (names and bytes)."""
    h = hashlib.sha256()
    parts = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for part in parts:
        if path.is_dir():
            h.update(str(part.relative_to(path)).encode() + b"\0")
        with open(part, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()


def _metadata_list(metadata: Any, n: int) -> list[dict[str, Any]]:
    if metadata is None:
        return [{} for _ in range(n)]
    if isinstance(metadata, Mapping):
        return [dict(metadata) for _ in range(n)]
    if hasattr(metadata, "to_dict") and hasattr(metadata, "columns"):  # a DataFrame
        rows = metadata.to_dict(orient="records")
    else:
        rows = [dict(m) for m in metadata]
    if len(rows) != n:
        raise ValueError(f"metadata has {len(rows)} rows for {n} profiles: give one per profile")
    return [dict(r) for r in rows]


def items(source: Any, metadata: Any = None) -> tuple[list[Item], list[Skipped]]:
    """The profiles ``source`` names (see ACCEPTED), and the paths that name none."""
    if is_thicket(source):
        return _thicket_items(source), []
    if is_graphframe(source):
        source = [source]
    if isinstance(source, (str, os.PathLike)):
        source = [source]
    if not isinstance(source, Iterable) or isinstance(source, (bytes, Mapping)):
        raise TypeError(f"Ensemble.add takes {ACCEPTED}; got {type(source).__name__}")
    given = list(source)
    if given and all(is_graphframe(g) for g in given):
        metas = _metadata_list(metadata, len(given))
        return [
            Item(f"GraphFrame #{i}", graphframe_hash(g, m), m, gf=g)
            for i, (g, m) in enumerate(zip(given, metas, strict=True))
        ], []
    paths: list[tuple[Path, Reader | None]] = []
    skipped: list[Skipped] = []
    for entry in given:
        if not isinstance(entry, (str, os.PathLike)):
            raise TypeError(
                f"Ensemble.add takes {ACCEPTED}; got a list holding {type(entry).__name__}"
            )
        text = os.fspath(entry)
        matches = sorted(glob.glob(text, recursive=True)) if glob.has_magic(text) else [text]
        if not matches:
            skipped.append(Skipped(text, "no file matches this pattern"))
        for match in matches:
            path = Path(match)
            if not path.exists():
                skipped.append(Skipped(match, "no such file or folder"))
                continue
            found = _files(path)
            if not found or (len(found) == 1 and found[0][1] is None):
                skipped.append(Skipped(match, f"no reader for it; cctviz reads {ACCEPTED}"))
                continue
            paths += found
    metas = _metadata_list(metadata, len(paths)) if paths else []
    out = []
    for (path, reader), meta in zip(paths, metas, strict=True):
        try:
            out.append(Item(str(path), file_hash(path), meta, path=str(path), reader=reader))
        except OSError as error:
            skipped.append(Skipped(str(path), f"cannot be read: {error}"))
    return out, skipped


def _thicket_items(tk: Any) -> list[Item]:
    """A Thicket's profiles, each as a GraphFrame on the Thicket's graph with its metadata."""
    ht = hatchet("adding a Thicket")

    df = tk.dataframe
    level = "profile" if "profile" in df.index.names else df.index.names[-1]
    meta = tk.metadata
    out = []
    for profile in tk.profile:
        part = df.xs(profile, level=level, drop_level=True)
        gf = ht.GraphFrame(tk.graph, part, list(tk.exc_metrics), list(tk.inc_metrics))
        m = dict(meta.loc[profile]) if hasattr(meta, "loc") and profile in meta.index else {}
        m.setdefault("thicket_profile", str(profile))
        out.append(Item(f"Thicket profile {profile}", graphframe_hash(gf, m), m, gf=gf))
    return out


def read_item(item: Item, reducer: str, ranks: bool = False) -> ProfileRows | Skipped:
    """Reads one profile (in a worker process for many); a failure is a Skipped, never raised."""
    try:
        gf = item.gf
        if gf is None:
            from .caliper import read_simple  # (imports Hatchet's reader: when a file is read)
            from .caliper_rows import caliper_rows

            path = Path(item.path or item.source)
            simple = read_simple(path)  # a region profile, parsed once (None: Hatchet reads it)
            if simple is not None:
                rows = caliper_rows(
                    simple,
                    metadata=item.metadata,
                    source=item.source,
                    content_hash=item.content_hash,
                    reducer=reducer,
                )
                if rows is not None:  # its rows from the records: no GraphFrame, no node table
                    return rows
            gf = _read(path, simple, item.reader)
        return profile_rows(
            gf,
            metadata=item.metadata,
            source=item.source,
            content_hash=item.content_hash,
            reducer=reducer,
            ranks=ranks,
        )
    except MissingHatchet:
        return Skipped(item.source, SKIPPED)  # the install line: once per add (warn_skipped)
    except Exception as error:
        text = str(error).strip().splitlines()[-1:] or [""]
        return Skipped(item.source, f"{type(error).__name__}: {text[0][:300]}")


def _read(path: Path, simple: Simple | None, reader: Reader | None = None) -> Any:
    from ...adapters.serial import serial_readers
    from .caliper import graphframe

    how = reader or _reader_of(path)
    if how is None:
        raise ValueError(f"no reader takes {path.name}; cctviz reads {ACCEPTED}")
    if how.name == other_formats.READER:
        return other_formats.read(path, how.format)
    ht = hatchet(f"reading {path.name} (GraphFrame.{how.name})")
    # the same GraphFrame as Hatchet's, ~6× sooner (None: Hatchet reads it)
    quick = graphframe(simple) if simple is not None else None
    if quick is not None:
        return quick
    method = getattr(ht.GraphFrame, how.name, None)
    if how.name == "from_hpctoolkit_latest" and method is None:
        method = ht.GraphFrame.from_hpctoolkit  # UMD reads v4 databases with from_hpctoolkit
    if method is None:
        raise ValueError(f"this Hatchet has no reader {how.name} for {path.name}")
    with serial_readers():
        return method(str(path))

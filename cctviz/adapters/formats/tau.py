"""TAU's text profiles: a directory of ``profile.<node>.<context>.<thread>`` files (one metric)
or of ``MULTI__<metric>`` folders of them (several metrics), or one such file, read into the
tree and numbers Hatchet's ``from_tau`` gives, fast (a LULESH run of 192 files and 5,000 call
paths in seconds, where ``from_tau`` takes minutes).

Each function line of a file is one call path (``a => b => c``) with its calls, subroutine calls,
exclusive and inclusive value: both are measured, so a metric's two columns are each other's
partner (``time`` and ``time (inc)``, in microseconds as TAU times; PAPI counters are counts)
and nothing is derived. ``Calls`` and ``Subrs`` are the node's own counts. A flat line (no
``=>``) gives a root its values when a call path starts with it (the first line, ``.TAU
application``); a file with no call path at all (TAU_CALLPATH off) has each function as a root.
The node is the rank, the thread the thread; every node has a row in every rank and thread (zeros
where it was not reached), as ``from_tau`` makes it. User events are summed over the files into
``metadata["tau.userevents"]``, TAU's metadata of the first file is ``metadata["tau.metadata"]``.

Repairs (``metadata["cctviz.repairs"]``): files cut short keep their complete lines, bytes that
are not UTF-8 are replaced, a call path written twice in a file is summed, files in the
directory not named ``profile.<n>.<c>.<t>`` are ignored, names longer than 4,096 characters are
cut. Refused (:class:`FormatError`): a line that is not a function line, negative or non-finite
numbers, contexts other than 0, metric folders that do not hold the same files.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from cctviz.adapters.formats.calltree import ROOT, CallTree, Column
from cctviz.adapters.formats.tau_profile import WHAT, Profile, header, parse, site
from cctviz.adapters.formats.untrusted import FormatError, Repairs, options

NAME = "tau"
SUFFIXES: tuple[str, ...] = ()
#: what makes a folder one of this format's, for messages (a folder has no suffix)
FOLDER = "a folder of profile.<node>.<context>.<thread> files"
FILE = re.compile(r"^profile\.(\d+)\.(\d+)\.(\d+)$")
MULTI = "MULTI__"
FLAT = -2  # flat lines (no ``=>``) are FLAT - k until one is found to be a root


def sniff(head: bytes, path: Path) -> bool:
    if not path.is_dir():
        return FILE.match(path.name) is not None and header(head) is not None
    for folder in (path, *sorted(path.glob(MULTI + "*"))[:1]):
        first = next(iter(sorted(folder.glob("profile.*"))), None)
        if first is not None and first.is_file():
            with open(first, "rb") as f:
                return header(f.read(256)) is not None
    return False


def read(path: Path, **given: Any) -> Any:
    """A GraphFrame of the TAU profile directory (or file) at ``path``; no options."""
    options(NAME, given, {})
    path = Path(path)
    repairs = Repairs()
    folders = _folders(path, repairs)
    metrics = [_metric(folder, files, repairs) for folder, files in folders]
    names = [_column(m) for m in metrics]
    if len(set(names)) != len(names):
        names = list(metrics)  # TIME and CPU_TIME side by side keep TAU's names
    order = sorted(range(len(names)), key=lambda j: (names[j] != "time", names[j]))
    columns = [
        Column("Calls", unit="calls", derive=False),
        Column("Subrs", unit="calls", derive=False),
    ]
    for j in order:
        unit = _unit(metrics[j])
        inc = names[j] + " (inc)"
        columns += [
            Column(names[j], "exclusive", unit, partner=inc),
            Column(inc, "inclusive", unit, partner=names[j]),
        ]
    tree = CallTree(columns)
    paths = _Paths(tree, repairs)
    events: dict[str, list[float]] = {}
    tau_metadata: dict[str, str] = {}
    first = True  # TAU's metadata is read from the first file
    for rank_j, j in enumerate(order):
        files = folders[j][1]
        exc, inc = names[j], names[j] + " (inc)"
        for (rank, _, thread), file in files.items():
            profile = parse(file, repairs, attributes=first)
            if first:
                first = False
                tau_metadata = {
                    repairs.name(k, "?"): repairs.name(v, "") for k, v in profile.attributes.items()
                }
            paths.add(profile, rank, thread, exc, inc, rank_j == 0)
            if rank_j == 0:
                _events(events, profile)
    if not len(tree):
        raise FormatError(f"{path}: the profiles hold no function line; {WHAT} is needed")
    return tree.graphframe(
        {
            "cctviz.format": NAME,
            "tau.metrics": [metrics[j] for j in order],
            "tau.metadata": tau_metadata,
            "tau.userevents": {
                name: {
                    "numevents": n,
                    "max": hi,
                    "min": lo,
                    "mean": s / n if n else 0.0,
                    "sumsqr": q,
                }
                for name, (n, hi, lo, s, q) in events.items()
            },
            **repairs.metadata(),
        },
        dense=True,
    )


def _folders(path: Path, repairs: Repairs) -> list[tuple[Path, dict[tuple[int, int, int], Path]]]:
    """Each metric's folder and its files by (node, context, thread)."""
    if path.is_file():
        m = FILE.match(path.name)
        key = (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else (0, 0, 0)
        return [(path.parent, {key: path})]
    if not path.is_dir():
        raise FormatError(f"{path}: no such file or directory; {WHAT} is needed")
    multi = sorted(p for p in path.iterdir() if p.is_dir() and p.name.startswith(MULTI))
    top = _files(path, repairs)
    if multi and top:
        raise FormatError(
            f"{path} holds both profile files and {MULTI}<metric> folders; pass one of them "
            "(a folder of profile.<node>.<context>.<thread> files, or one of MULTI__ folders)"
        )
    folders = [(f, _files(f, repairs)) for f in multi] if multi else [(path, top)]
    if not folders[0][1]:
        raise FormatError(
            f"{path} holds no profile.<node>.<context>.<thread> file (nor {MULTI}<metric> "
            f"folders of them); {WHAT} is needed"
        )
    for folder, files in folders[1:]:
        if set(files) != set(folders[0][1]):
            missing = sorted(set(folders[0][1]) ^ set(files))[:3]
            raise FormatError(
                f"{folder} and {folders[0][0]} do not hold the same profile files (e.g. "
                f"node.context.thread {missing}); each metric folder needs one per thread"
            )
    return folders


def _files(folder: Path, repairs: Repairs) -> dict[tuple[int, int, int], Path]:
    out: dict[tuple[int, int, int], Path] = {}
    for p in sorted(folder.glob("profile.*")):
        m = FILE.match(p.name)
        if m is None or not p.is_file():
            repairs.add("files named profile.* but not profile.<node>.<context>.<thread> ignored")
            continue
        key = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if key[1] != 0:
            raise FormatError(
                f"{p}: context {key[1]}; only context 0 is read (profile.<node>.0.<thread>)"
            )
        out[key] = p
    return out


def _metric(folder: Path, files: dict[tuple[int, int, int], Path], repairs: Repairs) -> str:
    """The metric a folder's files hold (their header's, else the folder's name, else TIME)."""
    first = parse(files[min(files)], Repairs()) if files else None
    if first is not None and first.metric:
        return repairs.name(first.metric, "TIME")
    return folder.name[len(MULTI) :] if folder.name.startswith(MULTI) else "TIME"


def _column(metric: str) -> str:
    return "time" if metric in ("TIME", "CPU_TIME") else metric


def _unit(metric: str) -> str | None:
    if "TIME" in metric.upper():
        return "us"  # TAU's times are microseconds
    return "count" if metric.upper().startswith("PAPI") else None


class _Paths:
    """Call paths interned as nodes of ``tree``: by the line's name as written, and by its
    elements (stripped, as ``from_tau`` keys them), with each node's root."""

    def __init__(self, tree: CallTree, repairs: Repairs) -> None:
        self.tree, self.repairs = tree, repairs
        self.by_name: dict[str, int] = {}
        self.prefixes: dict[tuple[str, ...], int] = {}
        self.top: list[int] = []  # node → its root
        self.flat_id: dict[str, int] = {}  # a flat line's name (stripped) → k
        self.flat_names: list[str] = []

    def _flat(self, name: str) -> int:
        """The code of a flat line (``FLAT - k``, ``k`` the k-th distinct flat name)."""
        key = name.strip(" ")
        k = self.flat_id.get(key)
        if k is None:
            k = self.flat_id[key] = len(self.flat_names)
            self.flat_names.append(key)
        return FLAT - k

    def node(self, parts: list[str]) -> int:
        """The node of a call path's elements (outermost first), made with its parents."""
        key = tuple(p.strip(" ") for p in parts)
        node = self.prefixes.get(key)
        if node is not None:
            return node
        known = len(key) - 1
        while known and key[:known] not in self.prefixes:
            known -= 1
        node = self.prefixes[key[:known]] if known else ROOT
        for end in range(known + 1, len(key) + 1):
            up, node = node, self.tree.child(node, site(key[end - 1], self.repairs))
            self.prefixes[key[:end]] = node
            if node == len(self.top):
                self.top.append(node if up == ROOT else self.top[up])
        return node

    def add(
        self, profile: Profile, rank: int, thread: int, exc: str, inc: str, counts: bool
    ) -> None:
        """One file's lines added in ``rank``/``thread``: each call path's own line, and a flat
        line's values on the root of that name (every flat line when no line is a path)."""
        names, numbers, by_name = profile.names, profile.numbers, self.by_name
        found = list(map(by_name.get, names))  # a path's node; FLAT - k for a flat line
        if None in found:
            for k, node in enumerate(found):
                if node is None:
                    name = names[k]
                    node = self.node(name.split("=>")) if "=>" in name else self._flat(name)
                    found[k] = by_name[name] = node
        at = np.asarray(found, np.int64)
        paths = at >= 0
        if paths.any():
            tops = np.unique(np.asarray(self.top, np.int64)[at[paths]])
            starts = {self.tree.site[i].name for i in tops.tolist()}
            if names and "=>" not in names[0]:
                starts.add(names[0].strip(" "))  # the first line is a root (from_tau's)
            codes = [FLAT - self.flat_id[s] for s in starts if s in self.flat_id]
            wanted = np.flatnonzero(np.isin(at, codes))
        else:
            wanted = np.flatnonzero(at <= FLAT)
        for k in wanted.tolist():
            at[k] = self.node([self.flat_names[FLAT - int(at[k])]])
        use = np.flatnonzero(at >= 0)
        twice = len(use) - len(np.unique(at[use]))
        self.repairs.add("call paths written twice in a file (summed)", twice)
        values = {exc: numbers[use, 2], inc: numbers[use, 3]}
        if counts:
            values["Calls"], values["Subrs"] = numbers[use, 0], numbers[use, 1]
        self.tree.add_many(at[use], values, rank=rank, thread=thread)


def _events(events: dict[str, list[float]], profile: Profile) -> None:
    for name, n, hi, lo, mean, sumsqr in profile.events:
        row = events.get(name)
        if row is None:
            events[name] = [n, hi, lo, mean * n, sumsqr]
        else:
            row[0] += n
            row[1] = max(row[1], hi)
            row[2] = min(row[2], lo)
            row[3] += mean * n
            row[4] += sumsqr

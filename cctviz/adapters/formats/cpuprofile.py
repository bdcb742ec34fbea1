"""The V8 CPU profile (``.cpuprofile``) as ``node --cpu-prof``, Chrome DevTools and the
inspector protocol's ``Profile.stop`` write it: a tree of ``nodes`` (each a ``callFrame``, its
``children`` or ``parent``), the node each sample hit (``samples``) and the microseconds between
samples (``timeDeltas``, the first from ``startTime``).

One file is one thread (V8 profiles one isolate): no rank or thread levels. Metrics, both
exclusive (a sample belongs to the frame it hit; inclusive is derived): ``samples`` (a count)
and ``time`` in ``us``, where each sample lasts until the next one and the last until
``endTime``, as Chrome DevTools and speedscope time them, so the total is ``endTime`` minus the
first sample's time. A file without ``samples`` (or with none) gives ``samples`` from each
node's ``hitCount``. Names are ``functionName`` (``(anonymous)`` when empty), files the ``url`` and
lines 1-based (V8's ``lineNumber`` + 1). Nodes with the same frame under the same parent merge.

Repairs (counted under ``metadata["cctviz.repairs"]``): a sample timed before the previous
one (a negative delta, which Chrome writes at times) is moved to the previous one's time, as
speedscope does. Refused with a :class:`FormatError`: a node tree with a cycle or a node with
two parents, samples naming no node, ``samples`` and ``timeDeltas`` of different lengths, and
the legacy ``head`` form of Node ≤ 10.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cctviz.adapters.formats.calltree import ROOT, CallTree, Column, Site
from cctviz.adapters.formats.untrusted import (
    FormatError,
    Repairs,
    number,
    options,
    parse,
    shown,
    text,
)

NAME = "cpuprofile"
SUFFIXES = (".cpuprofile",)
WHAT = "a V8 .cpuprofile (nodes with callFrame, samples, timeDeltas, startTime, endTime)"
_KEY = {k: re.compile(rb'"' + k.encode() + rb'"\s*:') for k in ("nodes", "callFrame", "ph")}


def sniff(head: bytes, path: Path) -> bool:
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    return (
        start == b"{"
        and all(_KEY[k].search(head) for k in ("nodes", "callFrame"))
        and not _KEY["ph"].search(head)  # a Chrome trace holding profile chunks
        and b'"traceEvents"' not in head
        and b'"$schema"' not in head
    )


def read(path: Path, **given: Any) -> Any:
    """A GraphFrame of the V8 CPU profile at ``path`` (option: ``limit``)."""
    opts = options(NAME, given, {"limit": None})
    doc = parse(text(path, opts["limit"]), path, WHAT)
    if isinstance(doc, dict) and "head" in doc and "nodes" not in doc:
        raise FormatError(
            f"{path}: the legacy 'head' form of Node ≤ 10 is not read; {WHAT} is needed "
            "(open it in Chrome DevTools and save it again)"
        )
    if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), list):
        raise FormatError(f"{path}: no list of 'nodes' at the top; {WHAT} is needed")
    repairs = Repairs()
    timed = bool(doc.get("samples"))  # no samples (or none taken): each node's hitCount
    columns = [Column("time", "exclusive", "us")] if timed else []
    tree = CallTree([*columns, Column("samples", "exclusive", "samples")])
    node_of = _tree(doc["nodes"], tree, path, repairs)
    if timed:
        _samples(doc, node_of, tree, path, repairs)
    else:
        for raw in doc["nodes"]:
            hits = raw.get("hitCount", 0)
            if not number(hits) or hits < 0:
                raise FormatError(
                    f"{path}: node {raw['id']} has hitCount {shown(hits)}; a count ≥ 0"
                )
            tree.add(node_of[raw["id"]], {"samples": hits})
    return tree.graphframe({"cctviz.format": NAME, **repairs.metadata()})


def _site(raw: dict[str, Any], path: Path, repairs: Repairs) -> Site:
    frame = raw.get("callFrame")
    if not isinstance(frame, dict):
        raise FormatError(f"{path}: node {shown(raw.get('id'))} has no 'callFrame' object; {WHAT}")
    line, url = frame.get("lineNumber"), frame.get("url")
    return Site(
        repairs.name(frame.get("functionName"), "(anonymous)"),
        repairs.name(url, "") or None,
        int(line) + 1 if number(line) and line >= 0 and line == int(line) else None,
    )


def _tree(nodes: list[Any], tree: CallTree, path: Path, repairs: Repairs) -> dict[Any, int]:
    """Each node id → its call-tree node, walking down from the nodes without a parent."""
    by_id: dict[Any, dict[str, Any]] = {}
    for k, raw in enumerate(nodes):
        if not isinstance(raw, dict) or type(raw.get("id")) is not int or raw["id"] in by_id:
            raise FormatError(f"{path}: nodes[{k}] has no id or a repeated one; {WHAT} is needed")
        by_id[raw["id"]] = raw
    parent: dict[int, int] = {}
    for raw in nodes:
        kids = raw.get("children", [])
        if not isinstance(kids, list):
            raise FormatError(f"{path}: node {raw['id']}'s 'children' is not a list of ids")
        for kid in kids:
            _link(parent, kid, raw["id"], by_id, path)
        if "parent" in raw and parent.get(raw["id"]) != raw["parent"]:
            _link(parent, raw["id"], raw["parent"], by_id, path)
    children: dict[int, list[int]] = {}
    for kid, up in parent.items():
        children.setdefault(up, []).append(kid)
    node_of: dict[Any, int] = {}
    todo = [(i, ROOT) for i in reversed(list(by_id)) if i not in parent]
    while todo:
        i, up = todo.pop()
        node_of[i] = tree.child(up, _site(by_id[i], path, repairs))
        todo.extend((kid, node_of[i]) for kid in reversed(children.get(i, [])))
    if len(node_of) != len(by_id):
        lost = sorted(set(by_id) - set(node_of))[:5]
        raise FormatError(f"{path}: nodes {lost} are in a cycle, not a tree; {WHAT} is needed")
    return node_of


def _link(parent: dict[int, int], kid: Any, up: int, by_id: dict[Any, Any], path: Path) -> None:
    if kid not in by_id or up not in by_id:
        raise FormatError(
            f"{path}: node {shown(up)} names a child or parent {shown(kid)} that is no node"
        )
    if kid in parent and parent[kid] != up:
        raise FormatError(f"{path}: node {kid} has two parents ({parent[kid]} and {up})")
    parent[kid] = up


def _samples(
    doc: dict[str, Any], node_of: dict[Any, int], tree: CallTree, path: Path, repairs: Repairs
) -> None:
    samples, deltas = doc.get("samples"), doc.get("timeDeltas")
    start, end = doc.get("startTime"), doc.get("endTime")
    if not isinstance(samples, list) or not isinstance(deltas, list) or not samples:
        raise FormatError(f"{path}: 'samples' and 'timeDeltas' must be lists; {WHAT} is needed")
    if len(samples) != len(deltas):
        raise FormatError(
            f"{path}: {len(samples)} samples but {len(deltas)} timeDeltas; one delta per sample"
        )
    if not number(start) or not number(end):
        raise FormatError(f"{path}: 'startTime' and 'endTime' must be numbers (microseconds)")
    times: list[float] = []
    now, back = float(start), 0
    for k, delta in enumerate(deltas):
        if not number(delta):
            raise FormatError(f"{path}: timeDeltas[{k}] is {shown(delta)}; a number (microseconds)")
        now += delta
        if times and now < times[-1]:
            back += 1
            times.append(times[-1])
        else:
            times.append(now)
    repairs.add("samples timed before the previous one moved to its time", back)
    stop = max(float(end), times[-1])
    own: dict[int, list[float]] = {}
    for k, sample in enumerate(samples):
        node = node_of.get(sample) if type(sample) is int else None
        if node is None:
            raise FormatError(f"{path}: samples[{k}] is {shown(sample)}, which is no node's id")
        row = own.setdefault(node, [0.0, 0.0])
        row[0] += (times[k + 1] if k + 1 < len(times) else stop) - times[k]
        row[1] += 1
    for node, (time, count) in own.items():
        tree.add(node, {"time": time, "samples": count})

"""speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json), as
py-spy and speedscope itself write it (and other profilers export it): frames shared by
several profiles, each profile ``sampled`` (stacks with weights) or ``evented`` (open and close
events of frames).

Each profile is one thread of the GraphFrame (its index in the file; the profiles' names are in
``metadata["cctviz.threads"]``); ``profile=`` (an index or a name) reads one of them alone.
A sampled profile's weights are exclusive (the leaf of each stack ran for them) in the unit the
profile names: ``time`` in ``s``/``ms``/``us``/``ns``, ``bytes``, or ``weight`` for ``none``;
``samples`` counts the stacks. An evented profile's spans are inclusive (a frame's open to its
close), so their exclusive partner is a span minus the spans it opened; when the file mixes
evented and sampled profiles of the same metric the evented ones give their self time instead
(the same numbers, one kind per column). Profiles timed in different units are converted to
the finest of them (counted in ``cctviz.repairs``).

Repairs (counted under ``metadata["cctviz.repairs"]``): a sample with an empty stack is kept on a
root named ``(no stack)``; a close event with nothing open is ignored; frames still open at the
end are closed at the profile's ``endValue`` (or its last event, if later). Refused with a
:class:`FormatError`: events out of time order, a close that is not of the innermost open frame,
negative weights, frame indices that are not in ``shared.frames``.
"""

from __future__ import annotations

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

NAME = "speedscope"
SUFFIXES = (".speedscope.json",)
SCHEMA = b"speedscope.app/file-format-schema.json"
WHAT = "a speedscope file ($schema, shared.frames, profiles)"
#: speedscope's unit → (metric, unit cctviz says, nanoseconds per unit for times)
UNITS: dict[str, tuple[str, str | None, int]] = {
    "nanoseconds": ("time", "ns", 1),
    "microseconds": ("time", "us", 1_000),
    "milliseconds": ("time", "ms", 1_000_000),
    "seconds": ("time", "s", 1_000_000_000),
    "bytes": ("bytes", "bytes", 0),
    "none": ("weight", None, 0),
}
NO_STACK = Site("(no stack)")


def sniff(head: bytes, path: Path) -> bool:
    return b'"$schema"' in head and SCHEMA in head


def read(path: Path, **given: Any) -> Any:
    """A GraphFrame of the speedscope file at ``path`` (options: ``profile``, ``limit``)."""
    opts = options(NAME, given, {"profile": None, "limit": None})
    doc = parse(text(path, opts["limit"]), path, WHAT)
    if not isinstance(doc, dict) or not isinstance(doc.get("profiles"), list):
        raise FormatError(f"{path}: no list of 'profiles' at the top; {WHAT} is needed")
    repairs = Repairs()
    sites = _sites(doc.get("shared"), path, repairs)
    chosen = _chosen(doc["profiles"], opts["profile"], path)
    units = [_unit(profile, i, path) for i, profile in chosen]
    sampled = {UNITS[u][0] for (_, p), u in zip(chosen, units, strict=True) if _sampled(p)}
    times = {UNITS[u][2] for u in units if UNITS[u][2]}
    finest = min(times, default=1)
    if len(times) > 1:
        converted = sum(UNITS[u][2] not in (0, finest) for u in units)
        repairs.add(f"profiles converted to {_unit_of(finest)}", converted)
    metrics: dict[str, Column] = {}
    for unit in units:
        metric, said, scale = UNITS[unit]
        said = _unit_of(finest) if scale else said
        if metric in sampled:
            metrics[metric] = Column(metric, "exclusive", said)
        else:
            metrics[metric] = Column(metric, "inclusive", said)
    if sampled:
        metrics["samples"] = Column("samples", "exclusive", "samples")
    tree = CallTree(list(metrics.values()))
    for thread, ((i, profile), unit) in enumerate(zip(chosen, units, strict=True)):
        metric, _, scale = UNITS[unit]
        factor = scale // finest if scale else 1
        where = f"{path}: profile {i}"
        if _sampled(profile):
            _read_sampled(tree, profile, sites, metric, factor, thread, where, repairs)
        else:
            exclusive = metrics[metric].kind == "exclusive"
            _read_evented(tree, profile, sites, metric, factor, exclusive, thread, where, repairs)
    if not tree.threads:  # no value added
        raise FormatError(f"{path}: the profiles hold no sample or event; {WHAT} is needed")
    names = {str(t): repairs.name(p.get("name"), f"profile {i}") for t, (i, p) in enumerate(chosen)}
    return tree.graphframe(
        {
            "cctviz.format": NAME,
            "cctviz.threads": names,
            "speedscope.name": repairs.name(doc.get("name"), ""),
            "speedscope.exporter": repairs.name(doc.get("exporter"), ""),
            **repairs.metadata(),
        }
    )


def _sampled(profile: dict[str, Any]) -> bool:
    return profile.get("type") == "sampled"


def _unit_of(scale: int) -> str:
    return {1: "ns", 1_000: "us", 1_000_000: "ms", 1_000_000_000: "s"}[scale]


def _sites(shared: Any, path: Path, repairs: Repairs) -> list[Site]:
    frames = shared.get("frames") if isinstance(shared, dict) else None
    if not isinstance(frames, list):
        raise FormatError(f"{path}: no list 'shared.frames'; {WHAT} is needed")
    out = []
    for j, frame in enumerate(frames):
        if not isinstance(frame, dict):
            raise FormatError(f"{path}: shared.frames[{j}] is not an object with a 'name'")
        line = frame.get("line")
        file = frame.get("file")
        out.append(
            Site(
                repairs.name(frame.get("name"), "(anonymous)"),
                repairs.name(file, "") or None if file is not None else None,
                int(line) if number(line) and line == int(line) else None,
            )
        )
    return out


def _chosen(profiles: list[Any], wanted: Any, path: Path) -> list[tuple[int, dict[str, Any]]]:
    for i, profile in enumerate(profiles):
        if not isinstance(profile, dict) or profile.get("type") not in ("sampled", "evented"):
            raise FormatError(
                f"{path}: profiles[{i}] is not a 'sampled' or 'evented' profile; {WHAT} is needed"
            )
    every = list(enumerate(profiles))
    if wanted is None:
        return every
    picked = [
        (i, p)
        for i, p in every
        if (wanted == i if isinstance(wanted, int) else wanted == p.get("name"))
    ]
    if not picked:
        names = [p.get("name") for p in profiles]
        raise ValueError(
            f"{path} has no profile {shown(wanted)}: its profiles are {shown(names, 300)} "
            "(pass an index or a name)"
        )
    return picked[:1]


def _unit(profile: dict[str, Any], i: int, path: Path) -> str:
    unit = profile.get("unit", "none")
    if unit not in UNITS:
        raise FormatError(
            f"{path}: profiles[{i}] has unit {shown(unit)}; accepted: {sorted(UNITS)}"
        )
    return str(unit)


def _read_sampled(
    tree: CallTree,
    profile: dict[str, Any],
    sites: list[Site],
    metric: str,
    factor: int,
    thread: int,
    where: str,
    repairs: Repairs,
) -> None:
    samples, weights = profile.get("samples"), profile.get("weights")
    if not isinstance(samples, list):
        raise FormatError(f"{where}: 'samples' is not a list of stacks")
    if weights is None:
        weights = [1] * len(samples)
    if not isinstance(weights, list) or len(weights) != len(samples):
        raise FormatError(f"{where}: 'weights' is not a list as long as 'samples' ({len(samples)})")
    nodes: dict[tuple[int, ...], int] = {}
    own: dict[int, list[float]] = {}
    for k, (stack, weight) in enumerate(zip(samples, weights, strict=True)):
        if not number(weight) or weight < 0:
            raise FormatError(f"{where}: weights[{k}] is {shown(weight)}; a number ≥ 0 is needed")
        if not isinstance(stack, list):
            raise FormatError(f"{where}: samples[{k}] is not a list of frame indices")
        key = tuple(stack)
        node = nodes.get(key)
        if node is None:
            if not stack:
                node = tree.child(ROOT, NO_STACK)
            else:
                for f in stack:
                    if type(f) is not int or not 0 <= f < len(sites):
                        raise FormatError(
                            f"{where}: samples[{k}] names frame {shown(f)}; frames are 0 to "
                            f"{len(sites) - 1} (shared.frames)"
                        )
                node = tree.path(sites[f] for f in stack)
            nodes[key] = node
        if not stack:
            repairs.add("samples with an empty stack kept on a root '(no stack)'")
        row = own.setdefault(node, [0.0, 0.0])
        row[0] += weight * factor
        row[1] += 1
    for node, (weight, count) in own.items():
        tree.add(node, {metric: weight, "samples": count}, thread=thread)


def _read_evented(
    tree: CallTree,
    profile: dict[str, Any],
    sites: list[Site],
    metric: str,
    factor: int,
    exclusive: bool,
    thread: int,
    where: str,
    repairs: Repairs,
) -> None:
    events = profile.get("events")
    if not isinstance(events, list):
        raise FormatError(f"{where}: 'events' is not a list")
    stack: list[tuple[int, int, float]] = []  # (frame, node, opened at)
    own: dict[int, float] = {}
    last = None
    for k, event in enumerate(events):
        at, frame = (event.get("at"), event.get("frame")) if isinstance(event, dict) else (0, 0)
        kind = event.get("type") if isinstance(event, dict) else None
        if kind not in ("O", "C") or not number(at) or type(frame) is not int:
            raise FormatError(
                f"{where}: events[{k}] is not {{type: O|C, at: number, frame: index}}"
            )
        if not 0 <= frame < len(sites):
            raise FormatError(
                f"{where}: events[{k}] names frame {frame}; frames are 0 to {len(sites) - 1}"
            )
        if last is not None and at < last:
            raise FormatError(
                f"{where}: events[{k}] at {at} comes before the previous event at {last}"
            )
        if exclusive and stack and last is not None:
            own[stack[-1][1]] = own.get(stack[-1][1], 0.0) + (at - last) * factor
        last = at
        if kind == "O":
            node = tree.child(stack[-1][1] if stack else ROOT, sites[frame])
            stack.append((frame, node, at))
        elif not stack:
            repairs.add("close events with no frame open ignored")
        elif stack[-1][0] != frame:
            raise FormatError(
                f"{where}: events[{k}] closes frame {frame} ({shown(sites[frame].name)}) but the "
                f"innermost open frame is {stack[-1][0]} ({shown(sites[stack[-1][0]].name)})"
            )
        else:
            _, node, opened = stack.pop()
            if not exclusive:
                own[node] = own.get(node, 0.0) + (at - opened) * factor
    if stack:
        end = profile.get("endValue")
        end = max(end, last) if number(end) and last is not None else last
        repairs.add("frames open at the end closed at the profile's end", len(stack))
        if exclusive and last is not None and end is not None:
            own[stack[-1][1]] = own.get(stack[-1][1], 0.0) + (end - last) * factor
        while stack and end is not None:
            _, node, opened = stack.pop()
            if not exclusive:
                own[node] = own.get(node, 0.0) + (end - opened) * factor
    for node, value in own.items():
        tree.add(node, {metric: value}, thread=thread)

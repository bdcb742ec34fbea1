"""Provenance of a figure: what was drawn, from what, by which cctviz, when.

The same record goes into the SVG's ``<metadata>`` (as JSON, with Dublin Core beside it), the
PDF's document information and the PNG's text chunks, so a figure found in a paper's folder
says how to draw it again.
"""

from __future__ import annotations

import datetime
import io
import json
import pathlib
from typing import Any

from .._version import __version__

KEY = "cctviz:provenance"
_MISSING = "writing PDF and PNG figures needs {}: pip install 'cctviz[export]'"


def record(
    *,
    source: str | None,
    nodes: int,
    color_by: str,
    size_by: str,
    units: dict[str, str],
    reducer: str | None,
    view_state: dict[str, Any],
    ensemble: dict[str, Any] | None = None,
    trend: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The provenance record (JSON-serialisable); of an ensemble view, also its store and
    filter (``ensemble``) and the trend pane drawn below the tree (``trend_record``)."""
    prov = {
        "generator": f"cctviz {__version__}",
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "source": source,
        "nodes": nodes,
        "metrics": {"color": color_by, "size": size_by},
        "units": units,
        "reducer": reducer,
        "view_state": view_state,
    }
    if ensemble is not None:
        prov["ensemble"] = ensemble
    if trend is not None:
        prov["trend"] = trend
    return prov


def trend_record(pane: dict[str, Any], log: bool) -> dict[str, Any]:
    """What a figure records of its trend pane (``w._trend``): the node (path of names), the
    metric, the axis, the nodes drawn and how the values were made."""
    by, reducer, metric = pane["by"], pane["reducer"], pane["metric"]
    spread = "; each category's bar: its profiles' 25th to 75th percentile" * (
        pane["kind"] == "category"
    )
    return {
        "node": [step["name"] for step in pane["path"]],
        "metric": metric,
        "by": by,
        "axis": pane["kind"],
        "log": log,
        "reducer": reducer,
        "profiles": pane["profiles"],
        "nodes": [s["name"] for s in pane["series"]],
        "children": pane["children"],
        "method": (
            f"{reducer} of {metric} over the profiles sharing each value of {by} "
            f"(cctviz.Ensemble.trend); the node's largest children by the tree's value, "
            f"on one y scale{spread}"
        ),
    }


def _summary(prov: dict[str, Any]) -> str:
    metrics = prov["metrics"]
    of = f" of {prov['source']}" if prov.get("source") else ""
    ens = prov.get("ensemble")
    if ens:
        where = f" where {ens['where']}" if ens.get("where") else ""
        of += f" ({ens['profiles']} of {ens['of']} profiles{where})"
    summary = f"Calling context tree{of}: colour {metrics['color']}, size {metrics['size']}"
    table = prov.get("table")
    if table:  # a tree-table figure (cctviz.figure.table_figure)
        summary = f"Tree-table{of}: {table['rows']} contexts; {', '.join(table['columns'])}"
    trend = prov.get("trend")
    if trend:
        summary += f"; trend of {' / '.join(trend['node'])} by {trend['by']}: {trend['method']}"
    return summary


def add_to_pdf(path: pathlib.Path, prov: dict[str, Any], title: str) -> None:
    """Write the record into the PDF's document information (pypdf)."""
    try:
        from pypdf import PdfReader, PdfWriter
    except ImportError as error:
        raise ImportError(_MISSING.format("pypdf")) from error

    created = datetime.datetime.fromisoformat(prov["created"])
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(path.read_bytes())))
    writer.add_metadata(
        {
            "/Title": title,
            "/Subject": _summary(prov),
            "/Keywords": "calling context tree, performance profile, cctviz",
            "/Creator": prov["generator"],
            "/CreationDate": created.strftime("D:%Y%m%d%H%M%SZ"),
            "/CctvizProvenance": json.dumps(prov),
        }
    )
    with path.open("wb") as out:
        writer.write(out)


def png_info(prov: dict[str, Any], title: str) -> Any:
    """PNG text chunks with the record (Pillow)."""
    try:
        from PIL.PngImagePlugin import PngInfo
    except ImportError as error:
        raise ImportError(_MISSING.format("Pillow")) from error

    info = PngInfo()
    info.add_itxt("Title", title)
    info.add_itxt("Description", _summary(prov))
    info.add_itxt("Software", prov["generator"])
    info.add_itxt("Creation Time", prov["created"])
    if prov.get("source"):
        info.add_itxt("Source", str(prov["source"]))
    info.add_itxt(KEY, json.dumps(prov))
    return info

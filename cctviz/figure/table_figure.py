"""The tree-table figure (``CCT.table_figure``): rows of calling contexts, indented by depth,
with one column per metric and its share of the total where the metric adds up — a paper's
table — as SVG, PDF or PNG. The page's bundle lays it out in headless Chromium (the text is
measured there, and the cells say what the table pane's say); PDF and PNG are made, and the
provenance written, as for the tree's figures: it is a ``Figure`` of ``what="table"``."""

from __future__ import annotations

import pathlib
from typing import Any

import pandas as pd

from ..core import progress
from . import render
from .of_view import Figure
from .size import length

TABLE_OPTIONS = ("width", "style", "font_family", "font_size", "title", "units", "dpi")
"""Options of a tree-table figure (``rows`` and ``metrics`` choose what it shows)."""


def table_stages(path: str | pathlib.Path | None) -> tuple[str, ...]:
    """What drawing a tree-table reports doing (``cctviz.core.progress``), in order."""
    kind = None if path is None else render.figure_format(path)
    rendering = () if kind in (None, ".svg") else (f"rendering the {kind[1:].upper()} in Chromium",)
    return ("starting Chromium", "laying out the table in Chromium", *rendering, "writing the file")


def table_figure_of(frame: pd.DataFrame, record: dict[str, Any], **options: Any) -> Figure:
    """Draw ``frame`` (``CCT.table_frame``'s columns: ``depth``, ``name``, then the metrics, its
    ``attrs["totals"]`` what the shares divide by) with the view's provenance ``record``
    (``provenance.record``). Options: see ``TABLE_OPTIONS`` and ``CCT.table_figure``."""
    unknown = sorted(set(options) - set(TABLE_OPTIONS))
    if unknown:
        raise TypeError(
            f"unknown table figure option {unknown[0]!r}; accepted: "
            + ", ".join(("rows", "metrics", *TABLE_OPTIONS))
        )
    width = options.pop("width", None)
    # checked as a tree's figure is; the height follows from the rows
    checked = render.figure_options(
        width=width if width is not None else 100, height=100, **{"style": "paper", **options}
    )
    columns = [c for c in frame.columns if c not in ("depth", "name")]
    totals = frame.attrs.get("totals", {})
    rows = {
        "columns": columns,
        "totals": [totals.get(c) for c in columns],
        "name": [str(n) for n in frame["name"]],
        "depth": [int(d) for d in frame["depth"]],
        "values": [[None if pd.isna(v) else float(v) for v in frame[c]] for c in columns],
    }
    record = {**record, "units": checked.units, "table": _table_record(frame, columns, totals)}
    js_options = {
        "width": None if width is None else checked.width.px,
        "widthAttr": None if width is None else checked.width.attr,
        "style": checked.style,
        "fontFamily": checked.font_family,
        "fontSize": checked.font_size,
        "title": checked.title,
        "units": checked.units,
        "provenance": record,
    }
    progress.stage("laying out the table in Chromium")
    drawn = render.in_figure_page("([rows, o]) => cctvizTableFigure(rows, o)", [rows, js_options])
    natural_w, natural_h = float(drawn["width"]), float(drawn["height"])
    shown_w = checked.width.px if width is not None else natural_w
    sized = render.FigureOptions(
        width=checked.width if width is not None else length(round(natural_w), "width"),
        height=length(max(1, round(natural_h * shown_w / natural_w)), "height"),
        style=checked.style,
        font_family=checked.font_family,
        font_size=checked.font_size,
        dpi=checked.dpi,
        title=checked.title,
        units=checked.units,
    )
    return Figure(str(drawn["svg"]), len(frame), sized, record, what="table")


def _table_record(
    frame: pd.DataFrame, columns: list[str], totals: dict[str, Any]
) -> dict[str, Any]:
    """What the provenance says of the table: its columns, their totals, its rows' ids."""
    return {
        "columns": columns,
        "totals": {c: totals.get(c) for c in columns},
        "rows": len(frame),
        "ids": [int(i) for i in frame.index],
        "shares": "value ÷ the whole profile's total (its inclusive base at the roots)",
    }

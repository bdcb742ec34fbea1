"""The Python package's layers, lowest first: a module imports only from its own layer and the
layers before it (imports inside functions count; ``if TYPE_CHECKING:`` imports do not), and no
modules import each other in a circle. The one statement of that order, as ``js/layers.mjs`` is
the front end's: ``tests/test_layers.py`` checks every import of every module against it, and
``docs/architecture.md`` shows it.

Each layer lists its modules as dotted names relative to ``cctviz``; a name ending in ``.*`` is a
folder (a package and everything in it). ``KNOWN`` lists the imports that still go against the
order, each with why: the test fails on any other, and on a known one that is gone (so the list
only shrinks)."""

from __future__ import annotations

LAYERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "core",
        "the node table and what every layer shares: call paths, text columns, ids, the contract "
        "with the front end, Markdown text, progress",
        ("_version", "core.*"),
    ),
    ("adapters", "readers: Hatchet and Thicket data into the node table", ("adapters.*",)),
    (
        "analysis",
        "what is computed from tables: alignment and compare, merged runs, scaling, flat and "
        "lexical profiles, frames, links",
        ("analysis.*",),
    ),
    (
        "view",
        "a view of a table: view state, level of detail, the payload the front end decodes, "
        "selection, the view in words",
        ("view.*",),
    ),
    (
        "ensemble store",
        "many runs on disk: Delta Lake tables (Parquet, atomic commits), their format, ingest",
        ("ensemble.store.*",),
    ),
    (
        "ensemble engine",
        "queries over the store: DuckDB in process, Dask on a cluster, reducers, where",
        ("ensemble.engine.*",),
    ),
    (
        "ensemble analysis",
        "statistics over runs: trends, configurations, changes, reports, GraphFrame and Thicket",
        ("ensemble.analysis.*",),
    ),
    (
        "ensemble",
        "the Ensemble users hold: the store, an engine and the statistics behind one object",
        ("ensemble", "ensemble.ensemble", "ensemble.views", "ensemble.synthetic"),
    ),
    (
        "figure",
        "exported figures: the headless browser that draws them and their provenance",
        ("figure.*",),
    ),
    ("widget", "the anywidget views (CCT, compare) and their parts", ("widget.*",)),
    (
        "top",
        "what users import: the package, its examples, headless export",
        ("__init__", "examples.*", "headless", "layers"),
    ),
)

KNOWN: dict[tuple[str, str], str] = {}
"""(module, imported module) pairs that go up a layer or close a circle, and why they still do."""


def layer_of(module: str) -> int:
    """The position in ``LAYERS`` of a module (dotted, relative to ``cctviz``); -1: in none."""
    for i, (_name, _says, members) in enumerate(LAYERS):
        for member in members:
            if member.endswith(".*"):
                folder = member[:-2]
                if module == folder or module.startswith(folder + "."):
                    return i
            elif module == member:
                return i
    return -1

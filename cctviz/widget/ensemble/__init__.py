"""An ensemble's view: the parts a ``CCT`` of a ``cctviz.Ensemble`` owns (``parts.py``: its
strip, changes and trend pane, each an ``owned.OwnedPart``), the payloads they send (the strip's
points, the trend pane's series), the compare view that explains a change, and the node table of
an ensemble reduced by its engine (``table.py``). Nothing here imports the ``ensemble`` extra
(DuckDB, pyarrow) until an ensemble is shown."""

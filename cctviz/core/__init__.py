"""The core layer: the node table and what every other layer shares — call paths and the ids of
saved references, text columns, the contract with the front end, Markdown text, progress, and the
small tree algorithms (ranking, subtrees, rebuilding, "too small to judge"). It imports nothing
of cctviz outside itself."""

"""The analysis layer: what is computed from node tables — alignment of runs and their compare
table, merged runs, scaling studies, flat and lexical profiles, the frames of a node, linked
views. It reads the core and the adapters; it knows no view and no widget."""

"""The ensemble's engines: queries over the store — DuckDB in process, Dask on a cluster — the
reducers they compute, the checked ``where`` language, and the reduced tree's order. They read
the store; they know no statistics over runs."""

"""The ensemble's store: Delta Lake tables on disk (Parquet underneath, atomic commits), their
format and migrations, the rows a profile becomes, reading the sources, ingest (in the notebook's
processes or Dask workers), verifying and repairing. It knows no engine and no statistics."""

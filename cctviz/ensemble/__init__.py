"""Ensembles of profiles: a columnar store (Parquet) on disk, reduced per calling context by
DuckDB in process, or by Dask on a cluster. See ``cctviz.Ensemble``."""

from .configs import ConfigurationWarning
from .ensemble import Ensemble
from .store import StoreError
from .where import WhereError

__all__ = ["ConfigurationWarning", "Ensemble", "StoreError", "WhereError"]

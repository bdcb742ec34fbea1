"""Ensembles of profiles: a columnar store (Parquet) on disk, reduced per calling context by
DuckDB in process, or by Dask on a cluster. See ``cctviz.Ensemble``."""

from .analysis.configs import ConfigurationWarning
from .engine.where import WhereError
from .ensemble import Ensemble
from .store.store import StoreError

__all__ = ["ConfigurationWarning", "Ensemble", "StoreError", "WhereError"]

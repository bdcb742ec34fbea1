"""The store's folder: opened, made (with its marker and the empty profiles table), or migrated
from an older format. Apart from ``store`` (the tables and their snapshots), because making and
migrating a store commit to it (``commit``, ``migrate``), and those build on ``store``."""

from __future__ import annotations

import os
from pathlib import Path

from .commit import create_profiles
from .migrate import migrate
from .store import FORMAT, MARKER, StoreError, read_marker, write_marker


def open_folder(path: str | os.PathLike[str], create: bool) -> Path:
    """The store's folder (created when asked and missing; a store of format 1 is migrated)."""
    root = Path(path).expanduser()
    if root.exists() and not root.is_dir():
        raise StoreError(
            f"{root} is a file: an ensemble store is a folder (cctviz.Ensemble('runs.cctviz') "
            "makes one); profiles are added to it with ens.add(files)"
        )
    marker = root / MARKER
    if not marker.exists() and root.exists():
        # another process making the same store at this moment may have its marker half-written
        # (a temporary file) or written just now: look again before saying it is not a store
        others = [p for p in root.iterdir() if not p.name.startswith(f".{MARKER}.")]
        if others and not marker.exists():
            raise StoreError(
                f"{root} is a folder that is not an ensemble store (no {MARKER}): give an empty "
                "or new folder"
            )
    if marker.exists():
        found = read_marker(marker)
        if found.get("version") == 1:
            migrate(root)
        return root
    if not create:
        raise StoreError(f"no ensemble store at {root}")
    root.mkdir(parents=True, exist_ok=True)
    write_marker(root, FORMAT)
    create_profiles(root)  # the empty store's versions (commit_profiles makes it if killed here)
    return root

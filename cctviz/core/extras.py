"""What an optional dependency that is missing means, said once and with the install line.

Hatchet is not a hard dependency (the UMD ``hatchet`` and LLNL's ``llnl-hatchet`` install the
same ``hatchet`` module and cannot be installed together), so whatever needs it imports it
through ``hatchet(what)``: a missing Hatchet is a ``MissingHatchet`` that says what needed it and
which extra installs it, never a bare ``No module named 'hatchet'``."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Iterable
from types import ModuleType

EXTRAS = (
    'pip install "cctviz[umd]" (the University of Maryland\'s hatchet 1.4.1, with pandas < 3 '
    'and caliper-reader < 0.4, which it needs) or "cctviz[llnl]" (LLNL\'s llnl-hatchet and '
    "llnl-thicket); one of the two: both install the module `hatchet`"
)
# the reason an ensemble's skipped file gives (the install line is said once, by ``warn_skipped``)
SKIPPED = "MissingHatchet: reading this file needs Hatchet, which is not installed"


class MissingHatchet(ModuleNotFoundError):
    """Hatchet (either distribution) is needed and not installed."""


def missing(what: str) -> MissingHatchet:
    """The error for ``what`` (a phrase: "reading a TAU profile") when Hatchet is missing."""
    return MissingHatchet(f"{what} needs Hatchet, which is not installed: {EXTRAS}", name="hatchet")


def hatchet(what: str, module: str = "hatchet") -> ModuleType:
    """``module`` (``hatchet`` or one of its submodules), or a ``MissingHatchet`` naming
    ``what`` needed it and the extras that install it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] != "hatchet":
            raise
        raise missing(what) from error


class HatchetWarning(UserWarning):
    """Files were skipped because Hatchet is not installed."""


def warn_skipped(reasons: Iterable[str]) -> None:
    """One warning, with the install line, for the files of one ``Ensemble.add`` skipped
    because Hatchet is missing (their ``skipped`` rows give only ``SKIPPED``)."""
    count = sum(1 for r in reasons if r == SKIPPED)
    if count:
        files = "1 file was" if count == 1 else f"{count} files were"
        warnings.warn(
            f"{files} skipped (see ens.skipped): cctviz reads Caliper region profiles (.cali) "
            f"without Hatchet, other files need it, and it is not installed: {EXTRAS}",
            HatchetWarning,
            stacklevel=3,
        )

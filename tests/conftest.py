"""Shared fixtures: the real profiles (see profiles.py for where they come from), loaded once per
test session."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from .profiles import HAVE_SHARED, REQUIRE_SHARED, SHARED_DATA, Profile, readable, require

_cache: dict[str, Any] = {}


@pytest.fixture(scope="session", autouse=True)
def _no_forked_reader_pools() -> Any:
    """Hatchet's HPCToolkit reader forks a pool it never joins; forked from this process, which
    runs browser threads, its workers can hang the session's exit (cctviz/adapters/serial.py)."""
    from cctviz.adapters.serial import serial_readers

    with serial_readers():
        yield


def pytest_configure(config: pytest.Config) -> None:
    if REQUIRE_SHARED and not HAVE_SHARED:
        raise pytest.UsageError(
            f"CCTVIZ_REQUIRE_SHARED is set but the shared profiles are missing: {SHARED_DATA} "
            "(set CCTVIZ_SHARED_DATA to their folder, or unset CCTVIZ_REQUIRE_SHARED to use the "
            "in-repo copies in tests/data/profiles)"
        )


def pytest_report_header(config: pytest.Config) -> str:
    if HAVE_SHARED:
        return f"cctviz profiles: {SHARED_DATA}"
    return "cctviz profiles: in-repo copies only (tests/data/profiles, cctviz/examples/data)"


def load(profile: Profile) -> Any:
    """Read a profile once per session (readers are slow); tests must not modify the result.
    Skips the test when the profile is not here (see profiles.require)."""
    require(profile.folder, profile.reader)
    if profile.id not in _cache:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the readers' own deprecation noise
            _cache[profile.id] = profile.load()
    return _cache[profile.id]


@pytest.fixture(params=readable(), ids=lambda p: p.id)
def profile(request: pytest.FixtureRequest) -> tuple[Profile, Any]:
    """Each readable real profile with its GraphFrame (or Thicket)."""
    return request.param, load(request.param)

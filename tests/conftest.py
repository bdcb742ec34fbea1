"""Shared fixtures: the real profiles of ../shared/data, loaded once per test session."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from .profiles import SHARED_DATA, Profile, readable

_cache: dict[str, Any] = {}


def load(profile: Profile) -> Any:
    """Read a profile once per session (readers are slow); tests must not modify the result."""
    if profile.id not in _cache:
        if not SHARED_DATA.is_dir():
            pytest.fail(f"the shared profiles are missing: {SHARED_DATA} (set CCTVIZ_SHARED_DATA)")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the readers' own deprecation noise
            _cache[profile.id] = profile.load()
    return _cache[profile.id]


@pytest.fixture(params=readable(), ids=lambda p: p.id)
def profile(request: pytest.FixtureRequest) -> tuple[Profile, Any]:
    """Each readable real profile with its GraphFrame (or Thicket)."""
    return request.param, load(request.param)

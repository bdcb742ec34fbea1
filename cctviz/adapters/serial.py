"""Hatchet's HPCToolkit reader without worker processes.

Both Hatchet distributions read an HPCToolkit database's metric files with a ``multiprocessing``
pool that is closed but never joined. Forking a process that runs threads (a Jupyter kernel, a
browser driver) can leave such a pool's workers waiting on a lock no thread will release, and the
pool's finaliser then waits for them for ever: the interpreter hangs when it exits. The example
profiles are small, so reading them in the calling process costs nothing; ``serial_readers()``
gives the reader a pool that runs its work in place while it reads.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import multiprocessing.sharedctypes
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any

READERS = ("hatchet.readers.hpctoolkit_reader",)


class InPlacePool:
    """The part of ``multiprocessing.Pool`` the readers use, run in the calling process."""

    def __init__(
        self,
        processes: int | None = None,
        initializer: Callable[..., Any] | None = None,
        initargs: Iterable[Any] = (),
    ) -> None:
        if initializer is not None:
            initializer(*initargs)

    def map(self, func: Callable[[Any], Any], iterable: Iterable[Any]) -> list[Any]:
        return [func(item) for item in iterable]

    def close(self) -> None:
        pass

    def join(self) -> None:
        pass

    def __enter__(self) -> InPlacePool:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


_IN_PLACE = types.SimpleNamespace(Pool=InPlacePool, sharedctypes=multiprocessing.sharedctypes)


@contextlib.contextmanager
def serial_readers() -> Iterator[None]:
    """While inside, Hatchet's readers that would fork a pool read in this process."""
    swapped: list[tuple[Any, Any]] = []
    for name in READERS:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if getattr(module, "mp", None) is multiprocessing:
            swapped.append((module, module.mp))
            module.mp = _IN_PLACE  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module, original in swapped:
            module.mp = original

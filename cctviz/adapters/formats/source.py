"""What every format reader shares about its input: the error it raises, the first bytes it
detects a format from, and the file's bytes read through gzip with a bound on what they inflate
to (a gzip bomb is said, not unpacked into memory)."""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

GZIP_MAGIC = b"\x1f\x8b"
HEAD = 65536  # bytes a reader's sniff sees
#: The most a gzip-compressed profile may inflate to (bytes); ``limit=`` raises it.
INFLATE_LIMIT = 8 << 30


class FormatError(ValueError):
    """A file is not what its format says it must be: the message says what was wrong (the
    file, where in it, what was found) and what is accepted."""


def head(path: Path, size: int = HEAD) -> bytes:
    """The first ``size`` bytes of ``path`` after gzip is undone (a gzipped file's head is the
    head of what it holds), for detecting a format from its content."""
    with opened(path) as stream:
        return stream.read(size)


def gzipped(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(2) == GZIP_MAGIC


class _Bounded(io.RawIOBase):
    """A stream that raises :class:`FormatError` once more than ``limit`` bytes were read."""

    def __init__(self, inner: io.BufferedIOBase, limit: int, path: Path) -> None:
        self._inner, self._limit, self._path, self._read = inner, limit, path, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        try:
            data = self._inner.read(len(buffer))
        except (OSError, EOFError, zlib.error) as error:
            raise FormatError(
                f"{self._path}: the gzip stream is damaged after {self._read:,} bytes "
                f"({error}); a complete gzip file is needed"
            ) from None
        self._read += len(data)
        if self._read > self._limit:
            raise FormatError(
                f"{self._path} inflates to more than {self._limit:,} bytes (a gzip bomb, or a "
                "profile larger than the limit): pass limit= (bytes) to read it anyway"
            )
        buffer[: len(data)] = data
        return len(data)


@contextmanager
def opened(path: Path, limit: int = INFLATE_LIMIT) -> Iterator[IO[bytes]]:
    """``path``'s bytes, inflated when gzipped (at most ``limit`` bytes of them)."""
    path = Path(path)
    if gzipped(path):
        with gzip.open(path, "rb") as inner:
            yield io.BufferedReader(_Bounded(inner, limit, path), buffer_size=1 << 20)
    else:
        with open(path, "rb") as plain:
            yield plain

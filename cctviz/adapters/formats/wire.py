"""Whether bytes plausibly begin a pprof ``Profile`` message in protobuf's wire format, which
has no magic number: the first fields must each carry a field number ``Profile`` has with the
wire type it has there (a ``sample_type`` must hold a ``ValueType``'s two numbers), and
lengths must fit the bytes seen. JSON, XML, tar, text and gzip fail on their first byte."""

from __future__ import annotations

# Profile's fields: 1-6 and 11 are messages/strings (wire type 2), the rest numbers (type 0);
# 13 (comment) is a repeated int64, packed (2) or not (0)
_TYPES = {**{f: {2} for f in (1, 2, 3, 4, 5, 6, 11)}, **{f: {0} for f in (7, 8, 9, 10, 12, 14, 15)}}
_TYPES[13] = {0, 2}
FIELDS = 3  # the fields checked (fewer when the bytes end exactly after them)


def _varint(data: bytes, at: int) -> tuple[int, int] | None:
    value = shift = 0
    while at < len(data) and shift < 64:
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        if not byte & 0x80:
            return value, at
        shift += 7
    return None


def _value_type(data: bytes) -> bool:
    """``data`` is a ValueType: only fields 1 and 2, both numbers."""
    at = 0
    while at < len(data):
        key = _varint(data, at)
        if key is None or key[0] not in (8, 16):  # field 1 or 2, wire type 0
            return False
        number = _varint(data, key[1])
        if number is None:
            return False
        at = number[1]
    return True


def plausible(head: bytes, whole: bool | None = None) -> bool:
    """Whether ``head`` (a file's first bytes; ``whole``: all of it, by default when shorter
    than 64 KiB) begins with :data:`FIELDS` fields of a pprof ``Profile``."""
    whole = len(head) < 65536 if whole is None else whole
    at = seen = 0
    while seen < FIELDS:
        if at == len(head):
            return whole and seen > 0
        key = _varint(head, at)
        if key is None:
            return False
        field, wire = key[0] >> 3, key[0] & 7
        if wire not in _TYPES.get(field, set()):
            return False
        value = _varint(head, key[1])
        if value is None:
            return not whole and seen > 0
        at = value[1]
        if wire == 2:
            if at + value[0] > len(head):
                return not whole and seen > 0
            if field == 1 and not _value_type(head[at : at + value[0]]):
                return False
            at += value[0]
        seen += 1
    return True


__all__ = ["FIELDS", "plausible"]

"""Reading a record's text: JSON decoded only within the bounds of `limits` (size, number
and depth of lists and objects, digits), from a string, uploaded bytes or a file.

A record may come from anyone, so the bounds are checked before or while the JSON is
parsed, never after; what is out of bounds is a `RecordError` naming the bound.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from carca_bot.engine.errors import RecordError
from carca_bot.engine.limits import (
    MAX_CONTAINERS,
    MAX_DEPTH,
    MAX_FLOAT_CHARS,
    MAX_INT_DIGITS,
    MAX_RECORD_BYTES,
)
from carca_bot.engine.record_checks import shown

_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
_ONE_KIND = bytes.maketrans(b"{}", b"[]")


def _structure_problem(raw: bytes) -> RecordError | None:
    """Why the JSON text `raw` has too many or too deeply nested lists and objects, if so.

    Counted before parsing, in C-speed passes over the bytes: brackets inside strings
    count towards the number (a harmless overestimate) but not the depth. For depth,
    escapes go first, then the strings (between unescaped quotes), then each pass strips
    the innermost pairs, so MAX_DEPTH passes empty any text that is shallow enough.
    """
    if raw.count(b"[") + raw.count(b"{") > MAX_CONTAINERS:
        return RecordError(f"the record has more than {MAX_CONTAINERS:,} lists and objects",
                           code="record_too_many_containers", limit=MAX_CONTAINERS)
    # escaped backslashes, then escaped quotes: the quotes left open and close strings
    unescaped = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    skeleton = unescaped.translate(_ONE_KIND, _NOT_STRUCTURE)
    skeleton = b"".join(skeleton.split(b'"')[::2])
    for _ in range(MAX_DEPTH):
        shorter = skeleton.replace(b"[]", b"")
        if shorter == skeleton:
            break
        skeleton = shorter
    if b"[]" in skeleton or skeleton.count(b"[") > MAX_DEPTH:
        return RecordError(f"the record nests deeper than {MAX_DEPTH} levels",
                           code="record_too_deep", limit=MAX_DEPTH)
    return None


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise RecordError(f"a number has more than {MAX_INT_DIGITS} digits",
                          code="record_too_many_digits", limit=MAX_INT_DIGITS)
    return int(digits)


def _parse_float(text: str) -> float:
    if len(text) > MAX_FLOAT_CHARS:
        raise RecordError(f"a number is longer than {MAX_FLOAT_CHARS} characters",
                          code="record_number_too_long", limit=MAX_FLOAT_CHARS)
    return float(text)


def _parse_constant(name: str) -> float:
    raise RecordError(f"not valid JSON: {name} is not a JSON value",
                      code="record_not_json_value", value=name)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise RecordError(f"the key {shown(key)} appears twice in one object",
                              code="record_duplicate_key", key=shown(key))
        data[key] = value
    return data


def _too_big(size: int) -> RecordError:
    return RecordError(f"the record is larger than {MAX_RECORD_BYTES:,} bytes",
                       code="record_too_big", size=size, limit=MAX_RECORD_BYTES)


def load_record_text(text: str) -> object:
    """Decode a record's JSON text within the bounds of `limits`, or raise RecordError."""
    if len(text) > MAX_RECORD_BYTES:
        raise _too_big(len(text))
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_RECORD_BYTES:
        raise _too_big(len(raw))
    problem = _structure_problem(raw)
    if problem is not None:
        raise problem
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc}", code="record_not_json", line=exc.lineno,
                          column=exc.colno) from None
    except RecursionError:  # the depth count above rules this out; a slip there still refuses
        raise RecordError(f"the record nests deeper than {MAX_DEPTH} levels",
                          code="record_too_deep", limit=MAX_DEPTH) from None


def load_record_bytes(raw: bytes) -> object:
    """Decode a record's file contents (an upload, say) as `load_record_text` does."""
    if len(raw) > MAX_RECORD_BYTES:
        raise _too_big(len(raw))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"the record is not UTF-8 text (byte {raw[exc.start]:#04x} at "
                          f"offset {exc.start})", code="record_not_utf8",
                          offset=exc.start) from None
    return load_record_text(text)


def read_record_file(path: str | Path) -> str:
    """A record file's text, reading no more than a record may be; or RecordError."""
    name = str(path)
    try:
        if Path(path).is_dir():
            raise RecordError(f"{name} is a folder, not a record file")
        with open(path, "rb") as file:
            raw = file.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise RecordError(f"cannot read {name}: there is no such file") from None
    except OSError as exc:
        raise RecordError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES:,} bytes, far more "
                          "than any game's record")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{name} is not UTF-8 text (byte {raw[exc.start]:#04x} at offset "
                          f"{exc.start})", code="record_not_utf8", offset=exc.start) from None

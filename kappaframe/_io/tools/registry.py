"""The annotation tools, by name, and their exports' bytes read into the long frame.

``TOOLS`` is the registry: a new tool is one module (a ``Tool``: how its records look and
how they become ratings) and one entry here, its name in ``kappaframe._types.AnnotationTool``.
This module works on bytes and parsed records; ``kappaframe._io.tools.annotations`` and
the command line's reader (``kappaframe._io.read``) open the files.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Any, get_args

from ..._errors import KappaFrameError, KappaFrameTypeError, arg, bad_option, ways
from ..._types import AnnotationTool
from . import doccano, label_studio, prodigy
from .base import DATA_PREFIX, Export, Options, Rating, Tool, frame, keys_of
from .label_studio import label_studio_tasks
from .prodigy import prodigy_lines

__all__ = [
    "DATA_PREFIX",
    "MORE",
    "TOOLS",
    "Export",
    "Rating",
    "Tool",
    "label_studio_tasks",
    "one_kind",
    "prodigy_lines",
    "read_exports",
    "sniff_head",
    "sniff_record",
]

#: Every tool, by name, tried in this order when the tool is not named.
TOOLS: dict[str, Tool] = {t.name: t for t in (label_studio.TOOL, prodigy.TOOL, doccano.TOOL)}

if tuple(TOOLS) != get_args(AnnotationTool):  # pragma: no cover - caught by the tests
    raise ImportError("kappaframe._types.AnnotationTool must list the tools of TOOLS")

#: ``sniff_head``'s answer when the head ends inside the first record: read more.
MORE = object()

_ZIP_MAGIC = b"PK\x03\x04"


def sniff_record(record: Mapping[str, Any]) -> str | None:
    """The name of the tool whose export ``record`` (a file's first record) is, or None."""
    for tool in TOOLS.values():
        if tool.sniff(record):
            return tool.name
    return None


def sniff_head(head: bytes, complete: bool) -> Any:
    """The tool of a JSON or JSON lines file from its first bytes: a name, None or ``MORE``.

    ``complete``: ``head`` is the whole file. ``MORE`` when the first record does not end
    within ``head``.
    """
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    decoder = json.JSONDecoder()
    try:
        if text.startswith("["):
            start = len(text) - len(text[1:].lstrip()) if len(text) > 1 else 1
            if text[start : start + 1] == "]":
                return None
            record, _ = decoder.raw_decode(text, start)
        elif text.startswith("{"):
            line = text.split("\n", 1)[0]
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                record = json.loads(text)  # one object written over several lines
        else:
            return None
    except json.JSONDecodeError:
        return None if complete else MORE
    return sniff_record(record) if isinstance(record, Mapping) else None


def read_exports(
    files: Sequence[tuple[str, bytes, str | None]],
    tool: str | None = None,
    *,
    fields: str | Sequence[str] | None = None,
    multiple: bool | None = None,
    predictions: bool = False,
) -> Any:
    """The long frame of the annotations in ``files``: (name, bytes, rater of the name).

    See ``kappaframe.read_annotations``, which opens the files.
    """
    if tool is not None and tool not in TOOLS:
        raise bad_option("tool", tool, [*TOOLS, None])
    if multiple is not None and not isinstance(multiple, bool):
        raise bad_option("multiple", multiple, [None, True, False])
    options = Options(fields=_fields(fields), predictions=bool(predictions))
    exports = [e for name, data, rater in files for e in _exports(name, data, rater)]
    names = [e.name for e in exports]
    if not any(e.records for e in exports):
        shown = ", ".join(names) if names else "the input"
        raise KappaFrameError(
            f"{shown} holds no annotations (no records); export the annotations from the tool."
        )
    chosen = tool
    for export in exports:
        if not export.records:
            continue
        found = sniff_record(export.records[0])
        if chosen is None:
            chosen = found
        if found != chosen or chosen is None:
            raise _unknown(export, chosen, found)
    assert chosen is not None
    skipped: Counter[str] = Counter()
    ratings: list[Rating] = []
    for export in exports:
        ratings.extend(TOOLS[chosen].ratings(export, options, skipped))
    return frame(
        ratings,
        names=names,
        options=options,
        multiple=multiple,
        skipped=skipped,
        records=sum(len(e.records) for e in exports),
    )


def one_kind(frame: Any, shown: str) -> Any:
    """``frame`` if its labels are of one kind; else an error naming each field's kind.

    The agreement functions compare the labels of one column, and text, numbers and sets
    of labels do not compare: a frame read for them holds one kind (``fields=`` picks).
    """
    if "field" not in frame.columns:
        return frame
    kinds: dict[str, str] = {}
    for name, label in zip(frame["field"], frame["label"], strict=True):
        kinds.setdefault(name, _kind(label))
    if len(set(kinds.values())) < 2:
        return frame
    listed = ", ".join(f"{name!r} ({kind})" for name, kind in kinds.items())
    raise KappaFrameError(
        f"{shown} holds fields whose labels are of different kinds, which agreement does "
        f"not compare: {listed}; read the fields of one kind with "
        f"{ways('kf.read_annotations(path, fields=[...])', arg('fields', ...))}.",
        option="fields",
    )


def _kind(label: Any) -> str:
    if isinstance(label, frozenset):
        return "sets of labels"
    if isinstance(label, bool):
        return "true/false"
    if isinstance(label, (int, float)):
        return "numbers"
    return "text" if isinstance(label, str) else type(label).__name__


def _fields(fields: str | Sequence[str] | None) -> frozenset[str] | None:
    if fields is None:
        return None
    if isinstance(fields, str):
        fields = [fields]
    if not isinstance(fields, Sequence) or not fields:
        raise KappaFrameTypeError(
            f"{arg('fields')} takes the names of the choice fields to read (a list of text); "
            f"got {fields!r}."
        )
    return frozenset(str(f) for f in fields)


def _unknown(export: Export, chosen: str | None, found: str | None) -> KappaFrameError:
    """The error for a file that is not the named tool's export, or no tool's."""
    first = export.records[0]
    looks = "; ".join(t.looks for t in TOOLS.values())
    if chosen is None:
        name = ways("tool=", "--input-format")
        return KappaFrameError(
            f"{export.name} is not an annotation tool's export that kappaframe reads: "
            f"{looks}. Its first record's keys: {keys_of(first)}; name the tool with {name} "
            f"({', '.join(TOOLS)}) if it is one.",
            option="tool",
        )
    other = f"; it looks like a {TOOLS[found].title}" if found is not None else ""
    return KappaFrameError(
        f"{export.name} is not a {TOOLS[chosen].title}: its first record's keys: "
        f"{keys_of(first)}{other}. Expected {TOOLS[chosen].looks}.",
        option="tool",
    )


def _exports(name: str, data: bytes, rater: str | None) -> list[Export]:
    """The exports in one file: itself, or each JSON (lines) member of a zip file."""
    if not data.startswith(_ZIP_MAGIC):
        return [Export(name, _records(data, name), rater)]
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as err:
        raise KappaFrameError(f"{name}: not a readable zip file ({err}).") from None
    members = sorted(
        m
        for m in archive.namelist()
        if not m.endswith("/")
        and not m.startswith("__MACOSX/")
        and PurePath(m).suffix.lower() in (".json", ".jsonl")
    )
    if not members:
        raise KappaFrameError(f"{name}: a zip file with no .json or .jsonl file in it.")
    return [
        Export(f"{name}:{m}", _records(archive.read(m), f"{name}:{m}"), rater_of(m))
        for m in members
    ]


def rater_of(name: str) -> str:
    """The rater a file's name gives: ``exports/alice.jsonl.gz`` -> ``alice``."""
    stem = PurePath(name).name
    for suffix in (".gz", ".bz2", ".xz", ".zst"):
        stem = stem.removesuffix(suffix)
    for suffix in (".jsonl", ".ndjson", ".json"):
        stem = stem.removesuffix(suffix)
    return stem


def _records(data: bytes, name: str) -> list[dict[str, Any]]:
    """The JSON objects of a JSON array, one JSON object, or JSON lines."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise KappaFrameError(
            f"{name}: not UTF-8 text ({err.reason} at byte {err.start}); the tools write "
            "UTF-8: check the file."
        ) from None
    stripped = text.lstrip()
    if not stripped:
        return []
    try:
        if stripped.startswith("["):
            value: Any = json.loads(text)
            records = value if isinstance(value, list) else [value]
        else:
            records = _lines(text)
    except json.JSONDecodeError as err:
        raise KappaFrameError(
            f"{name}: not valid JSON at line {err.lineno}, column {err.colno} ({err.msg}); "
            "export the file again from the tool."
        ) from None
    for n, record in enumerate(records, 1):
        if not isinstance(record, dict):
            raise KappaFrameError(
                f"{name}: record {n} is {type(record).__name__} {str(record)[:60]!r}, not an "
                "object; an export holds one JSON object per task."
            )
    return records


def _lines(text: str) -> list[Any]:
    """JSON lines, or one JSON object written over several lines."""
    lines = text.split("\n")
    records: list[Any] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as err:
            if not records:
                try:
                    return [json.loads(text)]
                except json.JSONDecodeError:
                    pass
            raise json.JSONDecodeError(err.msg, text, _offset(lines, n) + err.pos) from None
    return records


def _offset(lines: list[str], n: int) -> int:
    """The character offset of line ``n`` (from 1) in the text ``lines`` came from."""
    return sum(len(line) + 1 for line in lines[: n - 1])

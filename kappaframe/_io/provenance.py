"""Provenance: which kappaframe, which input files, which options and when made a table.

- ``provenance`` builds the record (a JSON-ready dict); the command line stores it
  in a Parquet file's key-value metadata under ``METADATA_KEY``, in the footer of an
  HTML report, and beside every other file it writes as ``<output>.provenance.json``
  (``kappaframe._io.formats.sidecar_path``).
- Input paths are recorded as given (a relative path stays relative: a record that travels
  with a shared report names no folder of the machine that made it).
- Input files are hashed as a stream (``CHUNK`` bytes at a time): memory stays flat
  whatever their size. Standard input is named ``"standard input"``, with the size and
  SHA-256 of the bytes received (before any decompression, so ``sha256sum`` of the file
  that was piped in gives the same digest).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .._errors import KappaFrameError, KappaFrameTypeError
from .._version import __version__
from .formats import STDIO
from .read import Progress, expand_input, stdin_digest

__all__ = [
    "CHUNK",
    "METADATA_KEY",
    "file_digest",
    "provenance",
    "provenance_json",
]

_log = logging.getLogger(__name__)

#: The Parquet key-value metadata key that holds the record as JSON.
METADATA_KEY = "kappaframe"

#: Bytes read at a time while hashing.
CHUNK = 1 << 20

#: How standard input is named in a record.
STDIN_NAME = "standard input"


def file_digest(path: str | os.PathLike[str], progress: Any = None) -> tuple[int, str]:
    """The size in bytes and the SHA-256 (hex) of a file, read ``CHUNK`` at a time.

    Parameters
    ----------
    path : str or os.PathLike
        A file.
    progress : kappaframe._io.read.Progress, optional
        Advanced by the bytes read.

    Returns
    -------
    (int, str)
        The number of bytes read and their SHA-256 as 64 hexadecimal digits.
    """
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
            if progress is not None:
                progress.advance(len(chunk))
    return size, digest.hexdigest()


def _input_record(path: str, progress: bool | None) -> dict[str, Any]:
    if path == STDIO:
        received = stdin_digest()
        if received is None:
            raise KappaFrameError(
                "inputs: standard input ('-') was not read by kappaframe, so its bytes are "
                "unknown; name the files that were read.",
                option="inputs",
            )
        size, sha = received
        return {"path": STDIN_NAME, "bytes": size, "sha256": sha}
    if not os.path.isfile(path):
        raise KappaFrameError(f"inputs: no such file: {path!r}.", option="inputs")
    start = time.perf_counter()
    total = os.path.getsize(path)
    with Progress(f"hashing {Path(path).name}", total, unit="B", enabled=progress) as bar:
        size, sha = file_digest(path, bar)
    _log.debug("sha256 of %s (%d bytes) in %.2f s", path, size, time.perf_counter() - start)
    # As given: a relative path stays relative, so that a record shared with a report
    # names no folder of the machine that made it.
    return {"path": path, "bytes": size, "sha256": sha}


def provenance(
    inputs: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] = (),
    options: Mapping[str, Any] | None = None,
    *,
    created: datetime | None = None,
    progress: bool | None = False,
) -> dict[str, Any]:
    r"""Say which kappaframe, input files, options and time made a result.

    The record a nightly job stores beside its table, so that the table can say where
    it came from: the command line writes it into Parquet metadata (key
    ``"kappaframe"``), into the HTML report's footer, and as ``<output>.provenance.json``
    beside other files. Files are hashed as a stream (memory stays flat).

    Parameters
    ----------
    inputs : path, or sequence of paths, default ()
        The files read. A glob or a directory stands for the files it names, as for
        ``kappaframe.scan`` (provenance sidecars excluded). ``"-"`` is standard input
        as kappaframe read it (the command line's ``-``).
    options : mapping, optional
        The settings that made the result, e.g. ``{"weights": "linear", "by":
        ["project"]}``; keys are text and values JSON values (text, numbers, booleans,
        None, lists, mappings).
    created : datetime, optional
        When the result was made (default: now); written in UTC, to the second.
    progress : bool, default False
        A progress bar on stderr while hashing (None: on a terminal only).

    Returns
    -------
    dict
        ``version`` (kappaframe's), ``created`` (UTC, ISO 8601 ending in ``Z``),
        ``inputs`` (one ``{"path", "bytes", "sha256"}`` per file; paths as given, a
        relative one relative, those a glob or a directory names as joined to it;
        standard input as ``"standard input"``) and ``options`` (as given). Every value
        is JSON: ``json.dumps`` writes it as it is.

    Raises
    ------
    KappaFrameError
        An input that is not a file (the message names it), a glob that matches
        nothing, an option value that is not JSON (the message names the option).
    KappaFrameTypeError
        ``inputs`` that are not paths; ``created`` that is not a datetime.

    See Also
    --------
    kappaframe.scan : reads the same inputs in batches.

    Notes
    -----
    To store the record with a table of your own, put it into the Parquet schema's
    metadata: ``table.replace_schema_metadata({**(table.schema.metadata or {}),
    "kappaframe": json.dumps(record)})`` (pyarrow), as the command line does.

    Examples
    --------
    >>> import hashlib, json, os, tempfile
    >>> import kappaframe as kf
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "ratings.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("ana,ben\n1,1\n")
    >>> record = kf.provenance(path, {"weights": "linear"})
    >>> sorted(record)
    ['created', 'inputs', 'options', 'version']
    >>> record["inputs"][0]["bytes"], record["options"]
    (12, {'weights': 'linear'})
    >>> record["inputs"][0]["sha256"] == hashlib.sha256(b"ana,ben\n1,1\n").hexdigest()
    True
    """
    given = _input_paths(inputs)
    created = _created(created)
    settings = _json_options(options)
    files = [f for one in given for f in expand_input(one)]
    return {
        "version": __version__,
        "created": created.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "inputs": [_input_record(f, progress) for f in files],
        "options": settings,
    }


def _input_paths(inputs: Any) -> list[Any]:
    """``inputs`` as a list of paths, or an error naming it."""
    if isinstance(inputs, (str, os.PathLike)):
        given: list[Any] = [inputs]
    elif isinstance(inputs, Sequence):
        given = list(inputs)
    else:
        raise KappaFrameTypeError(
            f"inputs must be a path or a list of paths; got {type(inputs).__name__}.",
            option="inputs",
        )
    for one in given:
        if not isinstance(one, (str, os.PathLike)):
            raise KappaFrameTypeError(
                f"inputs must be paths (str or os.PathLike); got {one!r}.", option="inputs"
            )
    return given


def _created(created: datetime | None) -> datetime:
    """When the result was made: ``created`` (an aware datetime), or now in UTC."""
    if created is None:
        created = datetime.now(timezone.utc)
    elif not isinstance(created, datetime):
        raise KappaFrameTypeError(
            f"created must be a datetime; got {type(created).__name__}.", option="created"
        )
    elif created.tzinfo is None:
        raise KappaFrameError(
            f"created={created!r} has no time zone, so its UTC time is unknown; give an "
            "aware datetime, e.g. datetime.now(timezone.utc).",
            option="created",
        )
    return created


def _json_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``options`` as a dict of JSON values (tuples become lists), or an error naming one."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise KappaFrameTypeError(
            f"options must be a mapping of names to values; got {type(options).__name__}.",
            option="options",
        )
    out: dict[str, Any] = {}
    for key, value in options.items():
        if not isinstance(key, str):
            raise KappaFrameTypeError(f"options: names are text; got {key!r}.", option="options")
        try:
            out[key] = json.loads(json.dumps(value, allow_nan=False))
        except (TypeError, ValueError):
            raise KappaFrameError(
                f"options: {key}={value!r} is not a JSON value (text, a finite number, a "
                "boolean, None, or lists and mappings of them); convert it first, e.g. "
                "str(value).",
                option="options",
            ) from None
    return out


def provenance_json(record: Mapping[str, Any], *, indent: int | None = None) -> str:
    """The record as JSON text (compact unless ``indent``; non-ASCII kept as it is)."""
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(record, indent=indent, separators=separators, ensure_ascii=False)

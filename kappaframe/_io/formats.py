"""Input and output formats: one suffix table, compression, and the format a path names."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from .._errors import KappaFrameError
from .._types import AnnotationTool

#: The annotation tools' exports (``kappaframe._io.tools``): JSON or JSON lines, read as
#: the long frame. A ``.json`` or ``.jsonl`` file is one when its first record says so.
TOOL_FORMATS: tuple[str, ...] = get_args(AnnotationTool)

INPUT_FORMATS = ("csv", "tsv", "parquet", "jsonl", "json", *TOOL_FORMATS)


@dataclass(frozen=True)
class OutputFormat:
    """One output format: its name, the suffixes that name it, and what it is.

    ``table``: a data table (each extra table goes to a file of its own beside it; the
    writer is ``kappaframe._io.write.TABLE_WRITERS[name]``); otherwise a report rendered
    for people (``kappaframe._report``). ``self_described``: the file carries its own
    provenance (Parquet metadata, the HTML footer) and needs no sidecar.
    """

    name: str
    suffixes: tuple[str, ...]
    table: bool = False
    self_described: bool = False


#: Every output format: a new one is one entry here and its writer or renderer.
OUTPUTS = (
    OutputFormat("text", (".txt",)),
    OutputFormat("csv", (".csv",), table=True),
    OutputFormat("tsv", (".tsv", ".tab"), table=True),
    OutputFormat("json", (".json",), table=True),
    OutputFormat("jsonl", (".jsonl", ".ndjson"), table=True),
    OutputFormat("parquet", (".parquet", ".pq"), table=True, self_described=True),
    OutputFormat("markdown", (".md", ".markdown")),
    OutputFormat("html", (".html", ".htm"), self_described=True),
)
OUTPUT_FORMATS = tuple(f.name for f in OUTPUTS)
#: The data-table formats (the others are reports for people).
TABLE_FORMATS = tuple(f.name for f in OUTPUTS if f.table)
#: The formats that carry their provenance inside the file (no sidecar).
SELF_DESCRIBED = tuple(f.name for f in OUTPUTS if f.self_described)

#: The name that means standard input (as INPUT) or standard output (as ``--output``).
STDIO = "-"

_INPUT_SUFFIXES = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".txt": "csv",
}

#: Suffixes a folder given as input is searched for: every input format's, but ``.txt``
#: (a folder's notes are not data).
FOLDER_SUFFIXES = tuple(s for s in _INPUT_SUFFIXES if s != ".txt")

#: What a provenance sidecar's name ends with: ``report.csv`` -> ``report.csv.provenance.json``
#: (``kappaframe._io.provenance``). A folder or a glob never yields one as input.
SIDECAR_SUFFIX = ".provenance.json"

#: The format a file is read in batches as (``kappaframe._io.scan``): TSV is CSV with
#: another separator; a JSON array is read whole.
SCAN_FORMATS = {"csv": "csv", "tsv": "csv", "parquet": "parquet", "jsonl": "jsonl"}

_OUTPUT_SUFFIXES = {suffix: f.name for f in OUTPUTS for suffix in f.suffixes}

#: Compression suffixes, decompressed while reading and written by the outputs.
COMPRESSION = {".gz": "gzip", ".bz2": "bz2", ".xz": "xz", ".zst": "zstd"}


def _split_suffix(path: Path) -> tuple[str, str | None]:
    suffixes = [s.lower() for s in path.suffixes]
    compression = None
    if suffixes and suffixes[-1] in COMPRESSION:
        compression = COMPRESSION[suffixes.pop()]
    return (suffixes[-1] if suffixes else ""), compression


def input_format(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    """Name the input format: ``fmt`` if given, else from the file's suffix."""
    if fmt is not None:
        if fmt not in INPUT_FORMATS:
            raise KappaFrameError(
                f"input format must be one of {', '.join(INPUT_FORMATS)}; got {fmt!r}."
            )
        return fmt
    if os.fspath(path) == STDIO:
        raise KappaFrameError(
            "cannot tell the format of standard input; name it with --input-format "
            f"({', '.join(INPUT_FORMATS)})."
        )
    suffix, _ = _split_suffix(Path(path))
    if suffix not in _INPUT_SUFFIXES:
        raise KappaFrameError(
            f"cannot tell the format of {str(path)!r} from its suffix {suffix!r}; name it "
            f"with --input-format ({', '.join(INPUT_FORMATS)})."
        )
    return _INPUT_SUFFIXES[suffix]


def output_format(path: str | os.PathLike[str] | None, fmt: str | None = None) -> str:
    """Name the output format: ``fmt`` if given, else the output's suffix, else text.

    A compression suffix after the format's (``report.csv.gz``) is allowed for the text
    formats; ``-`` (standard output) without ``fmt`` is text.
    """
    if fmt is not None:
        if fmt not in OUTPUT_FORMATS:
            raise KappaFrameError(
                f"output format must be one of {', '.join(OUTPUT_FORMATS)}; got {fmt!r}."
            )
    elif path is None or os.fspath(path) == STDIO:
        return "text"
    else:
        suffix, _ = _split_suffix(Path(path))
        if suffix not in _OUTPUT_SUFFIXES:
            shown = "".join(Path(path).suffixes[-2:]) or suffix
            raise KappaFrameError(
                f"cannot tell the output format from the suffix {shown!r} of {str(path)!r}; "
                f"pass --format ({', '.join(OUTPUT_FORMATS)})."
            )
        fmt = _OUTPUT_SUFFIXES[suffix]
    if fmt == "parquet" and output_compression(path) is not None:
        raise KappaFrameError(
            f"Parquet compresses its own columns: write {str(path)!r} without the "
            f"{Path(str(path)).suffix} suffix."
        )
    return fmt


def suffix_format(path: str | os.PathLike[str]) -> str | None:
    """The input format ``path``'s suffix names (after a compression suffix), or None."""
    return _INPUT_SUFFIXES.get(_split_suffix(Path(path))[0])


def compression_of(path: str | os.PathLike[str]) -> str | None:
    """The compression a file's last suffix names (``.gz``: gzip), or None."""
    return _split_suffix(Path(path))[1]


def output_compression(path: str | os.PathLike[str] | None) -> str | None:
    """The compression an output's last suffix names (``.gz``: gzip), or None."""
    if path is None or os.fspath(path) == STDIO:
        return None
    return _split_suffix(Path(path))[1]


def sidecar_path(output: str | os.PathLike[str]) -> str:
    """Where the provenance of the file ``output`` goes: ``<output>.provenance.json``."""
    return os.fspath(output) + SIDECAR_SUFFIX


def is_sidecar(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is named like a provenance sidecar (never read as ratings)."""
    return os.fspath(path).lower().endswith(SIDECAR_SUFFIX)


def suffixes(fmt: str) -> list[str]:
    """The output suffixes that name ``fmt`` (``"csv"`` -> ``[".csv"]``)."""
    return [s for s, f in _OUTPUT_SUFFIXES.items() if f == fmt]

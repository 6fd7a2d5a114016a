"""Input and output formats: one suffix table, compression, and the format a path names."""

from __future__ import annotations

import os
from pathlib import Path

from .._errors import KappaFrameError

INPUT_FORMATS = ("csv", "tsv", "parquet", "jsonl", "json")

OUTPUT_FORMATS = ("text", "csv", "json", "jsonl", "parquet", "markdown", "html")

_INPUT_SUFFIXES = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
}

_OUTPUT_SUFFIXES = {
    ".csv": "csv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".txt": "text",
}

_COMPRESSION = {".gz": "gzip", ".bz2": "bz2", ".xz": "xz", ".zst": "zstd"}

_PARQUET_EXTRA = 'reading and writing Parquet needs pyarrow: pip install "kappaframe[parquet]"'


def _split_suffix(path: Path) -> tuple[str, str | None]:
    suffixes = [s.lower() for s in path.suffixes]
    compression = None
    if suffixes and suffixes[-1] in _COMPRESSION:
        compression = _COMPRESSION[suffixes.pop()]
    return (suffixes[-1] if suffixes else ""), compression


def input_format(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    """Name the input format: ``fmt`` if given, else from the file's suffix."""
    if fmt is not None:
        if fmt not in INPUT_FORMATS:
            raise KappaFrameError(
                f"input format must be one of {', '.join(INPUT_FORMATS)}; got {fmt!r}."
            )
        return fmt
    suffix, _ = _split_suffix(Path(path))
    if suffix not in _INPUT_SUFFIXES:
        raise KappaFrameError(
            f"cannot tell the format of {str(path)!r} from its suffix {suffix!r}; name it "
            f"with --input-format ({', '.join(INPUT_FORMATS)})."
        )
    return _INPUT_SUFFIXES[suffix]


def output_format(path: str | os.PathLike[str] | None, fmt: str | None = None) -> str:
    """Name the output format: ``fmt`` if given, else the output's suffix, else text."""
    if fmt is not None:
        if fmt not in OUTPUT_FORMATS:
            raise KappaFrameError(
                f"output format must be one of {', '.join(OUTPUT_FORMATS)}; got {fmt!r}."
            )
        return fmt
    if path is None:
        return "text"
    suffix = Path(path).suffix.lower()
    if suffix not in _OUTPUT_SUFFIXES:
        raise KappaFrameError(
            f"cannot tell the output format from the suffix {suffix!r} of {str(path)!r}; "
            f"pass --format ({', '.join(OUTPUT_FORMATS)})."
        )
    return _OUTPUT_SUFFIXES[suffix]

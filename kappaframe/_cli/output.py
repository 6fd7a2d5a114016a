"""The report's tables, written to ``--output`` (the extra tables beside it) or stdout.

Every file written says what made it (``kappaframe._io.provenance.provenance``):
a Parquet file in its key-value metadata (key ``kappaframe``, the record as JSON), an
HTML report in its footer, and every other file in a sidecar beside it,
``<file>.provenance.json``, which also gives the file's own size and SHA-256 (a sidecar
left from an older run is told apart by that digest). A CSV comment line would break
CSV readers and JSON has no comments, so the other formats get no header line. Nothing
is written beside standard output or a device (``-o /dev/null``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from .._io.formats import SELF_DESCRIBED, TABLE_FORMATS

#: The flag that asks for each extra table.
TABLE_FLAGS = {"overall": "--overall", "raters": "--raters-summary", "per_label": "--per-label"}

#: What ``written_files`` appends to a table's flag for that table's sidecar.
SIDECAR_MARK = " (its provenance)"


def records_provenance(fmt: str, output: str | None, args: Any = None) -> bool:
    """Whether writing ``fmt`` to ``output`` stores a provenance record anywhere.

    Never with ``--no-provenance`` (``args.no_provenance``).
    """
    from .._io.formats import STDIO

    if getattr(args, "no_provenance", False):
        return False
    return fmt in SELF_DESCRIBED or (output is not None and output != STDIO)


def side_path(output: str, name: str) -> Path:
    """Where the ``name`` table goes beside the table file ``output``: ``<stem>.<name>.<ext>``.

    The extension keeps a compression suffix: ``r.csv.gz`` -> ``r.overall.csv.gz``.
    """
    from .._io.formats import output_compression

    path = Path(output)
    tail = "".join(path.suffixes[-2:]) if output_compression(path) else path.suffix
    return path.with_name(path.name[: len(path.name) - len(tail)] + f".{name}{tail}")


def written_files(output: str | None, fmt: str, names: Sequence[str]) -> dict[str, str]:
    """The files ``write_result`` writes, each with the flag that asks for it.

    ``--output`` (unless standard output) and, for a table format, the extra tables
    ``names`` beside it; and the provenance sidecar of each (but Parquet and HTML), its
    flag followed by ``SIDECAR_MARK``.
    """
    from .._io.formats import STDIO, sidecar_path

    if output is None or output == STDIO:
        return {}
    files = {output: "--output"}
    if fmt in TABLE_FORMATS:
        files.update({str(side_path(output, name)): TABLE_FLAGS[name] for name in names})
    if fmt not in SELF_DESCRIBED:
        files.update({sidecar_path(path): flag + SIDECAR_MARK for path, flag in files.items()})
    return files


def write_result(
    report: Any,
    fmt: str,
    output: str | None,
    raw: bool,
    tables: dict[str, Any],
    out: IO[str],
    provenance: dict[str, Any] | None = None,
) -> None:
    """Write the report; the extra tables go beside a table file, or after the text.

    With a ``provenance`` record, each file says what made it (see the module's notes).
    """
    from .._io.formats import STDIO
    from .._io.provenance import METADATA_KEY, provenance_json
    from .._io.write import plain, table_bytes, write_output
    from .._report.report import (
        provenance_html,
        render_markdown,
        render_text,
        spreadsheet_safe,
        write_report,
    )

    titles = {
        "overall": "Overall agreement (many raters)",
        "raters": "Raters",
        "per_label": "Agreement per label",
    }
    to_file = output is not None and output != STDIO
    if fmt in TABLE_FORMATS:
        metadata = None
        if fmt == "parquet" and provenance is not None:
            metadata = {METADATA_KEY: provenance_json(provenance)}

        def encoded(frame: Any) -> bytes:
            if fmt in ("csv", "tsv") and not raw:
                frame = spreadsheet_safe(plain(frame))
            return table_bytes(frame, fmt, metadata=metadata)

        if output is not None and output != STDIO:
            for name, table in tables.items():
                write_output(side_path(output, name), encoded(table))
                write_sidecar(side_path(output, name), fmt, provenance)
        data = encoded(report.tidy)
        if output is None or (output == STDIO and fmt != "parquet"):
            write_output(STDIO, data, out)
        else:
            write_output(output, data, out)
            if to_file:
                write_sidecar(output, fmt, provenance)
        return
    if fmt == "text":
        text = render_text(report.tidy, min_items=report.min_items)
        for name, table in tables.items():
            text += f"\n{titles[name]}:\n{render_text(table, min_items=report.min_items)}"
    elif fmt == "markdown":
        text = render_markdown(report)
        for name, table in tables.items():
            text += f"\n## {titles[name]}\n\n{_markdown(table)}"
    else:
        text = write_report(report, fmt, None, raw=raw) or ""
        if fmt == "html" and tables:
            text = text.replace("<footer>", _html_sections(tables, titles) + "<footer>", 1)
        if fmt == "html" and provenance is not None:
            text = text.replace("</footer>", provenance_html(provenance) + "</footer>", 1)
    write_output(STDIO if output is None else output, text.encode("utf-8"), out)
    if to_file:
        write_sidecar(str(output), fmt, provenance)


def write_sidecar(
    path: str | os.PathLike[str], fmt: str, provenance: dict[str, Any] | None
) -> None:
    """Write ``<path>.provenance.json`` (atomically) for a file that cannot hold it.

    The record, plus the ``file`` it describes: its name, size and SHA-256 as written.
    Nothing is written beside a device, FIFO or socket (``-o /dev/null``).
    """
    from .._io.formats import sidecar_path
    from .._io.provenance import file_digest, provenance_json
    from .._io.write import write_output

    if provenance is None or fmt in SELF_DESCRIBED or not os.path.isfile(path):
        return
    size, sha = file_digest(path)
    record = {**provenance, "file": {"name": os.path.basename(path), "bytes": size, "sha256": sha}}
    write_output(sidecar_path(path), (provenance_json(record, indent=2) + "\n").encode("utf-8"))


def _html_sections(tables: dict[str, Any], titles: dict[str, str]) -> str:
    """The extra tables as HTML sections (the page's own table style)."""
    import html

    from .._report.display import se_note
    from .._report.report import _html_table

    def note(table: Any) -> str:
        text = se_note(table)
        return f'<p class="note">{html.escape(text)}</p>' if text else ""

    return "".join(
        f'<section id="{name}-table"><h2>{html.escape(titles[name])}</h2>{note(table)}'
        f'<div class="scroll">{_html_table(table, colour=_coloured(name, table))}</div></section>'
        for name, table in tables.items()
    )


def _coloured(name: str, table: Any) -> tuple[str, ...]:
    """The columns coloured in a table: its kind's, else its kappa or value column."""
    from .._report.report import COLOURED

    return COLOURED.get(name) or tuple(c for c in ("kappa", "value") if c in table.columns)


def _markdown(frame: Any) -> str:
    from .._report.report import _markdown_table

    return _markdown_table(frame)


def table_format(output: str | None, given: str | None, what: str, also: str = "") -> str:
    """The format of a command that writes a table, not a report.

    HTML is refused, and Parquet without a file. ``what`` names the table; ``also`` adds
    the other formats the command takes.
    """
    from .._errors import KappaFrameError
    from .._io.formats import STDIO, output_format

    fmt = output_format(output, given)
    if fmt == "html":
        raise KappaFrameError(
            f"{what} has no HTML report; write csv, tsv, json, jsonl, parquet, text or "
            f"markdown (--format){also}."
        )
    if fmt == "parquet" and (output is None or output == STDIO):
        raise KappaFrameError("parquet is binary: name a file with --output.")
    return fmt


def write_table(
    table: Any,
    fmt: str,
    output: str | None,
    raw: bool,
    out: IO[str],
    provenance: dict[str, Any] | None,
    title: str,
    data: bytes | None = None,
) -> None:
    """Write a command's one table in ``fmt`` to ``output`` (or stdout), with its provenance.

    A table format (Parquet with its provenance in the metadata; CSV and TSV made safe
    for spreadsheets unless ``raw``), Markdown under the heading ``title``, or text.
    ``data``: the bytes already made in a format of the command's own (a tool's queue).
    """
    from .._io.formats import STDIO, TABLE_FORMATS
    from .._io.provenance import METADATA_KEY, provenance_json
    from .._io.write import plain, table_bytes, write_output
    from .._report.report import _markdown_table, render_text, spreadsheet_safe

    target = STDIO if output is None else output
    if data is None and fmt in TABLE_FORMATS:
        metadata = None
        if fmt == "parquet" and provenance is not None:
            metadata = {METADATA_KEY: provenance_json(provenance)}
        frame = plain(table)
        if fmt in ("csv", "tsv") and not raw:
            frame = spreadsheet_safe(frame)
        data = table_bytes(frame, fmt, metadata=metadata)
    elif data is None and fmt == "markdown":
        data = f"# {title}\n\n{_markdown_table(table)}".encode()
    elif data is None:
        data = render_text(table).encode("utf-8")
    write_output(target, data, out)
    if target != STDIO:
        write_sidecar(target, fmt, provenance)

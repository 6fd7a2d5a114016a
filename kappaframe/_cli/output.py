"""The report's tables, written to ``--output`` (the extra tables beside it) or stdout."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

#: The formats whose extra tables go to files beside the ``--output`` file.
TABLE_FORMATS = ("csv", "tsv", "json", "jsonl", "parquet")

#: The flag that asks for each extra table.
TABLE_FLAGS = {"overall": "--overall", "raters": "--raters-summary"}


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
    ``names`` beside it.
    """
    from .._io.formats import STDIO

    if output is None or output == STDIO:
        return {}
    files = {output: "--output"}
    if fmt in TABLE_FORMATS:
        files.update({str(side_path(output, name)): TABLE_FLAGS[name] for name in names})
    return files


def write_result(
    report: Any,
    fmt: str,
    output: str | None,
    raw: bool,
    tables: dict[str, Any],
    out: IO[str],
) -> None:
    """Write the report; the extra tables go beside a table file, or after the text."""
    from .._io.formats import STDIO
    from .._io.write import plain, table_bytes, write_output
    from .._report.report import render_markdown, render_text, spreadsheet_safe, write_report

    titles = {"overall": "Overall agreement (many raters)", "raters": "Raters"}
    if fmt in TABLE_FORMATS:

        def encoded(frame: Any) -> bytes:
            if fmt in ("csv", "tsv") and not raw:
                frame = spreadsheet_safe(plain(frame))
            return table_bytes(frame, fmt)

        if output is not None and output != STDIO:
            for name, table in tables.items():
                write_output(side_path(output, name), encoded(table))
        data = encoded(report.tidy)
        if output is None or (output == STDIO and fmt != "parquet"):
            write_output(STDIO, data, out)
        else:
            write_output(output, data, out)
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
    write_output(STDIO if output is None else output, text.encode("utf-8"), out)


def _html_sections(tables: dict[str, Any], titles: dict[str, str]) -> str:
    """The extra tables as HTML sections (the page's own table style)."""
    import html

    from .._report.report import _html_table

    colours = {"overall": ("value",), "raters": ("mean_kappa", "median_kappa", "min_kappa")}
    return "".join(
        f'<section id="{name}-table"><h2>{html.escape(titles[name])}</h2>'
        f'<div class="scroll">{_html_table(table, colour=colours[name])}</div></section>'
        for name, table in tables.items()
    )


def _markdown(frame: Any) -> str:
    from .._report.report import _markdown_table

    return _markdown_table(frame)

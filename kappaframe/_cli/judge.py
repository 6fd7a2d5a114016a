"""``kappaframe judge INPUT``: flags in, ``kf.judge_report`` out: the judge against the gold.

INPUT is read as ``report`` reads a wide file (the judge's and the gold's columns as
labels); the two tables, per class then the summary, go to stdout as text or markdown, or
to ``--output`` (the per class table) and beside it (``<stem>.summary.<ext>``, the
summary), each with its provenance as the other commands' files; or as one HTML page
(``--format html``: the summary, then the per class table, the provenance inside).
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Hashable, Sequence
from datetime import datetime, timezone
from typing import IO, Any

from . import EXIT_OK
from .bind import keywords
from .logs import log, relay
from .messages import shown_input
from .output import records_provenance, side_path, table_format, write_table
from .ratings import coerce, text_options
from .report import settings

#: The name the summary's file takes beside ``--output``: ``<stem>.summary.<ext>``.
SUMMARY = "summary"


def _format(args: argparse.Namespace) -> str:
    """The output format; a table format needs a file, as the two tables go to two files."""
    from .._errors import KappaFrameError
    from .._io.formats import STDIO, TABLE_FORMATS, output_format

    if output_format(args.output, args.format) == "html":
        return "html"
    fmt = table_format(args.output, args.format, "the judge's report")
    if fmt in TABLE_FORMATS and args.output in (None, STDIO):
        raise KappaFrameError(
            f"the judge's report is two tables, and {fmt} holds one: name a file with "
            f"--output (the per class table goes there, the summary beside it as "
            f"<name>.summary.{fmt}), or print both with --format text or markdown."
        )
    return fmt


def _check_columns(names: Sequence[Hashable], args: argparse.Namespace) -> None:
    """Refuse a ``--judge``, ``--gold`` or ``--by`` that is no column of the input."""
    from .._errors import KappaFrameError

    given = [("--judge", args.judge), ("--gold", args.gold)]
    given += [("--by", c) for c in args.by or []]
    present = set(names)
    for flag, column in given:
        if column not in present:
            raise KappaFrameError(
                f"{flag} names {column!r}, not a column of {shown_input(args.input)}: "
                f"{', '.join(map(str, names))}; name one of these with {flag}."
            )


def _read(args: argparse.Namespace, options: Any, progress: bool | None) -> Any:
    """INPUT with the judge's and the gold's columns read as labels."""
    from .._io.formats import STDIO
    from .._io.read import columns_of, read_input

    by = list(args.by or [])
    needed: list[Hashable] | None = None
    if args.input != STDIO:
        _check_columns(columns_of(args.input, args.input_format, options), args)
        needed = list(dict.fromkeys([*by, args.judge, args.gold]))
    data = read_input(
        args.input,
        needed,
        fmt=args.input_format,
        progress=progress,
        na_values=args.na_values,
        labels=[args.judge, args.gold],
        text=[],
        options=options,
        fields=args.fields,
    )
    _check_columns(list(data.columns), args)
    return data


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``kappaframe judge``: write the judge's two tables; return the exit code."""
    from .._api.judge import judge_report
    from .._io.formats import STDIO, TABLE_FORMATS
    from .._io.provenance import provenance

    fmt = _format(args)
    to_file = args.output not in (None, STDIO)
    summary_path = None
    if to_file and fmt in TABLE_FORMATS:
        summary_path = str(side_path(args.output, SUMMARY))
    if to_file and args.input != STDIO:
        from .report import _check_not_input

        written = [args.output, *([summary_path] if summary_path else [])]
        _check_not_input(args.input, dict.fromkeys(written, "--output"))
    log.debug("flags: %s", settings(args, fmt))
    progress = False if args.no_progress or args.quiet else None
    data = _read(args, text_options(args), progress)
    categories = coerce(args.categories, data, [args.judge, args.gold])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        classes, summary = judge_report(
            data, **keywords(judge_report, args, by=args.by or None, categories=categories)
        )
    relay(str(w.message) for w in caught)
    created = datetime.now(timezone.utc).replace(microsecond=0)
    record = None
    if records_provenance(fmt, args.output, args):
        record = provenance([args.input], settings(args, fmt), created=created, progress=progress)
    if fmt == "html":
        from .._io.write import plain, write_output
        from .._report.judge_page import render_judge_html

        page = render_judge_html(
            plain(classes),
            plain(summary),
            judge=args.judge,
            gold=args.gold,
            source=shown_input(args.input),
            provenance=record,
        )
        write_output(STDIO if args.output is None else args.output, page.encode("utf-8"), out)
        return EXIT_OK
    title = f"The judge {args.judge!r} against the gold {args.gold!r} ({shown_input(args.input)})"
    write_judge(classes, summary, fmt, args.output, summary_path, args.raw, out, record, title)
    return EXIT_OK


def write_judge(
    classes: Any,
    summary: Any,
    fmt: str,
    output: str | None,
    summary_path: str | None,
    raw: bool,
    out: IO[str],
    provenance: dict[str, Any] | None,
    title: str,
) -> None:
    """Write the per class table then the summary: to two files, or as one text or page."""
    from .._io.formats import STDIO, TABLE_FORMATS
    from .._io.write import write_output
    from .._report.report import _markdown_table, render_text
    from .output import write_sidecar

    if fmt in TABLE_FORMATS:
        write_table(classes, fmt, output, raw, out, provenance, title)
        write_table(summary, fmt, summary_path, raw, out, provenance, title)
        return
    if fmt == "markdown":
        text = f"# {title}\n\n## Per class\n\n{_markdown_table(classes)}"
        text += f"\n## Summary\n\n{_markdown_table(summary)}"
    else:
        text = f"{title}, per class:\n{render_text(classes)}"
        text += f"\nSummary:\n{render_text(summary)}"
    target = STDIO if output is None else output
    write_output(target, text.encode("utf-8"), out)
    if target != STDIO:
        write_sidecar(target, fmt, provenance)

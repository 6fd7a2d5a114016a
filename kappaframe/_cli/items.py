"""``kappaframe items INPUT``: flags in, ``kf.items`` out: the items table or the queue.

The table goes to stdout or ``--output`` in a table format, as text or markdown, or (the
queue sent back to be labelled again) as Label Studio tasks or Prodigy JSON lines, from the
annotation tools' writers (``kappaframe._io.tools``). Every file written says what made it,
as the report's do (``kappaframe._cli.output``).
"""

from __future__ import annotations

import argparse
import json
import warnings
from datetime import datetime, timezone
from typing import IO, Any

from . import EXIT_OK
from .bind import keywords
from .logs import log, relay
from .messages import line_numbers, shown_input
from .output import records_provenance, table_format, write_table
from .parser import TOOL_FORMATS
from .ratings import (
    coerce,
    long_layout_of_export,
    needed_columns,
    read_whole,
    relabel,
    resolve_exclude,
    text_options,
    tool_export,
)
from .report import settings


def _format(args: argparse.Namespace) -> str:
    if args.format in TOOL_FORMATS:
        return str(args.format)
    return table_format(
        args.output, args.format, "the items table", ", or label-studio or prodigy for the queue"
    )


def _long(args: argparse.Namespace) -> bool:
    """Whether the layout is long (``--rater`` or ``--label``); ``--item`` alone is wide.

    Alone, ``--item`` names the wide layout's item column.
    """
    from .._errors import KappaFrameError

    given = {"item": args.item, "rater": args.rater, "label": args.label}
    long = args.rater is not None or args.label is not None
    if long and any(v is None for v in given.values()):
        lacking = ", ".join(f"--{k}" for k, v in given.items() if v is None)
        raise KappaFrameError(
            f"the long layout needs --item, --rater and --label; {lacking} missing."
        )
    return long


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``kappaframe items``: write the items table (or the queue); return the exit code."""
    from .._api.items import items
    from .._io.formats import STDIO
    from .._io.provenance import provenance

    if tool_export(args):
        long_layout_of_export(args)
    long = _long(args)
    fmt = _format(args)
    if args.input != STDIO and args.output not in (None, STDIO):
        from .report import _check_not_input

        _check_not_input(args.input, {args.output: "--output"})
    by = list(args.by or [])
    options = text_options(args)
    log.debug("flags: %s", settings(args, fmt))
    keys = [*by, *([args.time] if args.time is not None else [])]  # read as group keys
    resolve_exclude(args, keys, long, options)
    if args.reference is not None and not long and args.input != STDIO:
        _check_reference(args, options)
    progress = False if args.no_progress or args.quiet else None
    data = read_whole(args, needed_columns(args, keys, long), keys, long, options, progress)
    key = [] if long or args.item is None else [args.item]
    label_columns = (
        [args.label] if long else (args.raters or [c for c in data if c not in {*keys, *key}])
    )
    if args.map or args.drop_labels:
        data = relabel(data, label_columns, args.map, args.drop_labels)
    categories = coerce(args.categories, data, label_columns)
    raters = coerce(args.raters, data, [args.rater]) if long else args.raters
    reference = args.reference
    if long and reference is not None:
        reference = coerce([reference], data, [args.rater])[0]
    with warnings.catch_warnings(record=True) as caught, line_numbers(args, long):
        warnings.simplefilter("always")
        table = items(
            data,
            raters,
            **keywords(items, args, by=by or None, categories=categories, reference=reference),
        )
    relay(str(w.message) for w in caught)
    created = datetime.now(timezone.utc).replace(microsecond=0)
    record = None
    if records_provenance(fmt, args.output, args):
        record = provenance([args.input], settings(args, fmt), created=created, progress=progress)
    write_items(
        table, fmt, args.output, args.raw, out, record, shown_input(args.input), by, categories
    )
    return EXIT_OK


def _check_reference(args: argparse.Namespace, options: Any) -> None:
    """A ``--reference`` that is not a column of INPUT, named before the file is read."""
    from .._errors import KappaFrameError, missing_columns
    from .._io.read import columns_of

    err = missing_columns([args.reference], columns_of(args.input, args.input_format, options))
    if err is not None:
        raise KappaFrameError(f"--reference: {err}", option="reference")


def write_items(
    table: Any,
    fmt: str,
    output: str | None,
    raw: bool,
    out: IO[str],
    provenance: dict[str, Any] | None,
    source: str,
    by: list[Any] | None = None,
    categories: list[Any] | None = None,
) -> None:
    """Write the items table in ``fmt`` to ``output`` (or stdout), with its provenance.

    ``by``: the group columns (the tools' formats tell them from the raters' labels).
    """
    tool = _tool_bytes(table, fmt, list(by or []), categories) if fmt in TOOL_FORMATS else None
    write_table(table, fmt, output, raw, out, provenance, f"Items of {source}", tool)


def _tool_bytes(queue: Any, fmt: str, by: list[Any], categories: list[Any] | None = None) -> bytes:
    """The queue in an annotation tool's import format, by that tool's writer.

    The raters are the queue's label columns (every column that is not a group, an item
    statistic or the reference's); the item id and the rest go along as the task's data
    (Label Studio) or its ``meta`` (Prodigy, which shows the item id as the text, and the
    options in the order of ``--categories`` when given).
    """
    from .._io.tools.label_studio import label_studio_tasks
    from .._io.tools.prodigy import prodigy_lines
    from .._schema import ITEM_COLUMNS, ITEM_REFERENCE_COLUMNS

    known = {*by, *ITEM_COLUMNS, *ITEM_REFERENCE_COLUMNS}
    raters = [c for c in queue.columns if c not in known]
    if not raters:
        from .._errors import KappaFrameError

        raise KappaFrameError(
            f"--format {fmt} writes each rater's label for the adjudicator, and this table "
            "has none: drop --no-labels.",
            option="labels",
        )
    if fmt == "label-studio":
        tasks = label_studio_tasks(queue, raters=raters)
        return (json.dumps(tasks, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    lines = prodigy_lines(queue, raters=raters, text=None, categories=categories)
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines).encode("utf-8")

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
    text = getattr(args, "text", None)
    if text is not None:
        _text_is_no_rater(args, keys, long, options)
    resolve_exclude(args, keys, long, options)
    if args.reference is not None and not long and args.input != STDIO:
        _check_reference(args, options)
    progress = False if args.no_progress or args.quiet else None
    needed = needed_columns(args, keys, long)
    if text is not None and needed is not None and text not in needed:
        needed = [*needed, text]
    data = read_whole(args, needed, keys, long, options, progress)
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
    if text is not None:
        table = _with_text(table, data, text, args.item if long or args.item else None, by)
    if fmt == "prodigy" and categories is None:  # every category an option, not the queue's
        categories = _every_label(data, label_columns)
    created = datetime.now(timezone.utc).replace(microsecond=0)
    record = None
    if records_provenance(fmt, args.output, args):
        record = provenance([args.input], settings(args, fmt), created=created, progress=progress)
    write_items(
        table,
        fmt,
        args.output,
        args.raw,
        out,
        record,
        shown_input(args.input),
        by,
        categories,
        labels=args.labels,
        text=text is not None,
    )
    if text is None and fmt in TOOL_FORMATS:
        log.warning(
            "no --text: %s; name the column of INPUT that holds each item's text with --text.",
            "the tasks' data has no text, only each item's id"
            if fmt == "label-studio"
            else "Prodigy shows each item's id as its text",
            extra={"label": "note"},
        )
    return EXIT_OK


def _text_is_no_rater(args: argparse.Namespace, keys: list[Any], long: bool, options: Any) -> None:
    """``--text``: a column of INPUT, no group, item, rater or label column; never a rater.

    In the wide layout without ``--raters`` it is left out of the raters (as ``--exclude``
    leaves a column out).
    """
    from .._errors import KappaFrameError
    from .._io.read import columns_of

    text = args.text
    taken = {
        "--by": keys,
        "--item": [args.item],
        "--rater": [args.rater],
        "--label": [args.label],
        "--raters": list(args.raters or []),
        "--reference": [args.reference],
    }
    for flag, columns in taken.items():
        if text in columns:
            raise KappaFrameError(
                f"--text {text!r} is also given to {flag}: the item's text is a column of "
                "its own; name another column with --text.",
                option="text",
            )
    names = columns_of(args.input, args.input_format, options)
    if text not in names:
        raise KappaFrameError(
            f"--text {text!r} is not a column of the input: {', '.join(map(str, names))}.",
            option="text",
        )
    if not long and not args.raters:
        args.exclude = [*(args.exclude or []), text]


def _with_text(table: Any, data: Any, text: Any, item: Any, by: list[Any]) -> Any:
    """The items table with ``text`` after ``item``: each item's text in ``data``.

    ``item``: the item key column of ``data`` (None: the wide layout's rows, by index).
    An item whose rows hold two texts is refused (one item, one text).
    """
    import pandas as pd

    from .._errors import KappaFrameError

    if "text" in table.columns:
        raise KappaFrameError(
            "the items table has a column named 'text' already (a rater's labels); --text "
            "would write another: rename that rater, or leave out --text.",
            option="text",
        )
    ids = data[item].to_numpy() if item is not None else data.index.to_numpy()
    pairs = pd.DataFrame({**{b: data[b].to_numpy() for b in by}, "item": ids})
    pairs["text"] = data[text].to_numpy()
    pairs = pairs.drop_duplicates()
    twice = pairs.duplicated([*by, "item"], keep=False)
    if twice.any():
        first = pairs[twice].iloc[0]
        texts = pairs.loc[twice & (pairs["item"] == first["item"]), "text"].tolist()[:2]
        raise KappaFrameError(
            f"--text {text!r}: item {first['item']!r} has two texts ({texts[0]!r:.60} and "
            f"{texts[1]!r:.60}); an item has one text. Check the column, or the item key.",
            option="text",
        )
    found = table[[*by, "item"]].merge(pairs, how="left", on=[*by, "item"])["text"]
    if found.isna().any():
        n = int(found.isna().sum())
        log.warning(
            "--text %r: %s no text (the cell is missing).",
            text,
            "1 item has" if n == 1 else f"{n} items have",
            extra={"label": "note"},
        )
    out = table.copy()
    out.insert(list(out.columns).index("item") + 1, "text", found.to_numpy())
    return out


def _every_label(data: Any, columns: list[Any]) -> list[Any]:
    """Every label the raters gave in ``data`` (not only the queue's), sorted."""
    from .._io.tools.queue import is_missing, sorted_values

    seen = {v for c in columns if c in data for v in data[c].unique() if not is_missing(v)}
    return sorted_values(seen)


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
    *,
    labels: bool | None = None,
    text: bool = False,
) -> None:
    """Write the items table in ``fmt`` to ``output`` (or stdout), with its provenance.

    ``by``: the group columns (the tools' formats tell them from the raters' labels);
    ``labels``: ``--labels`` as given (True, False for ``--no-labels``, None); ``text``:
    the table's ``text`` column is the items' text (``--text``), no rater.
    """
    tool = None
    if fmt in TOOL_FORMATS:
        tool = _tool_bytes(table, fmt, list(by or []), categories, labels, text)
    write_table(table, fmt, output, raw, out, provenance, f"Items of {source}", tool)


def _tool_bytes(
    queue: Any,
    fmt: str,
    by: list[Any],
    categories: list[Any] | None = None,
    labels: bool | None = None,
    text: bool = False,
) -> bytes:
    """The queue in an annotation tool's import format, by that tool's writer.

    The raters are the queue's label columns (every column that is not a group, an item
    statistic, the reference's or the item's ``text``); the item id, its text and the rest
    go along as the task's data (Label Studio: ``data.text``) or as Prodigy's ``text``
    (the item id where there is no text) and ``meta``, with ``categories`` as the options
    (``--categories``, or every label of the input).
    """
    from .._io.tools.label_studio import label_studio_tasks
    from .._io.tools.prodigy import prodigy_lines
    from .._schema import ITEM_COLUMNS, ITEM_REFERENCE_COLUMNS

    known = {*by, *ITEM_COLUMNS, *ITEM_REFERENCE_COLUMNS, *(["text"] if text else [])}
    raters = [c for c in queue.columns if c not in known]
    if not raters:
        from .._errors import KappaFrameError

        way = (
            "drop --no-labels"
            if labels is False
            else "the labels come with the queue: add --disagreements (or --min-p, "
            "--max-support), or --labels for every item"
        )
        raise KappaFrameError(
            f"--format {fmt} writes each rater's label for the adjudicator, and this table "
            f"has none: {way}.",
            option="labels",
        )
    if fmt == "label-studio":
        tasks = label_studio_tasks(queue, raters=raters)
        return (json.dumps(tasks, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    shown = "text" if text else None
    lines = prodigy_lines(queue, raters=raters, text=shown, categories=categories)
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines).encode("utf-8")

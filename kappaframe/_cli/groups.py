"""The flag groups several subcommands share: input, layout, labels, windows, output, messages.

A flag that sets an option of the function a subcommand calls (``where``) is made from its
declaration (``flags.add_option``); the command line's own flags (where the input comes
from and how its text is read, where the output goes) are spelled here.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from .flags import add_option, delimiter, mapping

__all__ = [
    "input_flags",
    "label_flags",
    "layout_flags",
    "message_flags",
    "output_flags",
    "window_flags",
]


def window_flags(command: argparse.ArgumentParser, where: str) -> None:
    """``--time COL --every 1w [--period 4w]``: agreement per time window."""
    group = command.add_argument_group(
        "over time",
        "one result per time window (polars' group_by_dynamic windows), keyed by "
        "window_start and window_end after the --by columns",
    )
    for name in ("time", "every", "period", "offset", "closed"):
        add_option(group, name, where)


def input_flags(command: argparse.ArgumentParser, where: str, optional: str | None = None) -> None:
    """INPUT, its format, how its text is read, and which cells are missing.

    ``optional``: INPUT may be left out, and this says what it is for.
    """
    from .._io.formats import INPUT_FORMATS

    command.add_argument(
        "input",
        metavar="INPUT",
        nargs="?" if optional else None,
        help=(optional + ": " if optional else "")
        + "CSV, TSV, Parquet or JSON lines file (compressed too); a glob or a directory "
        "of them (rows stacked, columns united); - for standard input",
    )
    command.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        help="default: from the file's suffix; for - sniffed from the first bytes. "
        "label-studio, prodigy, doccano: an annotation tool's export (JSON or JSON lines), "
        "read as the long layout item, rater, label (found from the first record of a "
        ".json or .jsonl file when not named)",
    )
    add_option(command, "fields", where)
    text_in = command.add_argument_group("text input (CSV, TSV)")
    text_in.add_argument(
        "--delimiter",
        type=delimiter,
        metavar="SEP",
        help="the field separator, e.g. ';' or tab (default: sniffed among , ; tab |)",
    )
    text_in.add_argument(
        "--decimal",
        choices=[".", ","],
        help="the decimal mark of numbers (default: ',' when the separator is not ',' and "
        "the numbers are written 0,75)",
    )
    text_in.add_argument(
        "--encoding",
        metavar="NAME",
        help="the text encoding, e.g. cp1252 for Excel's 'CSV (Windows)' (default: UTF-8, "
        "with or without a byte order mark)",
    )
    command.add_argument(
        "--na-values",
        nargs="+",
        action="extend",
        default=[],
        metavar="TOKEN",
        help="text that also means a missing label, e.g. --na-values NA N/A (default: "
        "only an empty cell is missing; 'NA', 'None', 'null' are labels); CSV, TSV, JSON",
    )


def layout_flags(command: argparse.ArgumentParser, where: str) -> None:
    """The wide layout's rater columns, or the long layout's three columns."""
    layout = command.add_argument_group(
        "layout", "wide: one column per rater (--raters); long: one row per rating"
    )
    add_option(layout, "raters", where)
    layout.add_argument(
        "--exclude",
        nargs="+",
        metavar="COL",
        default=[],
        help="wide, without --raters: columns that are not raters (ids, scores)",
    )
    for name in ("item", "rater", "label", "duplicates"):
        add_option(layout, name, where)


def label_flags(group: Any, where: str) -> None:
    """The category order, and the labels renamed or dropped before anything is counted."""
    add_option(group, "categories", where)
    group.add_argument(
        "--drop-labels",
        nargs="+",
        default=[],
        metavar="LABEL",
        help="treat these labels as missing (e.g. an 'unsure' outside --categories)",
    )
    group.add_argument(
        "--map",
        nargs="+",
        default=[],
        type=mapping,
        metavar="OLD=NEW",
        help="rename labels before counting, e.g. --map gut=good schlecht=bad",
    )


def output_flags(command: argparse.ArgumentParser, formats: Sequence[str]) -> Any:
    """Where the result goes and in which format; returns the group for more flags."""
    out = command.add_argument_group("output")
    out.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="write here (atomically); beside it, PATH.provenance.json says what made it "
        "(kappaframe's version, each input's path as given, size and SHA-256, the options, "
        "the time; Parquet and HTML keep it inside instead) unless --no-provenance",
    )
    out.add_argument(
        "--format",
        choices=list(formats),
        help="default: from the output's suffix; a readable table on stdout",
    )
    out.add_argument(
        "--raw",
        action="store_true",
        help="CSV: write every cell exactly; by default a text cell starting with = + - @ "
        "(or a tab or carriage return) gets a leading ' so that a spreadsheet shows it "
        "as text instead of running it as a formula (numbers are never changed)",
    )
    out.add_argument(
        "--no-progress", action="store_true", help="no progress bar, even on a terminal"
    )
    provenance_flag(out)
    return out


def provenance_flag(group: Any) -> None:
    """``--no-provenance``: no record of what made a written file, beside it or inside it."""
    group.add_argument(
        "--no-provenance",
        action="store_true",
        help="write no provenance record: no PATH.provenance.json beside a written file, "
        "none inside a Parquet file or an HTML report",
    )


def message_flags(command: argparse.ArgumentParser) -> None:
    """``--quiet`` and ``--verbose``: how much the command says on stderr."""
    group = command.add_argument_group(
        "messages", "what goes to stderr (the report itself is never affected)"
    )
    either = group.add_mutually_exclusive_group()
    either.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="errors only (and the rows under --fail-under, or that dropped or cannot tell "
        "since --baseline): no warnings, notes or progress bar",
    )
    either.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="also say what is read, which raters are taken, what is written, with "
        "timings; -vv adds details for debugging",
    )

"""Errors in the command line's words: its flags for the API's options, the file's lines."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
from collections.abc import Iterator
from typing import IO

from . import EXIT_USAGE

#: Python spellings in the API's messages, and what a command-line user types instead.
_FOR_CLI = (
    (
        r"Convert the column to one type first, e\.g\. \.astype\(str\)\.",
        "Write the column's labels as one type in the file, or list them with --categories.",
    ),
    (
        r"Convert them to one type \(e\.g\. \.astype\(str\) on the numeric ones\), or pass",
        "Write them as one type in the file, or pass",
    ),
    (r"\.astype\(str\)", "labels of one type"),
    (r", or use an ordered pandas Categorical or a polars Enum\.", "."),
    (
        r"name them: null_values=\[(.*?)\] \(a file read by kf\.scan\), or replace them with "
        r"None in the frame\.",
        lambda m: "name them: --na-values " + " ".join(re.findall(r"'([^']*)'", m.group(1))) + ".",
    ),
    (r" \(or drop (it|them) first\)\.", r" (or leave \1 out with --exclude)."),
    (r"duplicates='first' or 'last'", "--duplicates first or --duplicates last"),
    (r"\b(duplicates|weights|scale|stats)='([\w-]+)'", r"--\1 \2"),
    (r"not in categories= ", "not in categories (--categories) "),
    (r"(categories|raters)=\[\.\.\.\]", r"--\1 ..."),
    (r"raters=None", "no --raters"),
    (r"\bmin_overlap=", "--min-overlap"),
    (
        r"\bmin_items must be a whole number of items \(>= 0\) or None",
        "--min-items must be a whole number of items (>= 0)",
    ),
    (r"; 0 or None gives every value its band", "; --min-items 0 gives every row its band"),
    (r"\bmethod='(\w+)'", r"--overall \1"),
    (
        r"\b(categories|raters|weights|by|reference|stats|scale|ci|item|rater|label|method)=",
        r"--\1",
    ),
    (
        r"Add it to --categories, or recode or drop those rows first\.",
        "Add it to --categories, treat it as missing with --drop-labels LABEL, or rename it "
        "with --map LABEL=NEW.",
    ),
)


def for_cli(message: str) -> str:
    """An API message with its Python option spellings turned into command-line flags."""
    for pattern, flag in _FOR_CLI:
        message = re.sub(pattern, flag, message)
    return message


def usage_error(message: str, stream: IO[str]) -> int:
    """Say ``message`` on ``stream`` as a ``kappaframe: error:`` line; return exit code 2."""
    from .._report.display import visible

    with contextlib.suppress(OSError):
        stream.write(f"kappaframe: error: {visible(message.strip(), newlines=True)}\n")
        stream.flush()
    return EXIT_USAGE


def shown_input(path: str) -> str:
    """The input as messages name it: its file name, or standard input."""
    return "standard input" if path == "-" else os.path.basename(path) or path


@contextlib.contextmanager
def comma_hint(args: argparse.Namespace) -> Iterator[None]:
    """``--raters a,b,c`` (one name with commas) that is not a column: say to use spaces."""
    from .._errors import KappaFrameError

    try:
        yield
    except KappaFrameError as err:
        commas = [r for r in args.raters or [] if isinstance(r, str) and "," in r]
        if not commas or args.item is not None or "not found" not in str(err):
            raise
        parts = [p for p in commas[0].split(",") if p]
        raise KappaFrameError(
            f"{err} Separate rater names with spaces, not commas: --raters {' '.join(parts)}"
        ) from None


@contextlib.contextmanager
def line_numbers(args: argparse.Namespace, long: bool) -> Iterator[None]:
    """Duplicate ratings: the API's 0-based rows become the file's line numbers."""
    import re

    from .._errors import KappaFrameError
    from .._io.formats import STDIO
    from .._io.read import TEXT_FORMATS, expand_input, input_kind

    try:
        yield
    except KappaFrameError as err:
        message = str(err)
        found = re.search(r"\(rows (\d+) and (\d+)\)", message)
        one = args.input == STDIO or expand_input(args.input) == [args.input]
        if found is None or not long or args.raters or not one:
            raise
        a, b = int(found.group(1)), int(found.group(2))
        if input_kind(args.input, args.input_format) in TEXT_FORMATS:
            where = f"(lines {a + 2} and {b + 2} of {shown_input(args.input)}, after its header)"
        else:
            where = f"(records {a + 1} and {b + 1} of {shown_input(args.input)})"
        raise KappaFrameError(message.replace(found.group(0), where)) from None

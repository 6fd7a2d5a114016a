"""Errors in the command line's words: one ``kappaframe: error:`` line, the file's lines."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from typing import IO

from . import EXIT_USAGE


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
    from .._io.formats import STDIO, TOOL_FORMATS
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
        kind = input_kind(args.input, args.input_format)
        if kind in TOOL_FORMATS:
            where = f"(two of the ratings read from {shown_input(args.input)})"
        elif kind in TEXT_FORMATS:
            where = f"(lines {a + 2} and {b + 2} of {shown_input(args.input)}, after its header)"
        else:
            where = f"(records {a + 1} and {b + 1} of {shown_input(args.input)})"
        raise KappaFrameError(message.replace(found.group(0), where)) from None

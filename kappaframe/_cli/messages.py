"""Errors in the command line's words: one ``kappaframe: error:`` line, the file's lines.

argparse's own errors (``parser.Parser``) are short: one usage line, the error with what
was probably meant (``unrecognized``), and where the whole help is.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
from collections.abc import Iterator, Sequence
from typing import IO, Any

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


def short_usage(parser: argparse.ArgumentParser) -> str:
    """One usage line: the command, ``[options]`` and its positionals (``--help`` has all)."""
    parts = [parser.prog]
    if any(a.option_strings and a.dest != "help" for a in parser._actions):
        parts.append("[options]")
    for action in parser._get_positional_actions():
        name = str(action.metavar or action.dest.upper())
        if isinstance(action, argparse._SubParsersAction):
            name += " ..."
        parts.append(f"[{name}]" if action.nargs in ("?", "*") else name)
    return "usage: " + " ".join(parts)


def _long_flags(parser: argparse.ArgumentParser) -> list[str]:
    return [s for a in parser._actions for s in a.option_strings if s.startswith("--")]


def _flag_action(parser: argparse.ArgumentParser, token: str) -> tuple[str, Any] | None:
    """The flag ``token`` was read as (itself, or the long flag it abbreviates), its action."""
    flag = token.split("=", 1)[0]
    actions = parser._option_string_actions
    if flag in actions:
        return flag, actions[flag]
    if parser.allow_abbrev and flag.startswith("--"):
        taken = [s for s in _long_flags(parser) if s.startswith(flag)]
        if len(taken) == 1:
            return taken[0], actions[taken[0]]
    return None


def _capacity(action: Any) -> float:
    """How many values a flag takes at most."""
    if action.nargs in (None, "?"):
        return 1
    if isinstance(action.nargs, int):
        return action.nargs
    return float("inf")


def _is_flag(token: str) -> bool:
    if not token.startswith("-") or token == "-":
        return False
    try:
        float(token)
    except ValueError:
        return True
    return False


def _stray_value(parser: argparse.ArgumentParser, argv: Sequence[str], value: str) -> str | None:
    """Why ``value`` was left over: the flag before it took all the values it takes."""
    for i, token in enumerate(argv):
        j = next((j for j in range(i - 1, -1, -1) if _is_flag(argv[j])), None)
        found = None if token != value or j is None else _flag_action(parser, argv[j])
        if j is None or found is None:
            continue
        flag, action = found
        given, inline, attached = argv[j].partition("=")
        capacity = _capacity(action)
        took = [attached] if inline else list(argv[j + 1 : j + 1 + int(min(capacity, i - j))])
        if i - j <= (0 if inline else capacity):
            continue
        named = f"{given} was read as {flag}, which" if given != flag else flag
        what = (action.help or "").split(";")[0]
        what = f" ({what})" if what and len(what) <= 60 else ""
        if capacity == 0:
            said = f"{named} takes no value{what}"
        else:
            count = "one value" if capacity == 1 else f"{capacity:g} values"
            said = f"{named} takes {count}{what} and took {', '.join(map(repr, took))}"
        several = [s for a in parser._actions if _capacity(a) > 1 for s in a.option_strings]
        close = difflib.get_close_matches(flag, [s for s in several if s != flag], 1, 0.85)
        if close and capacity > 0:
            end = next((k for k in range(j + 1, len(argv)) if _is_flag(argv[k])), len(argv))
            values = [attached] if inline else []
            said += f"; did you mean {' '.join([close[0], *values, *argv[j + 1 : end]])}?"
        return said
    return None


def unrecognized(
    parser: argparse.ArgumentParser, argv: Sequence[str], extras: Sequence[str]
) -> str:
    """The "unrecognized arguments" error, with what each was probably meant to be.

    A misspelled flag gets the flag it is closest to (``--ratrs``: did you mean
    ``--raters``?); a value left over says which flag took the values before it and how
    many it takes (``--rater a b``: ``--rater`` takes one value and took ``'a'``; did you
    mean ``--raters a b``?).
    """
    hints: list[str] = []
    flags = _long_flags(parser)
    for token in extras:
        if _is_flag(token):
            close = difflib.get_close_matches(token.split("=", 1)[0], flags, n=1)
            if _flag_action(parser, token) is not None:  # given before the command's name
                hints.append(f"{token}: give it after {parser.prog!r}")
            elif close:
                hints.append(f"{token.split('=', 1)[0]}: did you mean {close[0]}?")
        elif (why := _stray_value(parser, argv, token)) is not None:
            hints.append(why)
            break
    message = f"unrecognized arguments: {' '.join(extras)}"
    return "; ".join([message, *dict.fromkeys(hints)])

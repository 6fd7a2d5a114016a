"""The ``kappaframe`` command's parser: ``build_parser``, and the flag of each option.

Each subcommand adds its own flags (``<command>_flags.add_parser``), those of the options
of the function it calls made from their declarations (``flags.add_option``); the groups
several share are in ``groups``. A new subcommand is a module with ``add_parser`` listed in
``COMMANDS``.

argparse's errors are short (``Parser``): one usage line, the error, and where the whole
help is; a misspelled flag or choice gets the closest one ("did you mean --raters?").
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from . import demo_flags, items_flags, judge_flags, plan_flags, report_flags
from .items_flags import ITEM_FORMATS as ITEM_FORMATS
from .items_flags import TOOL_FORMATS as TOOL_FORMATS

__all__ = ["COMMANDS", "Parser", "build_parser", "option_flags"]

#: The subcommands, in the order ``kappaframe --help`` lists them.
COMMANDS = (demo_flags, report_flags, items_flags, plan_flags, judge_flags)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are short and say what was probably meant.

    An error is one usage line, ``<command>: error: <message>`` and ``see <command>
    --help`` (not the whole usage, 30 lines for ``report``). An invalid choice gets the
    closest choice (Python 3.14's ``suggest_on_error`` where there is one, else
    ``difflib``); arguments left over name the flag they were probably meant for, in the
    subcommand's words (``messages.unrecognized``). Subcommands are made of this class too.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if sys.version_info >= (3, 14):  # pragma: no cover - argparse's own suggestions
            kwargs.setdefault("suggest_on_error", True)
        super().__init__(*args, **kwargs)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> argparse.Namespace:
        from .messages import unrecognized

        argv = list(sys.argv[1:] if args is None else args)
        parsed, extras = self.parse_known_args(argv, namespace)
        if extras:
            command = self._command(parsed)
            command.error(unrecognized(command, argv, extras))
        return parsed

    def _command(self, parsed: argparse.Namespace) -> argparse.ArgumentParser:
        """The subcommand's parser that ran (this one if none)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = getattr(parsed, action.dest, None)
                return action.choices.get(chosen, self) if chosen else self
        return self

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as err:
            if getattr(self, "suggest_on_error", False) or not isinstance(value, str):
                raise
            close = difflib.get_close_matches(value, [str(c) for c in action.choices or ()], 1)
            if not close:
                raise
            raise argparse.ArgumentError(
                action, f"{err.message}; did you mean {close[0]!r}?"
            ) from None

    def error(self, message: str) -> NoReturn:
        from .messages import short_usage

        self.exit(
            2, f"{short_usage(self)}\n{self.prog}: error: {message}\nsee {self.prog} --help\n"
        )


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of the ``kappaframe`` command."""
    from .._version import __version__

    parser = Parser(
        prog="kappaframe",
        description="Cohen's kappa between raters, from a file of labels.",
        epilog=report_flags.EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"kappaframe {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


#: Python options whose flag has another name (the rest are spelled alike: ``min_items``
#: is ``--min-items``).
_RENAMED = {"method": "overall", "null_values": "na_values"}


def option_flags(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each Python option the command line offers, and the flag that sets it.

    Read off the parser, so a new flag names itself in messages: ``{"weights":
    "--weights", "method": "--overall", ...}``.
    """
    flags: dict[str, str] = {}
    actions = list(parser._actions)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            actions += [a for sub in action.choices.values() for a in sub._actions]
    for action in actions:
        long = [s for s in action.option_strings if s.startswith("--")]
        if long and action.dest not in ("help", "version"):
            flags[action.dest] = long[0]
    for option, dest in _RENAMED.items():
        flags[option] = flags[dest]
    return flags

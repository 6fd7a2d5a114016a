"""The ``kappaframe`` command's parser: ``build_parser``, and the flag of each option.

Each subcommand adds its own flags (``<command>_flags.add_parser``), those of the options
of the function it calls made from their declarations (``flags.add_option``); the groups
several share are in ``groups``. A new subcommand is a module with ``add_parser`` listed in
``COMMANDS``.
"""

from __future__ import annotations

import argparse

from . import demo_flags, items_flags, plan_flags, report_flags
from .items_flags import ITEM_FORMATS as ITEM_FORMATS
from .items_flags import TOOL_FORMATS as TOOL_FORMATS

__all__ = ["COMMANDS", "build_parser", "option_flags"]

#: The subcommands, in the order ``kappaframe --help`` lists them.
COMMANDS = (demo_flags, report_flags, items_flags, plan_flags)


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of the ``kappaframe`` command."""
    from .._version import __version__

    parser = argparse.ArgumentParser(
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

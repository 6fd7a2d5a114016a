"""A flag made from its option's declaration, and the readers of flag values.

``add_option(group, name, where)`` adds the flag of the option ``name`` of the public
callable ``where`` (``report`` calls ``pairwise``, ``items`` ``items``, ``plan``
``sample_size``: ``bind.COMMAND_FUNCTION``) to an argparse group, from its one
declaration (``kappaframe._api.settings.params``): the flag, its help, its placeholder, its
default, its choices, how many values it takes and how its text is read. What the
declaration does not say is read off its constraint:

- a list of columns, names or labels (``Columns``, ``Names``, ``Labels``) takes one or more;
- ``True`` or ``False`` (``Flag``) is a switch (``--labels / --no-labels`` where ``None``,
  the function's own choice, is allowed too);
- one of a list (``OneOf``, or a checker with choices) offers those choices (read as whole
  numbers where they are);
- a number (``Number``) is read as a whole number or a number.

A declaration's ``cli_type`` names a reader of this module (``READERS``) where the
constraint does not say enough (``--ci`` is a level in (0, 1)).
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from .._api.settings.constraints import Columns, Flag, Labels, Names, Number
from .._api.settings.params import REQUIRED, Param, declaration

__all__ = ["READERS", "add_option", "flag_arguments"]


def add_option(group: Any, name: str, where: str, **overrides: Any) -> argparse.Action:
    """Add the flag of ``where``'s option ``name`` to ``group`` from its declaration.

    ``overrides``: ``add_argument`` keywords that replace the declaration's (none of
    kappaframe's own flags needs one; they are for a subcommand that reads a flag
    otherwise).
    """
    param = declaration(where, name)
    if param.flag is None:
        raise LookupError(f"{where}({name}=...) is declared without a command-line flag.")
    return group.add_argument(param.flag, **{**flag_arguments(param, where), **overrides})


def flag_arguments(param: Param, where: str) -> dict[str, Any]:
    """The ``add_argument`` keywords of ``param``'s flag in the subcommand calling ``where``."""
    constraint = param.constraint
    arguments: dict[str, Any] = {
        "dest": param.name,
        "default": None if param.default is REQUIRED else param.default,
        "help": param.help_for(where),
    }
    if isinstance(constraint, Flag):
        action = argparse.BooleanOptionalAction if constraint.none else "store_true"
        return {**arguments, "action": action}
    if param.metavar is not None:
        arguments["metavar"] = param.metavar
    nargs = param.nargs
    if nargs is None and isinstance(constraint, (Columns, Names, Labels)):
        nargs = "+"
    if nargs is not None:
        arguments["nargs"] = nargs
    kind = _reader(param)
    if kind is not None:
        arguments["type"] = kind
    if param.choices:
        arguments["choices"] = list(param.choices)
    return arguments


def _reader(param: Param) -> Any:
    """How the flag's text is read: the declaration's reader, or the constraint's kind."""
    if param.cli_type is not None:
        return READERS[param.cli_type]
    constraint = param.constraint
    if isinstance(constraint, Number):
        return int if constraint.integer else float
    choices = param.choices
    if choices and all(isinstance(c, int) and not isinstance(c, bool) for c in choices):
        return int
    return None


def number(text: str, kind: type[float] | type[int] = float) -> Any:
    """``text`` as a float (or an int), or an argparse error naming it."""
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None


def whole(text: str) -> int:
    """``text`` as an int, or an argparse error naming it."""
    return int(number(text, int))


def level(text: str) -> float:
    """A confidence level, in (0, 1)."""
    value = number(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"a confidence level is between 0 and 1; got {text}")
    return float(value)


def bar(text: str) -> float:
    """A finite bar (``--fail-under``): an infinite one would switch the check off."""
    value = number(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(
            f"{text!r} would switch the check off; give a finite number, e.g. 0.6"
        )
    return float(value)


def drop(text: str) -> float:
    """The largest drop of a coefficient that does not matter, in [0, 2)."""
    value = number(text)
    if not 0 <= value < 2:
        raise argparse.ArgumentTypeError(
            f"a drop of a coefficient is in [0, 2), e.g. 0.1; got {text}"
        )
    return float(value)


def share(text: str) -> float:
    """A share, in [0, 1]."""
    value = number(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a share is between 0 and 1; got {text}")
    return float(value)


def count(text: str) -> int:
    """A number of groups, 0 or more."""
    value = number(text, int)
    if value < 0:
        raise argparse.ArgumentTypeError(f"a number of groups is 0 or more; got {text}")
    return int(value)


def delimiter(text: str) -> str:
    """One separator character (``tab``, ``comma``, ``semicolon``, ``pipe`` by name)."""
    named = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}
    sep = named.get(text.lower(), text)
    if len(sep) != 1:
        raise argparse.ArgumentTypeError(f"a separator is one character (or 'tab'); got {text!r}")
    return sep


def mapping(text: str) -> tuple[str, str]:
    """A label change, ``OLD=NEW``."""
    old, eq, new = text.partition("=")
    if not eq or not old:
        raise argparse.ArgumentTypeError(f"write a label change as OLD=NEW; got {text!r}")
    return old, new


#: The readers a declaration's ``cli_type`` names.
READERS: dict[str, Any] = {
    "int": int,
    "float": float,
    "number": number,
    "whole": whole,
    "level": level,
    "bar": bar,
    "drop": drop,
    "share": share,
}

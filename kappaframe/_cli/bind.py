"""Flags to keywords, in one place, by the declarations.

- ``check_options``: each flag that sets a Python option (``params.PARAMS``, its
  ``flag``) is checked by the option's own declaration, as the subcommand's function would
  check it, before the input is opened: a bad ``--population`` is named even when the input
  is damaged. Messages name the flag (the caller's spelling is installed by ``cli._run``).
- ``keywords``: the keyword arguments of a public function from the parsed flags: every
  option of the function that has a flag, as the flag gave it, and the values the command
  computed (the raters and categories as read, the groups) over them.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from .._api.settings.bind import declarations
from .._api.settings.params import PARAMS, declaration

__all__ = ["check_options", "keyword_value", "keywords"]

#: The function each subcommand's options belong to (``report`` takes pairwise's options,
#: and the options overall() alone takes are declared once for every callable).
COMMAND_FUNCTION = {
    "report": "pairwise",
    "items": "items",
    "plan": "sample_size",
    "judge": "judge_report",
}


def keyword_value(name: str, value: Any) -> Any:
    """A flag's value as the Python option takes it (``--stats all`` is ``stats="all"``)."""
    if name == "stats" and value == ["all"]:
        return "all"
    return value


def check_options(args: argparse.Namespace) -> None:
    """Refuse, before any read, a flag's value that its option's declaration refuses."""
    where = COMMAND_FUNCTION.get(args.command)
    if where is None:
        return
    given = vars(args)
    for name in dict.fromkeys(p.name for p in PARAMS if p.flag is not None):
        value = given.get(name)
        if value is None:
            continue
        try:
            param = declaration(where, name)
        except LookupError:
            continue
        param.constraint.check(name, keyword_value(name, value))


def keywords(func: Callable[..., Any], args: argparse.Namespace, **computed: Any) -> dict[str, Any]:
    """``func``'s keyword options from the flags.

    Each declared option of ``func`` that has a flag, as the flag gave it; then ``computed``
    (what the command worked out: the raters and categories as read, the groups).
    """
    given = vars(args)
    options = {
        name: keyword_value(name, given[name])
        for name, param in declarations(func).items()
        if param.flag is not None and name in given and name != "raters"
    }
    return {**options, **computed}

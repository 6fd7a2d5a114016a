"""The command line's options checked against their declarations before any input is read.

Each flag that sets a Python option (``params.PARAMS``, its ``flag``) is checked by the
option's own declaration, as the subcommand's function would check it, before the input is
opened: a bad ``--population`` is named even when the input is damaged. Messages name the
flag (the caller's spelling is installed by ``cli._run``).
"""

from __future__ import annotations

import argparse
from typing import Any

from .._api.settings.params import PARAMS, declaration

__all__ = ["check_options", "keyword_value"]

#: The function each subcommand's options belong to (``report`` takes pairwise's options,
#: and the options overall() alone takes are declared once for every callable).
COMMAND_FUNCTION = {"report": "pairwise", "items": "items", "plan": "sample_size"}


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

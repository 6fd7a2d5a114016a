"""``kappaframe plan``'s flags: its options are ``kf.sample_size``'s."""

from __future__ import annotations

import argparse
from typing import Any, get_args

from .bind import COMMAND_FUNCTION
from .flags import add_option
from .groups import input_flags, layout_flags, message_flags, output_flags
from .items_flags import ITEM_FORMATS

__all__ = ["add_parser"]

#: The function whose options ``plan``'s flags set.
WHERE = COMMAND_FUNCTION["plan"]

_PLAN_EPILOG = """\
power (--kappa1): items to reject kappa <= --kappa0 (one-sided, or --alternative two-sided as
R's kappaSize) with --power when kappa is --kappa1. interval (--width, or --lower/--upper):
items for the expected confidence limits around --kappa0 to reach them. With a pilot INPUT,
its category shares and Fleiss' kappa (per --by group) stand for --props and --kappa1
(power) or --kappa0 (interval). n_items is rounded up, as kappaSize reports it.

examples:
  kappaframe plan --kappa0 0.4 --kappa1 0.6 --props 0.3 0.7 --power 0.8
  kappaframe plan --kappa0 0.6 --width 0.2 --props 0.2 0.3 0.5 --n-raters 3
  kappaframe plan pilot.csv --raters a b --kappa0 0.4 --by project
"""


def add_parser(commands: Any) -> None:
    """Add ``kappaframe plan``: how many items to rate, from numbers or a pilot file."""
    from .._types import SizeMethod

    plan = commands.add_parser(
        "plan",
        help="how many items to rate: the sample size for power or an interval of kappa",
        description="The number of items a kappa study needs: to reject --kappa0 when kappa "
        "is --kappa1 (power), or for the interval around --kappa0 to reach --width, --lower "
        "or --upper; from numbers, or from a pilot INPUT.",
        epilog=_PLAN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    input_flags(plan, WHERE, optional="a pilot (optional)")
    layout_flags(plan, WHERE)
    plan.set_defaults(reference=None)
    group = plan.add_argument_group("plan")
    for name in (
        "by",
        "categories",
        "kappa0",
        "kappa1",
        "props",
        "n_raters",
        "alpha",
        "power",
        "width",
        "lower",
        "upper",
        "n_items",
        "alternative",
    ):
        add_option(group, name, WHERE)
    group.add_argument(
        "--method",
        dest="size_method",
        choices=list(get_args(SizeMethod)),
        default="auto",
        help="goodness-of-fit (kappaSize's closed form: 2-5 categories, 2-6 raters), "
        "simulation (of Fleiss' kappa), or auto: the closed form where there is one",
    )
    add_option(group, "seed", WHERE)
    output_flags(plan, ITEM_FORMATS)
    message_flags(plan)

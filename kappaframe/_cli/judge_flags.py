"""``kappaframe judge``'s flags: its options are ``kf.judge_report``'s."""

from __future__ import annotations

import argparse
from typing import Any

from .bind import COMMAND_FUNCTION
from .flags import add_option
from .groups import input_flags, message_flags, output_flags
from .items_flags import ITEM_FORMATS

__all__ = ["add_parser"]

#: The function whose options ``judge``'s flags set.
WHERE = COMMAND_FUNCTION["judge"]

_JUDGE_EPILOG = """\
Two tables: per class (support, predicted, the base rates, precision, recall, F1), then the
summary (accuracy with Wilson's interval, balanced accuracy, the averages of precision, recall
and F1, kappa with its interval, and with two categories the prevalence corrected for the
judge's errors), as kf.judge_report computes them. With --output OUT the per class table goes
to OUT and the summary beside it, to OUT's name with .summary before the extension
(judge.csv -> judge.summary.csv). --format html (or -o judge.html) writes one page of both.

examples:
  kappaframe judge labels.csv --judge llm --gold human
  kappaframe judge labels.csv --judge llm --gold human --by project -o judge.csv
"""


def add_parser(commands: Any) -> None:
    """Add ``kappaframe judge``: a judge's labels against the gold, per class and per group."""
    judge = commands.add_parser(
        "judge",
        help="a judge (an LLM judge, a classifier) against gold labels: precision, recall, "
        "accuracy, kappa",
        description="How well a judge's column matches a gold column of INPUT, per class "
        "and per --by group: kf.judge_report.",
        epilog=_JUDGE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    input_flags(judge, WHERE)
    group = judge.add_argument_group("judge")
    for name in ("judge", "gold", "by", "categories", "ci", "scale"):
        add_option(group, name, WHERE)
    output_flags(judge, (*ITEM_FORMATS, "html"))
    message_flags(judge)

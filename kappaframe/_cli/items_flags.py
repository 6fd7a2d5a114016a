"""``kappaframe items``'s flags: its options are ``kf.items``'."""

from __future__ import annotations

import argparse
from typing import Any

from .bind import COMMAND_FUNCTION
from .flags import add_option
from .groups import (
    input_flags,
    label_flags,
    layout_flags,
    message_flags,
    output_flags,
    window_flags,
)

__all__ = ["ITEM_FORMATS", "TOOL_FORMATS", "add_parser"]

#: The function whose options ``items``' flags set.
WHERE = COMMAND_FUNCTION["items"]

#: ``kappaframe items --format``: the tables, text and markdown, and two annotation tools'
#: import formats (the queue sent back to be labelled again).
ITEM_FORMATS = ("text", "csv", "tsv", "json", "jsonl", "parquet", "markdown")
TOOL_FORMATS = ("label-studio", "prodigy")

_ITEMS_EPILOG = """\
the queue: --disagreements keeps the items whose raters do not all agree, --min-p and
--max-support the items under a bar; each group's items come most contested first (lowest
p_i, then lowest support), with every rater's label. --format label-studio writes Label
Studio tasks (each rater's answer a prediction), --format prodigy Prodigy JSON lines
(every category an option); --text names the column of the item's text they show.

examples:
  kappaframe items team.csv --by project --exclude item model_score
  kappaframe items team.csv --by project --exclude item model_score --disagreements \\
      --output queue.csv
  kappaframe items ratings.parquet --item item_id --rater annotator --label label \\
      --reference expert --format markdown
"""


def add_parser(commands: Any) -> None:
    """Add ``kappaframe items``: one row per item, or the queue of the items to send back."""
    items = commands.add_parser(
        "items",
        help="per-item agreement and consensus labels; the queue of items to send back",
        description="One row per item of INPUT (per group): its ratings, the consensus "
        "label and its support, Fleiss' per-item agreement p_i and the entropy; with "
        "--disagreements (or --min-p, --max-support) the items to send back, most contested "
        "first.",
        epilog=_ITEMS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    input_flags(items, WHERE)
    layout_flags(items, WHERE)
    group = items.add_argument_group("items")
    add_option(group, "by", WHERE)
    label_flags(group, WHERE)
    for name in (
        "reference",
        "consensus",
        "ties",
        "seed",
        "max_iter",
        "tol",
        "disagreements",
        "min_p",
        "max_support",
        "labels",
    ):
        add_option(group, name, WHERE)
    window_flags(items, WHERE)
    out = output_flags(items, (*ITEM_FORMATS, *TOOL_FORMATS))
    out.add_argument(
        "--text",
        metavar="COLUMN",
        help="the column of INPUT holding each item's text (no rater): written after item, "
        "as Label Studio's data.text and Prodigy's text (without it the queue names each "
        "item by its id only)",
    )
    message_flags(items)

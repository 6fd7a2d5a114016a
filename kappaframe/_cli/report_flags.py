"""``kappaframe report``'s flags: its options are ``kf.pairwise``'s (and ``kf.overall``'s)."""

from __future__ import annotations

import argparse
from typing import Any, get_args

from .bind import COMMAND_FUNCTION
from .flags import add_option, count
from .groups import (
    input_flags,
    label_flags,
    layout_flags,
    message_flags,
    output_flags,
    window_flags,
)

__all__ = ["EPILOG", "add_parser"]

#: The function whose options ``report``'s flags set.
WHERE = COMMAND_FUNCTION["report"]

EPILOG = """\
exit codes: 0 ok; 1 some row below --fail-under, or dropped since --baseline (only
those); 2 usage, input or output error; 3 with --baseline, some row's change cannot be
told from noise (inconclusive) and none failed; 70 a fault in kappaframe (with its
traceback); 130 interrupted.

the baseline gate: --baseline OLD (the table an earlier run wrote with --ci and --output,
or stored counts) --max-drop D. Rows are matched on their groups, raters (a pair in
either order) or method; each gets baseline, change, change_low, change_high (the
change's --ci interval, two independent samples) and a state: dropped (the whole
interval below -D), ok (none of it below -D), inconclusive (it straddles -D: too few
items to tell), new, missing (in one table only), undefined. A baseline made with other
--weights, --categories, --map, --drop-labels, --na-values, --duplicates, --multi-sep,
--distance, --population, --cluster, --ddof, --alpha-centre or --by is refused.

missing values: in CSV, TSV and JSON only an empty cell is missing; add tokens with
--na-values (e.g. --na-values NA N/A). Labels are compared as written ("01", "1" and
"1.0" are three labels); they are numbers (ordered 1 < 2 < 10 for weights) only when
every label is a plain number and no two name the same number.

examples:
  kappaframe demo
  kappaframe demo --save team.csv
  kappaframe report team.csv --raters ana ben cai dee eli --by project \\
      --categories bad poor ok good great --weights linear --ci 0.95
  kappaframe report ratings.parquet --item item_id --rater annotator --label label \\
      --by project --output agreement.parquet --fail-under 0.6
  kappaframe report team.csv --by project --exclude item model_score \\
      --format html --output team.html
  kappaframe report today.csv --by project --exclude item model_score --ci 0.95 \\
      --baseline yesterday.parquet --max-drop 0.1 --output today.parquet
  kappaframe report export.csv --delimiter ";" --decimal , --encoding cp1252
  cat team.csv | kappaframe report - --by project --exclude item model_score \\
      --overall fleiss krippendorff
"""


def add_parser(commands: Any) -> None:
    """Add ``kappaframe report`` to the subcommands."""
    from .._io.formats import OUTPUT_FORMATS

    report = commands.add_parser(
        "report",
        help="pairwise agreement of a CSV, Parquet or JSON lines file",
        description="Pairwise Cohen's kappa of the raters in INPUT, per group; written as "
        "a table to stdout or to --output.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    input_flags(report, WHERE)
    layout_flags(report, WHERE)
    stats = report.add_argument_group("statistics")
    add_option(stats, "by", WHERE)
    add_option(stats, "trial", WHERE)
    add_option(stats, "weights", WHERE)
    label_flags(stats, WHERE)
    stats.add_argument(
        "--overall",
        nargs="+",
        metavar="METHOD",
        help="also the many-rater coefficients (kf.overall), e.g. fleiss krippendorff",
    )
    stats.add_argument(
        "--raters-summary",
        action="store_true",
        help="also one row per rater (kf.raters): items, labels used, mean kappa, ...",
    )
    for name in (
        "scale",
        "ci",
        "alternative",
        "ci_dist",
        "population",
        "cluster",
        "z_from",
        "kappa0",
        "ddof",
        "alpha_centre",
        "benchmark",
        "ci_method",
        "n_boot",
        "seed",
        "stats",
        "reference",
        "min_overlap",
        "min_items",
    ):
        add_option(stats, name, WHERE)
    _multi_label_flags(report)
    window_flags(report, WHERE)
    out = output_flags(report, OUTPUT_FORMATS)
    add_option(out, "fail_under", WHERE)
    out.add_argument(
        "--fail-on",
        default="kappa",
        metavar="COLUMN",
        help="the column --fail-under checks (default kappa; e.g. ci_low, p_o); 'overall' "
        "checks the value column of --overall",
    )
    out.add_argument(
        "--heatmaps",
        type=count,
        default=None,
        metavar="N",
        help="html: draw the kappa matrix of at most N groups (default "
        "24, in table order); every group stays in the pairs table",
    )
    gate = report.add_argument_group(
        "baseline", "the gate against an earlier run: dropped, ok, or cannot tell"
    )
    add_option(gate, "baseline", WHERE)
    add_option(gate, "max_drop", WHERE)
    report.add_argument(
        "--stream",
        action="store_true",
        help="count CSV, JSON lines (compressed too) or Parquet in batches (memory flat "
        "in the file's size) instead of reading it whole; tables only (not markdown or html)",
    )
    message_flags(report)


def _multi_label_flags(command: argparse.ArgumentParser) -> None:
    """Set-valued labels: how a cell's labels are separated, MASI/Jaccard alpha, per label."""
    from .._types import LabelMethod

    group = command.add_argument_group(
        "multi-label",
        "each rating a set of labels (tags, intents, codes); the pairs table "
        "then compares whole sets (equal or not)",
    )
    add_option(group, "multi_sep", WHERE)
    add_option(group, "distance", WHERE)
    group.add_argument(
        "--per-label",
        nargs="*",
        choices=list(get_args(LabelMethod)),
        metavar="METHOD",
        help="also agreement on each label, present or absent (kf.per_label): cohen per "
        "pair, or fleiss (the default), krippendorff, ... over all raters",
    )

"""``kappaframe demo``'s flags: which bundled data set, and how its tables are made."""

from __future__ import annotations

from typing import Any, get_args

from .groups import message_flags, provenance_flag

__all__ = ["add_parser"]


def add_parser(commands: Any) -> None:
    """Add ``kappaframe demo``: agreement tables for a bundled data set."""
    from .._types import WeightsName

    demo = commands.add_parser(
        "demo",
        help="show agreement tables for a bundled data set (no input needed)",
        description="Print a pairwise table and a rater matrix for a bundled data set.",
    )
    demo.add_argument(
        "--dataset",
        choices=["labeling_team", "multiple_sclerosis"],
        default="labeling_team",
        help="labeling_team: five simulated annotators, three projects (default); "
        "multiple_sclerosis: Landis & Koch (1977)'s two neurologists",
    )
    demo.add_argument("--seed", type=int, default=0, help="seed of the simulated team")
    demo.add_argument(
        "--weights",
        choices=list(get_args(WeightsName)),
        help="weighted kappa (grades are ordinal)",
    )
    demo.add_argument(
        "--save",
        metavar="PATH",
        help="also write the data set to PATH (.csv, .tsv, .json, .jsonl, .parquet; "
        "compressed .gz, .bz2, .xz too) to try `report` on; beside it, "
        "PATH.provenance.json says what made it (Parquet keeps it inside) unless "
        "--no-provenance",
    )
    provenance_flag(demo)
    message_flags(demo)

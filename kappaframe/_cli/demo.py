"""``kappaframe demo``: agreement tables for a bundled data set."""

from __future__ import annotations

import argparse
import warnings
from typing import IO, Any

from . import EXIT_OK


def run(args: argparse.Namespace, out: IO[str]) -> int:
    """``kappaframe demo``: print the tables of a bundled data set; return the exit code."""
    import numpy as np

    from .._api.pairwise import matrix, pairwise
    from .._report.report import render_text
    from ..datasets import GRADES, MS_CLASSES, TEAM, labeling_team, multiple_sclerosis

    weights = args.weights
    wname = f"{weights} weights" if weights else "unweighted"
    if args.dataset == "labeling_team":
        data = labeling_team(seed=args.seed)
        raters = list(TEAM)
        by = "project"
        out.write(
            f"kappaframe demo: a simulated labeling team "
            f"(kappaframe.datasets.labeling_team(seed={args.seed}))\n"
            f"{len(data)} items in {data[by].nunique()} projects, graded "
            f"{' < '.join(GRADES)} by {len(raters)} annotators: {', '.join(raters)}.\n"
        )
    else:
        data = multiple_sclerosis()
        raters = ["new_orleans", "winnipeg"]
        by = "patients"
        out.write(
            "kappaframe demo: two neurologists diagnose multiple sclerosis\n"
            "(Westlund & Kurland 1953, tabulated by Landis & Koch 1977, Biometrics 33, Table 1;\n"
            " published kappa: Winnipeg patients 0.208, New Orleans patients 0.297)\n"
            f"{len(data)} patients in two samples, classes {' < '.join(MS_CLASSES)}.\n"
        )
    if args.save:
        _save_dataset(data, args.save, args)
        out.write(f"saved the data set to {args.save}\n")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = pairwise(data, raters, by=by, weights=weights)
        m = matrix(data, raters, weights=weights)
    out.write(
        f"\nPairwise Cohen's kappa per {by} ({wname}):  df.kappa.pairwise(raters, by={by!r})\n"
    )
    out.write(render_text(res))
    out.write("\nRater x rater kappa, all items:  df.kappa.matrix(raters)\n")
    out.write(render_text(m.reset_index()))

    square = m.to_numpy(dtype=float, copy=True)
    np.fill_diagonal(square, np.nan)
    if len(raters) > 2:
        mean = np.nanmean(square, axis=1)
        low = int(np.nanargmin(mean))
        name = raters[low]
        top = data[name].value_counts(normalize=True)
        out.write(
            f"\nLowest mean kappa: {name} ({mean[low]:.2f}), who gave "
            f"{top.index[0]!r} to {top.iloc[0]:.0%} of the items.\n"
        )
        out.write(
            "\nNext: kappaframe demo --save team.csv\n"
            "      kappaframe report team.csv --raters ana ben cai dee eli --by project \\\n"
            "          --categories bad poor ok good great --format html --output team.html\n"
        )
    return EXIT_OK


#: What ``demo --save`` writes (compressed text too: .gz, .bz2, .xz, .zst).
_SAVE_FORMATS = ("csv", "tsv", "json", "jsonl", "parquet")


def _save_dataset(data: Any, path: str, args: argparse.Namespace) -> None:
    """Write the data set to ``path``, with its provenance (no input; the demo's options)."""
    from .._errors import KappaFrameError
    from .._io.formats import output_format, suffixes
    from .._io.provenance import METADATA_KEY, provenance, provenance_json
    from .._io.write import plain, table_bytes, write_output
    from .output import write_sidecar

    allowed = [x for f in _SAVE_FORMATS for x in suffixes(f)]
    try:
        fmt = output_format(path)
    except KappaFrameError:
        fmt = None
    if fmt not in _SAVE_FORMATS:
        raise KappaFrameError(
            f"demo --save writes a data file: name it with one of the suffixes "
            f"{', '.join(allowed)} (text ones compressed too: .gz, .bz2, .xz, .zst); "
            f"got {path!r}."
        )
    options = {
        k: v for k, v in vars(args).items() if k not in ("quiet", "verbose", "no_provenance")
    }
    record = None if args.no_provenance else provenance([], options)
    metadata = {METADATA_KEY: provenance_json(record)} if fmt == "parquet" and record else None
    write_output(path, table_bytes(plain(data), fmt, metadata=metadata))
    write_sidecar(path, fmt, record)

"""Benchmark per-label agreement: 50 labels at once against 50 times one label.

Workload (defaults): 100,000 items x 5 raters x 10 groups, each rating a set of about
three of 50 labels (Python lists in a pandas object column), 10% missing ratings.

For each method ("cohen" per pair, "fleiss" and "krippendorff" over all raters) it times,
side by side in one run:

- ``kf.per_label(df, by="group", method=m)`` on the 50-label data (every label counted
  in one pass, the label being one more key of the count);
- the same call on one label: the same items and raters, each set cut down to whether it
  holds the first label (``[label]`` or ``[]``), times 50: the cost of asking label by
  label;
- what people write today: for each of the 50 labels, a present/absent column per rater
  built with pandas, then ``kf.pairwise`` / ``kf.overall`` on it (the numbers are
  checked to be the same).

and prints ``50 labels / (50 x one label)`` (target: about 1 or below) and
``50 labels / loop over labels``. Times are the best of ``--repeat`` rounds
(``time.perf_counter``). Run from the repository root::

    python benchmarks/bench_per_label.py              # about a minute
    python benchmarks/bench_per_label.py --scale 0.1 --repeat 1   # smoke run
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import kappaframe as kf  # noqa: E402

RATERS = [f"r{i}" for i in range(5)]


def tagged(items: int, labels: int, seed: int = 0) -> pd.DataFrame:
    """Items with a latent set of 1-4 labels; raters keep each w.p. 0.85, add one w.p. 0.3."""
    rng = np.random.default_rng(seed)
    names = [f"tag{i:02d}" for i in range(labels)]
    sizes = rng.integers(1, 5, size=items)
    latent = [rng.choice(labels, size=s, replace=False) for s in sizes]
    data: dict[str, Any] = {"group": rng.integers(0, 10, size=items)}
    for rater in RATERS:
        keep = rng.random((items, 4)) < 0.85
        extra = rng.integers(0, labels, size=items)
        add = rng.random(items) < 0.3
        missing = rng.random(items) < 0.1
        column: list[Any] = []
        for i, chosen in enumerate(latent):
            if missing[i]:
                column.append(None)
                continue
            given = {names[c] for c, k in zip(chosen, keep[i], strict=False) if k}
            if add[i]:
                given.add(names[extra[i]])
            column.append(sorted(given))
        data[rater] = column
    return pd.DataFrame(data)


def one_label(df: pd.DataFrame, label: str) -> pd.DataFrame:
    """The same ratings cut down to whether each set holds ``label``."""
    out = df[["group"]].copy()
    for rater in RATERS:
        out[rater] = [None if v is None else ([label] if label in v else []) for v in df[rater]]
    return out


def best(call: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return min(times), result


def loop_over_labels(df: pd.DataFrame, labels: list[str], method: str) -> pd.DataFrame:
    """Today: a present/absent frame per label, then the single-label function on it."""
    frames = []
    for label in labels:
        binary = df[["group"]].copy()
        for rater in RATERS:
            binary[rater] = [np.nan if v is None else float(label in v) for v in df[rater]]
        if method == "cohen":
            res = kf.pairwise(binary, RATERS, by="group", min_items=0)
        else:
            res = kf.overall(binary, RATERS, by="group", method=method, min_items=0)
        frames.append(res.assign(label=label))
    return pd.concat(frames, ignore_index=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--scale", type=float, default=1.0, help="items x scale")
    parser.add_argument("--labels", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    items = int(100_000 * args.scale)
    df = tagged(items, args.labels)
    labels = sorted({x for r in RATERS for v in df[r] if v is not None for x in v})
    single = one_label(df, labels[0])
    print(
        f"{items:,} items x {len(RATERS)} raters x 10 groups, {len(labels)} labels "
        f"(best of {args.repeat})"
    )
    print(
        f"{'method':<14}{'50 labels':>11}{'1 label':>10}{'loop':>10}"
        f"{'50 / (50 x 1)':>15}{'50 / loop':>11}"
    )
    warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
    for method in ("cohen", "fleiss", "krippendorff"):
        run = functools.partial(kf.per_label, by="group", method=method, min_items=0)
        t_all, res = best(functools.partial(run, df), args.repeat)
        t_one, _ = best(functools.partial(run, single), args.repeat)
        t_loop, want = best(functools.partial(loop_over_labels, df, labels, method), 1)
        column = "kappa" if method == "cohen" else "value"
        keys = ["group", "label", *(["rater_a", "rater_b"] if method == "cohen" else [])]
        got = res.sort_values(keys).reset_index(drop=True)
        want = want.sort_values(keys).reset_index(drop=True)
        np.testing.assert_allclose(got[column], want[column], rtol=0, atol=1e-12)
        ratio_one = t_all / (len(labels) * t_one)
        print(
            f"{method:<14}{t_all:>10.3f}s{t_one:>9.3f}s{t_loop:>9.2f}s"
            f"{ratio_one:>15.2f}{t_all / t_loop:>11.3f}"
        )


if __name__ == "__main__":
    main()

"""Benchmark: per-item agreement and consensus on W2 against pairwise on the same data.

W2 (``bench_w2_crowd.py``): 1,000,000 ratings = 200,000 items x 5 ratings each, from 5,000
raters, 4 categories, in the long layout. One run times, side by side and taking turns:

1. ``kf.pairwise(df, item=, rater=, label=, min_overlap=1)``: every co-rating pair;
2. ``kf.items(df, item=, rater=, label=)``: one row per item (consensus, support, p_i,
   entropy);
3. ``kf.items(..., disagreements=True, labels=False)``: the adjudication queue;
4. the same items table in plain pandas (a crosstab of item and label, then the per-item
   numbers in NumPy), as one would write it without kappaframe.

It checks that kappaframe's table equals the pandas one (p_i, support, entropy to 1e-12,
the same consensus) and prints the ratio items / pairwise (target: at most 2).

Run from the repository root::

    python benchmarks/bench_items.py            # about half a minute
"""

from __future__ import annotations

import argparse
import importlib.util
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

LONG = {"item": "item", "rater": "worker", "label": "label"}


def make_crowd(items: int, raters: int, per_item: int, categories: int, seed: int) -> pd.DataFrame:
    """W2's crowd, built by ``bench_w2_crowd.make_crowd``."""
    spec = importlib.util.spec_from_file_location(
        "bench_w2", Path(__file__).with_name("bench_w2_crowd.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.make_crowd(items, raters, per_item, categories, seed)  # type: ignore[no-any-return]


def pandas_items(df: pd.DataFrame) -> pd.DataFrame:
    """Per-item counts by groupby, then the per-item numbers (ties left open)."""
    counts = pd.crosstab(df["item"], df["label"])
    table = counts.to_numpy()
    n = table.sum(axis=1)
    share = table / n[:, None]
    top = share.max(axis=1)
    tied = (share == top[:, None]).sum(axis=1) > 1
    with np.errstate(divide="ignore", invalid="ignore"):
        p_i = np.where(n >= 2, (table * (table - 1)).sum(axis=1) / (n * (n - 1)), np.nan)
        logs = np.where(table > 0, np.log2(np.where(table > 0, share, 1.0)), 0.0)
    out = pd.DataFrame(
        {
            "item": counts.index,
            "n_ratings": n,
            "consensus": np.where(tied, -1, counts.columns.to_numpy()[table.argmax(axis=1)]),
            "support": top,
            "p_i": p_i,
            "entropy": -(share * logs).sum(axis=1),
        }
    )
    return out


def rounds(repeat: int, contenders: dict[str, Callable[[], Any]]) -> dict[str, float]:
    """Best time of each contender over ``repeat`` rounds, taking turns within a round."""
    best = dict.fromkeys(contenders, np.inf)
    for _ in range(repeat):
        for name, fn in contenders.items():
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200_000)
    parser.add_argument("--raters", type=int, default=5_000)
    parser.add_argument("--per-item", type=int, default=5)
    parser.add_argument("--categories", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    df = make_crowd(args.items, args.raters, args.per_item, args.categories, args.seed)
    print(
        f"W2: {len(df):,} ratings, {args.items:,} items x {args.per_item} ratings, "
        f"{args.raters:,} raters, {args.categories} categories (long layout, pandas)"
    )
    warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
    contenders = {
        "pairwise": lambda: kf.pairwise(df, **LONG, min_overlap=1),
        "items": lambda: kf.items(df, **LONG),
        "queue": lambda: kf.items(df, **LONG, disagreements=True, labels=False),
        "pandas": lambda: pandas_items(df),
    }
    best = rounds(args.repeat, contenders)

    got = kf.items(df, **LONG)
    want = pandas_items(df)
    assert got["item"].tolist() == want["item"].tolist()
    for col in ("n_ratings", "support", "p_i", "entropy"):
        np.testing.assert_allclose(got[col], want[col], rtol=0, atol=1e-12, err_msg=col)
    consensus = got["consensus"].fillna(-1).astype(int).to_numpy()
    np.testing.assert_array_equal(consensus, want["consensus"].to_numpy())
    queue = kf.items(df, **LONG, disagreements=True, labels=False)
    print(f"check: items == the pandas table on all {len(got):,} items; queue {len(queue):,} items")

    for name, seconds in best.items():
        print(f"{name:<9} {seconds:7.2f} s  (best of {args.repeat})")
    ratio = best["items"] / best["pairwise"]
    print(f"ratio items / pairwise: {ratio:.2f} (target <= 2)")
    print(f"ratio queue / pairwise: {best['queue'] / best['pairwise']:.2f}")
    print(f"ratio pandas / items:   {best['pandas'] / best['items']:.2f}")


if __name__ == "__main__":
    main()

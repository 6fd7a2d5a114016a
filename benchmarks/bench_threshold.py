"""Benchmark: kappa at every threshold of a score, per group (``threshold_sweep``).

Workload (defaults): 1,000,000 rows in 20 groups; a binary truth (40% positive) and a
score in [0, 1] rounded to 3 decimals, so each group has about 1,000 distinct scores,
every one of them a threshold. A seeded ``numpy.random.Generator`` makes it reproducible.

One run measures, side by side:

1. ``df.kappa.threshold_sweep("truth", "score", by="group")``: one sort, cumulative
   counts, every threshold of every group at once.
2. The loop written today: scikit-learn's ``cohen_kappa_score(truth, score >= t)`` for
   every threshold of every group. It takes minutes, so it runs on ``--sample``
   thresholds of one group and is extrapolated linearly to all of them.
3. A plain NumPy loop: per group and threshold, the 2 x 2 counts with boolean sums and
   kappa from them (no sort).
4. Correctness: kappaframe equals the NumPy loop on every row and scikit-learn on the
   sampled rows, to 1e-12.

Times are the best of ``--repeat`` rounds (``time.perf_counter``), except the
scikit-learn sample, which runs once. The ratios are what matter on a shared machine.

Run from the repository root::

    python benchmarks/bench_threshold.py
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import kappaframe  # noqa: F401  (registers the .kappa accessor)


def make(n: int, groups: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.random(n) < 0.4
    score = np.clip(0.35 * truth + rng.normal(0.35, 0.2, n), 0, 1).round(3)
    return pd.DataFrame({"group": rng.integers(0, groups, n), "truth": truth, "score": score})


def numpy_loop(df: pd.DataFrame) -> np.ndarray:
    out = []
    for _, part in df.groupby("group", sort=True):
        truth = part["truth"].to_numpy()
        score = part["score"].to_numpy()
        n = len(truth)
        pos = truth.sum()
        for t in np.unique(score):
            pred = score >= t
            tp = np.count_nonzero(pred & truth)
            fp = np.count_nonzero(pred) - tp
            fn = pos - tp
            tn = n - tp - fp - fn
            p_o = (tp + tn) / n
            p_e = ((tn + fn) * (tn + fp) + (fp + tp) * (fn + tp)) / n**2
            out.append((p_o - p_e) / (1 - p_e) if p_e != 1 else np.nan)
    return np.asarray(out)


def best_of(repeat: int, fn):  # type: ignore[no-untyped-def]
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--sample", type=int, default=40, help="thresholds run through sklearn")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from sklearn.metrics import cohen_kappa_score

    df = make(args.rows, args.groups, args.seed)
    t_kf, sweep = best_of(
        args.repeat, lambda: df.kappa.threshold_sweep("truth", "score", by="group")
    )
    t_np, loop = best_of(1 if args.repeat > 1 else args.repeat, lambda: numpy_loop(df))
    n_thresholds = len(sweep)

    first = df[df["group"] == 0]
    grid = np.unique(first["score"])
    picks = grid[np.linspace(0, len(grid) - 1, args.sample).astype(int)]
    start = time.perf_counter()
    sk = [cohen_kappa_score(first["truth"], first["score"] >= t) for t in picks]
    t_sk_sample = time.perf_counter() - start
    t_sk = t_sk_sample / len(picks) * n_thresholds

    ours = sweep.set_index(["group", "threshold"])["kappa"]
    np.testing.assert_allclose(sweep["kappa"].to_numpy(), loop, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.loc[0].loc[picks].to_numpy(), sk, rtol=0, atol=1e-12)

    print(
        f"rows {args.rows:,}  groups {args.groups}  thresholds (all distinct scores) "
        f"{n_thresholds:,}"
    )
    print(f"kappaframe threshold_sweep        {t_kf:8.3f} s")
    print(
        f"plain NumPy loop per threshold    {t_np:8.3f} s   ratio kappaframe / numpy "
        f"{t_kf / t_np:.3f}"
    )
    print(
        f"scikit-learn loop (extrapolated)  {t_sk:8.1f} s   from {len(picks)} thresholds "
        f"in {t_sk_sample:.2f} s; ratio kappaframe / sklearn {t_kf / t_sk:.5f}"
    )
    print("results equal (NumPy loop: every row; scikit-learn: sampled rows) to 1e-12")


if __name__ == "__main__":
    main()

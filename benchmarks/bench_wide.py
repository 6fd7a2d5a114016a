"""Benchmark: wide inputs, many raters or many categories, against the plain alternatives.

Two workloads, each run side by side with its baseline in one process (ratios are what
count: the machines are shared and absolute times drift):

1. **Many raters**: ``--raters`` rater columns (default 2,000) x ``--items`` items (100),
   5 categories, 10% missing: two million pairs of a hundred items each. kappaframe
   ``pairwise()``, and ``pairwise(ci=0.95)``, against a plain NumPy loop written here
   (codes once, one masked ``np.bincount`` per pair, kappa from the tables), timed on
   ``--sample`` pairs and extrapolated to all pairs.
2. **Many categories**: ``--categories`` labels (default 10,000) over 200,000 items, two
   raters. ``kf.cohen_kappa(weights="linear")`` against scikit-learn's
   ``cohen_kappa_score(weights="linear")``, which builds the K x K confusion matrix.

Each line also gives the extra peak RSS of the call in a fresh process (input built
first), and the checks that the numbers agree (1e-12).

Run from the repository root::

    python benchmarks/bench_wide.py      # about two minutes
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn.metrics import cohen_kappa_score

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import kappaframe as kf  # noqa: E402

MB = 1024**2


def raters_frame(raters: int, items: int, categories: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, categories, items)
    copies = rng.random((items, raters)) < 0.7
    guesses = rng.integers(0, categories, (items, raters))
    labels = np.where(copies, truth[:, None], guesses).astype(float)
    labels[rng.random(labels.shape) < 0.1] = np.nan
    return pd.DataFrame(labels, columns=[f"r{i:04d}" for i in range(raters)])


def plain_pair_loop(frame: pd.DataFrame, pairs: np.ndarray, k: int) -> np.ndarray:
    """Kappa of each pair: one masked bincount per pair (what one writes without kappaframe)."""
    codes = np.nan_to_num(frame.to_numpy(), nan=-1).astype(np.int64).T
    out = np.empty(len(pairs))
    for p, (a, b) in enumerate(pairs):
        x, y = codes[a], codes[b]
        ok = (x >= 0) & (y >= 0)
        table = np.bincount(x[ok] * k + y[ok], minlength=k * k).reshape(k, k)
        n = table.sum()
        p_o = np.trace(table) / n
        p_e = table.sum(1) @ table.sum(0) / n / n
        out[p] = (p_o - p_e) / (1 - p_e)
    return out


def best(fn: Any, repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def extra_rss(setup: str, call: str) -> float:
    """Extra peak RSS (MB) of ``call`` in a fresh interpreter, over the RSS after ``setup``.

    The peak (``VmHWM``) is reset after the setup (Linux ``/proc/self/clear_refs``), so
    imports and input building do not count.
    """
    script = f"""
import json, sys
sys.path.insert(0, {str(REPO)!r})
sys.path.insert(0, {str(Path(__file__).parent)!r})
import warnings; warnings.simplefilter("ignore")
import numpy as np, kappaframe as kf
from sklearn.metrics import cohen_kappa_score
from bench_wide import raters_frame
def rss(field):
    with open("/proc/self/status") as status:
        return next(int(l.split()[1]) * 1024 for l in status if l.startswith(field + ":"))
{setup}
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")
before = rss("VmRSS")
{call}
print(json.dumps((rss("VmHWM") - before) / {MB}))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr)
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def many_raters(args: argparse.Namespace) -> None:
    frame = raters_frame(args.raters, args.items, 5, args.seed)
    n_pairs = args.raters * (args.raters - 1) // 2
    print(
        f"many raters: {args.raters:,} raters x {args.items} items, 5 categories, 10% missing "
        f"({n_pairs:,} pairs)"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_kf, tidy = best(lambda: kf.pairwise(frame), args.repeat)
        t_ci, with_ci = best(lambda: kf.pairwise(frame, ci=0.95), args.repeat)
    rng = np.random.default_rng(args.seed)
    rows = np.sort(rng.choice(n_pairs, min(args.sample, n_pairs), replace=False))
    index = {name: i for i, name in enumerate(frame.columns)}
    pairs = np.array(
        [[index[a], index[b]] for a, b in tidy.loc[rows, ["rater_a", "rater_b"]].to_numpy()]
    )
    start = time.perf_counter()
    plain = plain_pair_loop(frame, pairs, 5)
    t_plain = (time.perf_counter() - start) * n_pairs / len(rows)
    diff = np.nanmax(np.abs(plain - tidy["kappa"].to_numpy()[rows]))
    same_ci = np.array_equal(with_ci["kappa"].to_numpy(), tidy["kappa"].to_numpy(), equal_nan=True)
    setup = f"frame = raters_frame({args.raters}, {args.items}, 5, {args.seed})"
    rss = extra_rss(setup, "kf.pairwise(frame)")
    rss_ci = extra_rss(setup, "kf.pairwise(frame, ci=0.95)")
    out_mb = with_ci.memory_usage(deep=False).sum() / MB
    print(f"  kappaframe pairwise()               {t_kf:8.2f} s   extra peak RSS {rss:6.0f} MB")
    print(f"  kappaframe pairwise(ci=0.95)        {t_ci:8.2f} s   extra peak RSS {rss_ci:6.0f} MB")
    scale = f"({len(rows):,} pairs, x{n_pairs / len(rows):.0f})"
    print(f"  plain NumPy loop, a bincount a pair {t_plain:8.2f} s   {scale}")
    print(
        f"  ratio plain loop / kappaframe: {t_plain / t_kf:.1f}x; with ci=: {t_plain / t_ci:.1f}x"
    )
    print(f"  memory: the ci= call peaks at {rss_ci / out_mb:.1f}x its {out_mb:.0f} MB result")
    print(f"  check: kappaframe == plain loop on the sampled pairs (max |diff| {diff:.1e})")
    print(f"  check: ci= gives the same kappa: {same_ci}")


def many_categories(args: argparse.Namespace) -> None:
    k, n = args.categories, 200_000
    rng = np.random.default_rng(args.seed)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, k, n))
    print(f"many categories: {k:,} categories, {n:,} items, two raters, linear weights")
    t_kf, ours = best(lambda: kf.cohen_kappa(a, b, weights="linear"), args.repeat)
    t_sk, theirs = best(lambda: cohen_kappa_score(a, b, weights="linear"), 1)
    setup = (
        f"rng = np.random.default_rng({args.seed}); a = rng.integers(0, {k}, {n}); "
        f"b = np.where(rng.random({n}) < 0.6, a, rng.integers(0, {k}, {n}))"
    )
    rss = extra_rss(setup, "kf.cohen_kappa(a, b, weights='linear')")
    rss_sk = extra_rss(setup, "cohen_kappa_score(a, b, weights='linear')")
    print(f"  kf.cohen_kappa                      {t_kf:8.3f} s   extra peak RSS {rss:6.0f} MB")
    print(f"  sklearn cohen_kappa_score           {t_sk:8.3f} s   extra peak RSS {rss_sk:6.0f} MB")
    print(f"  ratio sklearn / kappaframe: {t_sk / t_kf:.1f}x")
    print(f"  check: kappaframe == sklearn (|diff| {abs(ours - theirs):.1e})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--raters", type=int, default=2000)
    parser.add_argument("--items", type=int, default=100)
    parser.add_argument("--categories", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=20_000, help="pairs the plain loop runs")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"numpy {np.__version__}, pandas {pd.__version__}, kappaframe {kf.__version__}\n")
    many_raters(args)
    print()
    many_categories(args)


if __name__ == "__main__":
    main()

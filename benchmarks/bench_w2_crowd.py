"""Benchmark W2: a crowd in the long layout, counted by co-rating pairs only.

Workload (defaults): 1,000,000 ratings = 200,000 items x 5 ratings each, from 5,000 raters
(each item's 5 raters drawn at random, no repeats), 4 categories; every rater copies the
item's latent label with a probability drawn in [0.5, 0.9], else guesses. Seeded.

5,000 raters make 12,497,500 possible pairs, but only the ~1.85 million pairs that rated an
item together carry information. One run measures, side by side:

1. ``kf.pairwise(df, item=, rater=, label=, min_overlap=1)``: the full pairwise frame of
   every co-rating pair (time, best of ``--repeat``), and where that time goes: reading
   and pairing the ratings (``prepare``), counting the co-rating pairs, the statistics
   and output columns, and the frame.
2. A vectorised pandas baseline written here: self-merge on item, keep rater_a < rater_b,
   ``groupby(pair).size()`` of the label pairs, then kappa from the counts with pandas
   (the best one can do without kappaframe, no Python loop over pairs). The target is
   kappaframe at least ``TARGET`` (10) times faster.
3. The loop written today, scikit-learn's ``cohen_kappa_score`` per pair, timed on
   ``--sample`` pairs and extrapolated to all co-rating pairs.
4. The dense path (pivot to a rater x item matrix, one bincount per pair over all items),
   timed on ``--sample`` pairs and extrapolated to all 12.5 million pairs.
5. Correctness: kappaframe equals the pandas baseline on every pair (1e-12), and
   scikit-learn on the sampled pairs.
6. Memory: in fresh subprocesses, the extra peak RSS of the call at the full size and at
   half the items (half the co-rating pairs, same raters): it follows the co-rating
   pairs, not raters squared.

Run from the repository root::

    python benchmarks/bench_w2_crowd.py        # about a minute
"""

from __future__ import annotations

import argparse
import json
import os
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
from kappaframe._api.assemble import tidy  # noqa: E402
from kappaframe._api.plan import adapt, prepare_input  # noqa: E402
from kappaframe._api.settings.reading import ReadSpec  # noqa: E402
from kappaframe._count import kernel as _kernel  # noqa: E402
from kappaframe._stats.scales import MIN_ITEMS  # noqa: E402

MB = 1024**2
LONG = {"item": "item", "rater": "worker", "label": "label"}
#: kappaframe should be at least this many times faster than the pandas baseline.
TARGET = 10.0


def make_crowd(items: int, raters: int, per_item: int, categories: int, seed: int) -> pd.DataFrame:
    """``items x per_item`` ratings, distinct raters per item, correlated labels."""
    rng = np.random.default_rng(seed)
    who = rng.integers(0, raters, (items, per_item))
    while True:  # redraw the rows where a rater came up twice
        ordered = np.sort(who, axis=1)
        again = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        if not again.any():
            break
        who[again] = rng.integers(0, raters, (int(again.sum()), per_item))
    truth = rng.integers(0, categories, items)
    skill = rng.uniform(0.5, 0.9, raters)
    copy = rng.random((items, per_item)) < skill[who]
    labels = np.where(copy, truth[:, None], rng.integers(0, categories, (items, per_item)))
    return pd.DataFrame(
        {
            "item": np.repeat(np.arange(items), per_item),
            "worker": who.ravel(),
            "label": labels.ravel().astype(np.int64),
        }
    )


def pandas_baseline(df: pd.DataFrame) -> pd.DataFrame:
    """Self-merge on item, count label pairs per rater pair, kappa from the counts."""
    pairs = df.merge(df, on="item", suffixes=("_a", "_b"))
    pairs = pairs[pairs["worker_a"] < pairs["worker_b"]]
    cells = pairs.groupby(["worker_a", "worker_b", "label_a", "label_b"]).size()
    cells = cells.rename("count").reset_index()
    key = ["worker_a", "worker_b"]
    n = cells.groupby(key)["count"].sum()
    agree = cells[cells["label_a"] == cells["label_b"]].groupby(key)["count"].sum()
    rows = cells.groupby([*key, "label_a"])["count"].sum().rename("r")
    cols = cells.groupby([*key, "label_b"])["count"].sum().rename("c")
    rows.index = rows.index.set_names([*key, "label"])
    cols.index = cols.index.set_names([*key, "label"])
    chance = (pd.concat([rows, cols], axis=1).fillna(0).eval("r * c")).groupby(key).sum()
    out = pd.DataFrame({"n": n, "agree": agree}).fillna(0)
    p_o = out["agree"] / out["n"]
    p_e = chance / out["n"] ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        out["kappa"] = ((p_o - p_e) / (1 - p_e)).where(p_e < 1)
    return out.reset_index()


def sklearn_pairs(
    by_worker: dict[Any, pd.Series], pairs: list[tuple[int, int]], labels: list[int]
) -> list[float]:
    """The loop: align two raters' labels on the items both rated, then sklearn."""
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a, b in pairs:
            both = by_worker[a].index.intersection(by_worker[b].index)
            out.append(cohen_kappa_score(by_worker[a][both], by_worker[b][both], labels=labels))
    return out


def dense_pairs(
    df: pd.DataFrame, pairs: list[tuple[int, int]], categories: int
) -> tuple[float, float]:
    """Seconds of the dense path: the pivot, and the kernel per pair (on ``pairs``)."""
    start = time.perf_counter()
    raters, items = df["worker"].max() + 1, df["item"].max() + 1
    codes = np.full((raters, items), -1, dtype=np.int8)
    codes[df["worker"].to_numpy(), df["item"].to_numpy()] = df["label"].to_numpy()
    pivot = time.perf_counter() - start
    # Only the sampled raters' rows, so the per-pair figure is the bincount's alone.
    used = sorted({r for pair in pairs for r in pair})
    row = {r: i for i, r in enumerate(used)}
    sub = codes[used]
    local = [(row[a], row[b]) for a, b in pairs]
    start = time.perf_counter()
    for a, b in local:
        _kernel.pair_counts(sub[[a, b]], [(0, 1)], categories)
    return pivot, (time.perf_counter() - start) / len(local)


def stages(df: pd.DataFrame) -> dict[str, float]:
    """Seconds of each step of ``kf.pairwise(df, **LONG, min_overlap=1)``, in order."""
    times = {}
    start = time.perf_counter()
    prep = prepare_input(adapt(df), ReadSpec(**LONG), min_overlap=1, from_counts=True)
    times["prepare (read, sort and pair the ratings)"] = time.perf_counter() - start
    start = time.perf_counter()
    prep.tables(prep.pairs())
    counting = time.perf_counter() - start
    times["count the co-rating pairs"] = counting
    start = time.perf_counter()
    table = tidy(prep, min_items=MIN_ITEMS)  # counts again, then statistics and columns
    times["statistics and output columns"] = time.perf_counter() - start - counting
    start = time.perf_counter()
    prep.frame.render(table)
    times["the pandas frame"] = time.perf_counter() - start
    return times


def best(repeat: int, fn: Any) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def rss(field: str) -> int:
    """``VmHWM`` (peak) or ``VmRSS`` (now) of this process, in bytes (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"{field} not in /proc/self/status")


def reset_peak() -> None:
    """Start the peak (VmHWM) afresh from the current RSS (Linux >= 4.0)."""
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")


def child(args: argparse.Namespace) -> None:
    """In a fresh process: build the crowd, then one pairwise call; print RSS figures."""
    df = make_crowd(args.items, args.raters, args.per_item, args.categories, args.seed)
    warnings.simplefilter("ignore")
    reset_peak()
    before = rss("VmRSS")
    res = kf.pairwise(df, **LONG, min_overlap=1)
    after = rss("VmHWM")
    print(json.dumps({"before": before, "after": after, "pairs": len(res)}))


def measure_memory(args: argparse.Namespace, items: int) -> dict[str, Any]:
    cmd = [
        sys.executable,
        __file__,
        "--child",
        "--items",
        str(items),
        "--raters",
        str(args.raters),
        "--per-item",
        str(args.per_item),
        "--categories",
        str(args.categories),
        "--seed",
        str(args.seed),
    ]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=os.environ)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200_000)
    parser.add_argument("--raters", type=int, default=5_000)
    parser.add_argument("--per-item", type=int, default=5)
    parser.add_argument("--categories", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return

    df = make_crowd(args.items, args.raters, args.per_item, args.categories, args.seed)
    n_possible = args.raters * (args.raters - 1) // 2
    print(
        f"W2: {len(df):,} ratings, {args.items:,} items x {args.per_item} ratings, "
        f"{args.raters:,} raters ({n_possible:,} possible pairs), {args.categories} categories"
    )

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        t_kf, res = best(args.repeat, lambda: kf.pairwise(df, **LONG, min_overlap=1))
    t_pd, base = best(1, lambda: pandas_baseline(df))
    print(f"co-rating pairs: {len(res):,} ({len(res) / n_possible:.1%} of all pairs)")
    print(f"kappaframe pairwise(min_overlap=1): {t_kf:8.2f} s  (best of {args.repeat})")
    ratio = t_pd / t_kf
    print(
        f"pandas self-merge + groupby:        {t_pd:8.2f} s  ratio pandas / kappaframe "
        f"{ratio:.1f}x (target >= {TARGET:g}x: {'met' if ratio >= TARGET else 'NOT met'})"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
        runs = [stages(df) for _ in range(args.repeat)]
    print("where kappaframe's time goes (best of each step):")
    for step in runs[0]:
        print(f"  {step:<42} {min(run[step] for run in runs) * 1e3:6.0f} ms")

    # correctness against the baseline, every pair
    merged = res.merge(
        base,
        left_on=["rater_a", "rater_b"],
        right_on=["worker_a", "worker_b"],
        suffixes=("", "_pd"),
    )
    assert len(merged) == len(res) == len(base), (len(merged), len(res), len(base))
    np.testing.assert_array_equal(merged["n"], merged["n_pd"])
    np.testing.assert_allclose(merged["kappa"], merged["kappa_pd"], rtol=0, atol=1e-12)
    diff = np.nanmax(np.abs(merged["kappa"] - merged["kappa_pd"]))
    print(f"check: kappaframe == pandas baseline on all {len(res):,} pairs (max |diff| {diff:.1e})")

    rng = np.random.default_rng(args.seed)
    picks = res.iloc[rng.choice(len(res), args.sample, replace=False)]
    pairs = list(zip(picks["rater_a"], picks["rater_b"], strict=True))
    by_worker = {w: part.set_index("item")["label"] for w, part in df.groupby("worker")}
    start = time.perf_counter()
    sk = sklearn_pairs(by_worker, pairs, list(range(args.categories)))
    t_sk = (time.perf_counter() - start) / len(pairs)
    got = picks["kappa"].to_numpy()
    np.testing.assert_allclose(got, sk, rtol=0, atol=1e-12)
    print(f"check: kappaframe == sklearn cohen_kappa_score on {len(pairs)} sampled pairs")
    print(
        f"sklearn loop: {t_sk * 1e3:.2f} ms a pair -> {t_sk * len(res) / 60:.1f} min for "
        f"the co-rating pairs (extrapolated), ratio {t_sk * len(res) / t_kf:.0f}x"
    )
    pivot, per_pair = dense_pairs(df, [(int(a), int(b)) for a, b in pairs], args.categories)
    dense = pivot + per_pair * n_possible
    print(
        f"dense path (rater x item matrix, a bincount per pair): pivot {pivot:.2f} s + "
        f"{per_pair * 1e3:.2f} ms a pair x {n_possible:,} pairs = {dense / 60:.0f} min "
        f"(extrapolated), ratio {dense / t_kf:.0f}x"
    )

    print("peak RSS in fresh processes (input built first; extra = peak - before the call):")
    for items in (args.items // 2, args.items):
        mem = measure_memory(args, items)
        extra = (mem["after"] - mem["before"]) / MB
        print(
            f"  {items:>9,} items: {mem['pairs']:>10,} co-rating pairs, peak "
            f"{mem['after'] / MB:7.1f} MB, extra {extra:7.1f} MB = "
            f"{extra * MB / max(mem['pairs'], 1):5.0f} bytes a pair"
        )


if __name__ == "__main__":
    main()

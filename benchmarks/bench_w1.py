"""Benchmark W1: pairwise Cohen's kappa per group on a large wide pandas frame.

Workload (defaults): 1,000,000 items x 20 raters (190 pairs) x 5 categories x 100
groups. Labels are float64 (1.0 .. 5.0) with 10% NaN; every rater copies a latent true
label with probability ~0.7 (drawn per rater in [0.6, 0.8]) and otherwise picks a
category at random, so the kappas are realistic (around 0.5). A seeded
``numpy.random.Generator`` makes the data reproducible.

One run measures, side by side:

1. ``df.kappa.pairwise(by="group")`` against the loop written today: scikit-learn's
   ``cohen_kappa_score`` over every group and every pair, dropping rows where either
   rater is NaN and passing ``labels=`` the global sorted categories. That loop takes
   minutes, so by default it runs once on 10 evenly spaced groups and its time is
   extrapolated linearly to all groups (``--full`` runs all of it).
2. kappaframe against a plain, tight NumPy version written here: factorize the labels
   once, then per pair one ``np.bincount`` over ``group*K*K + a*K + b`` with a mask for
   missing labels, then kappa from the counts (ratio kappaframe / plain, target <= 0.6).
3. polars against pandas: the same data as a polars frame (NaN -> null) through
   ``pl_df.kappa.pairwise(by="group")`` (ratio polars / pandas, target <= 1.0).
4. Correctness: the kappaframe result must equal the plain result, the polars result
   and (on the groups it ran on) the scikit-learn result to 1e-12.
5. Peak memory: in a fresh subprocess that builds the frame, the extra peak memory of
   one ``df.kappa.pairwise(by="group")`` call, from tracemalloc (every NumPy and
   Python allocation) and from the peak resident set size (Linux), against the size of
   the input frame plus the count tensor.

Times are the best of ``--repeat`` rounds (``time.perf_counter``; the fast contenders
take turns within a round), except the scikit-learn loop, which runs once. The ratios
are what matter on a shared machine.

Run from the repository root::

    python benchmarks/bench_w1.py            # about a minute
    python benchmarks/bench_w1.py --full     # the whole scikit-learn loop: minutes more
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn import __version__ as sklearn_version
from sklearn.metrics import cohen_kappa_score

# Benchmark the checkout this script lives in, installed or not.
REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import kappaframe as kf  # noqa: E402  (also registers the .kappa accessor)

MB = 1024**2
TOLERANCE = 1e-12


# --------------------------------------------------------------------------- data


def rater_names(n_raters: int) -> list[str]:
    return [f"r{i:02d}" for i in range(n_raters)]


def make_frame(
    items: int,
    raters: int,
    categories: int,
    groups: int,
    missing: float,
    seed: int,
) -> pd.DataFrame:
    """Correlated float labels 1.0 .. K with NaN, one column per rater, and a group."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, categories + 1, size=items)
    accuracy = rng.uniform(0.6, 0.8, size=raters)
    columns: dict[str, np.ndarray] = {}
    for name, p_copy in zip(rater_names(raters), accuracy, strict=True):
        guess = rng.integers(1, categories + 1, size=items)
        labels = np.where(rng.random(items) < p_copy, truth, guess).astype(np.float64)
        labels[rng.random(items) < missing] = np.nan
        columns[name] = labels
    columns["group"] = rng.integers(0, groups, size=items)
    return pd.DataFrame(columns)


# ------------------------------------------------------------------ the contenders


def plain_pairwise(df: pd.DataFrame, raters: list[str], by: str) -> pd.DataFrame:
    """Tight NumPy baseline: codes once, one masked bincount per pair, kappa from counts."""
    block = df[raters].to_numpy().T  # (n_raters, n_items)
    codes, cats = pd.factorize(block.ravel(), sort=True)  # NaN -> -1
    codes = codes.reshape(block.shape)
    group, keys = pd.factorize(df[by], sort=True)
    k, n_groups = len(cats), len(keys)
    cells = n_groups * k * k

    base = group.astype(np.intp) * (k * k)
    valid = codes >= 0
    pairs = list(combinations(range(len(raters)), 2))
    counts = np.empty((len(pairs), cells), dtype=np.int64)
    p = 0
    for a in range(len(raters)):
        left = base + codes[a] * k
        for b in range(a + 1, len(raters)):
            both = valid[a] & valid[b]
            counts[p] = np.bincount((left + codes[b])[both], minlength=cells)
            p += 1
    counts = counts.reshape(len(pairs), n_groups, k, k)

    n = counts.sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        p_o = np.trace(counts, axis1=-2, axis2=-1) / n
        p_e = (counts.sum(axis=-1) * counts.sum(axis=-2)).sum(axis=-1) / n.astype(float) ** 2
        kappa = (p_o - p_e) / (1.0 - p_e)

    names = np.array(raters, dtype=object)
    a_idx, b_idx = np.array(pairs).T
    return pd.DataFrame(
        {
            by: np.repeat(np.asarray(keys), len(pairs)),
            "rater_a": np.tile(names[a_idx], n_groups),
            "rater_b": np.tile(names[b_idx], n_groups),
            "n": n.T.ravel(),
            "kappa": kappa.T.ravel(),
        }
    )


def sklearn_loop(
    df: pd.DataFrame, raters: list[str], by: str, groups: list[Any], labels: list[float]
) -> dict[tuple[Any, str, str], float]:
    """The usual loop: groupby, every pair, drop NaN rows, cohen_kappa_score."""
    out: dict[tuple[Any, str, str], float] = {}
    grouped = df.groupby(by)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined kappa on tiny inputs
        for g in groups:
            sub = grouped.get_group(g)
            for a, b in combinations(raters, 2):
                rated = sub[a].notna() & sub[b].notna()
                out[g, a, b] = cohen_kappa_score(sub[a][rated], sub[b][rated], labels=labels)
    return out


# ----------------------------------------------------------------------- helpers


def best_of(repeat: int, contenders: dict[str, Callable[[], Any]]) -> dict[str, tuple[float, Any]]:
    """Best wall time and last result of each contender over ``repeat`` rounds.

    The contenders take turns within each round, so a slow spell of a shared machine
    hits all of them rather than one.
    """
    best = dict.fromkeys(contenders, float("inf"))
    results: dict[str, Any] = {}
    for _ in range(repeat):
        for name, fn in contenders.items():
            start = time.perf_counter()
            results[name] = fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: (best[name], results[name]) for name in contenders}


def sampled_groups(keys: np.ndarray, n_sample: int) -> list[Any]:
    """``n_sample`` evenly spaced group keys (all of them when ``n_sample >= len``)."""
    if n_sample >= len(keys):
        return keys.tolist()
    picks = np.unique(np.linspace(0, len(keys) - 1, n_sample).round().astype(int))
    return keys[picks].tolist()


def check_same(label: str, got: pd.DataFrame, want: pd.DataFrame, by: str) -> float:
    """Assert equal keys and ``n``, kappa to 1e-12; return the max abs kappa difference."""
    for col in (by, "rater_a", "rater_b", "n"):
        np.testing.assert_array_equal(
            np.asarray(got[col]), np.asarray(want[col]), err_msg=f"{label}: column {col}"
        )
    g, w = np.asarray(got["kappa"], dtype=float), np.asarray(want["kappa"], dtype=float)
    np.testing.assert_allclose(g, w, rtol=0, atol=TOLERANCE, err_msg=f"{label}: kappa")
    both = np.isfinite(g) & np.isfinite(w)
    return float(np.max(np.abs(g[both] - w[both]), initial=0.0))


# ------------------------------------------------------------------------ memory


def _status_kb(field: str) -> int | None:
    """A ``VmXXX`` line of /proc/self/status, in kB (Linux only)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak_rss() -> bool:
    """Reset the peak RSS (VmHWM) of this process (Linux >= 4.0)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return _status_kb("VmHWM") is not None


def memory_child(args: argparse.Namespace) -> None:
    """Build the frame, then measure one pairwise call; print JSON on stdout."""
    df = make_frame(args.items, args.raters, args.categories, args.groups, args.missing, args.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df.head(2000).kappa.pairwise(by="group")  # imports and first-call costs
    gc.collect()

    report: dict[str, Any] = {"input_bytes": int(df.memory_usage(deep=True).sum())}

    rss_before = _status_kb("VmRSS")
    if rss_before is not None and _reset_peak_rss():
        result = df.kappa.pairwise(by="group")
        report["rss_extra_bytes"] = ((_status_kb("VmHWM") or 0) - rss_before) * 1024
        del result
        gc.collect()

    tracemalloc.start()
    result = df.kappa.pairwise(by="group")
    report["traced_peak_bytes"] = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del result
    print(json.dumps(report))


def measure_memory(args: argparse.Namespace) -> dict[str, Any]:
    """Run :func:`memory_child` in a fresh interpreter on the same data."""
    options = {
        "--items": args.items,
        "--raters": args.raters,
        "--groups": args.groups,
        "--categories": args.categories,
        "--missing": args.missing,
        "--seed": args.seed,
    }
    cmd = [sys.executable, str(Path(__file__).resolve()), "--memory-child"]
    for flag, value in options.items():
        cmd += [flag, str(value)]
    # glibc: serve every allocation over 128 kB by mmap and unmap it when freed, so the
    # peak RSS counts the call's arrays instead of reusing heap the data generation left.
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "131072"}
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


# -------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--raters", type=int, default=20)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--categories", type=int, default=5)
    parser.add_argument("--missing", type=float, default=0.10, help="share of NaN labels")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="best of N for the fast ones")
    parser.add_argument(
        "--full",
        action="store_true",
        help="run the scikit-learn loop on every group (minutes)",
    )
    parser.add_argument(
        "--sklearn-groups",
        type=int,
        default=10,
        help="groups the scikit-learn loop runs on without --full",
    )
    parser.add_argument("--memory-child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def progress(message: str) -> None:
    print(f"... {message}", file=sys.stderr, flush=True)


def verdict(ratio: float, target: float) -> str:
    return f"target <= {target:.1f}: {'OK' if ratio <= target else 'MISSED'}"


def check_results(
    by: str,
    res_kf: pd.DataFrame,
    res_plain: pd.DataFrame,
    res_pl: Any,
    res_sk: dict[tuple[Any, str, str], float],
) -> dict[str, float]:
    """Assert every contender agrees with kappaframe; return the max kappa differences."""
    diffs = {
        "plain": check_same("kappaframe vs plain", res_kf, res_plain, by),
        "polars": check_same("polars vs pandas", res_pl.to_pandas(), res_kf, by),
    }
    want = pd.Series(res_sk).to_numpy()
    got = res_kf.set_index([by, "rater_a", "rater_b"])["kappa"].loc[list(res_sk)].to_numpy()
    np.testing.assert_allclose(
        got, want, rtol=0, atol=TOLERANCE, err_msg="kappaframe vs scikit-learn: kappa"
    )
    both = np.isfinite(got) & np.isfinite(want)
    diffs["sklearn"] = float(np.max(np.abs(got[both] - want[both]), initial=0.0))
    return diffs


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.memory_child:
        memory_child(args)
        return
    warnings.simplefilter("ignore", kf.UndefinedKappaWarning)
    import polars as pl  # registers pl_df.kappa as well

    by = "group"
    raters = rater_names(args.raters)
    n_pairs = args.raters * (args.raters - 1) // 2

    progress("generating data")
    df = make_frame(args.items, args.raters, args.categories, args.groups, args.missing, args.seed)
    pl_df = pl.from_pandas(df, nan_to_null=True)

    progress(f"kappaframe (pandas, polars) and plain bincount, best of {args.repeat}")
    timed = best_of(
        args.repeat,
        {
            "pandas": lambda: df.kappa.pairwise(by=by),
            "polars": lambda: pl_df.kappa.pairwise(by=by),
            "plain": lambda: plain_pairwise(df, raters, by),
        },
    )
    t_kf, res_kf = timed["pandas"]
    t_pl, res_pl = timed["polars"]
    t_plain, res_plain = timed["plain"]

    keys = np.sort(df[by].unique())
    n_groups = len(keys)
    run_groups = keys.tolist() if args.full else sampled_groups(keys, args.sklearn_groups)
    labels = sorted({float(v) for c in raters for v in df[c].dropna().unique()})
    progress(f"scikit-learn loop on {len(run_groups)} of {n_groups} groups (once)")
    start = time.perf_counter()
    res_sk = sklearn_loop(df, raters, by, run_groups, labels)
    t_sk_run = time.perf_counter() - start
    scale = n_groups / len(run_groups)
    t_sk = t_sk_run * scale
    extrapolated = len(run_groups) < n_groups

    progress("checking results")
    diffs = check_results(by, res_kf, res_plain, res_pl, res_sk)

    progress("peak memory (fresh subprocess)")
    mem = measure_memory(args)
    input_mb = mem["input_bytes"] / MB
    if mem["input_bytes"] != df.memory_usage(deep=True).sum():
        raise RuntimeError("the memory subprocess built a different frame")

    # ------------------------------------------------------------------ report
    print(
        f"W1: {args.items:,} items x {args.raters} raters ({n_pairs} pairs) x "
        f"{args.categories} categories x {n_groups} groups, {args.missing:.0%} missing, "
        f"seed {args.seed}"
    )
    print(
        f"numpy {np.__version__}, pandas {pd.__version__}, polars {pl.__version__}, "
        f"scikit-learn {sklearn_version}, kappaframe {kf.__version__}"
    )
    print()
    rows = [
        ("kappaframe  df.kappa.pairwise (pandas)", t_kf),
        ("kappaframe  pl_df.kappa.pairwise (polars)", t_pl),
        ("plain NumPy bincount (masked, in script)", t_plain),
        ("sklearn cohen_kappa_score loop" + (" *" if extrapolated else ""), t_sk),
    ]
    print(f"{'method':<44}{'seconds':>10}{'x kappaframe':>14}")
    for name, seconds in rows:
        print(f"{name:<44}{seconds:>10.3f}{seconds / t_kf:>14.2f}")
    print(f"  best of {args.repeat} (perf_counter, taking turns) except the sklearn loop (once)")
    if extrapolated:
        calls = len(run_groups) * n_pairs
        print(
            f"* sklearn: ran {len(run_groups)} of {n_groups} groups ({calls:,} of "
            f"{n_groups * n_pairs:,} calls) in {t_sk_run:.2f} s, extrapolated linearly "
            f"x{scale:g}; --full runs all groups"
        )
    print()

    ratio_plain = t_kf / t_plain
    ratio_pl = t_pl / t_kf
    sk_note = " (extrapolated)" if extrapolated else ""
    print(f"kappaframe vs sklearn loop: {t_sk / t_kf:.1f}x faster{sk_note}")
    print(f"kappaframe / plain bincount: {ratio_plain:.2f} ({verdict(ratio_plain, 0.6)})")
    print(f"polars / pandas: {ratio_pl:.2f} ({verdict(ratio_pl, 1.0)})")
    print()
    print(
        f"correctness, kappa to {TOLERANCE:g} and n exact: kappaframe == plain bincount "
        f"({len(res_kf):,} rows, max |diff| {diffs['plain']:.1e}), polars == pandas "
        f"(max |diff| {diffs['polars']:.1e}), kappaframe == sklearn ({len(res_sk):,} rows, "
        f"max |diff| {diffs['sklearn']:.1e}): OK"
    )
    print()

    counts_mb = n_pairs * n_groups * args.categories**2 * 8 / MB
    base_mb = input_mb + counts_mb
    print('peak memory of one df.kappa.pairwise(by="group") call, fresh subprocess:')
    print(f"  input frame                {input_mb:9.1f} MB")
    print(f"  count tensor (int64)       {counts_mb:9.1f} MB")
    traced = mem["traced_peak_bytes"] / MB
    print(
        f"  peak extra, tracemalloc    {traced:9.1f} MB"
        f"   peak / (input + counts) = {traced / base_mb:.2f}"
    )
    if "rss_extra_bytes" in mem:
        rss = mem["rss_extra_bytes"] / MB
        print(
            f"  peak extra, RSS (VmHWM)    {rss:9.1f} MB"
            f"   peak / (input + counts) = {rss / base_mb:.2f}"
        )
    else:
        print("  peak extra, RSS            n/a (needs Linux /proc/self/clear_refs)")


if __name__ == "__main__":
    main()

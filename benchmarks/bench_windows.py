"""Benchmark: agreement per time window against the same windows computed beforehand.

1,000,000 items x 5 raters x 5 categories, 10 projects, one item a minute (about two years),
in a pandas frame with a datetime column. One run times, side by side and taking turns:

1. ``kf.pairwise(df, by="project", time="t", every="1w")``: weekly windows;
2. ``kf.pairwise(df, by=["project", "week"])`` with the week column computed beforehand by
   pandas (``dt.to_period("W")``, Monday to Sunday): the floor of windows as a group key;
3. ``kf.pairwise(df, by="project", time="t", every="1w", period="4w")``: rolling four-week
   windows (every item counted in four windows);
4. the floor for (3): the same table read four times (``pd.concat``, four week columns).

It checks that (1) equals (2) and (3) equals (4) (same windows, same numbers) and prints
the ratios windowed / precomputed: what finding the windows (and repeating the rows of
overlapping ones) costs on top of counting them.

Run from the repository root::

    python benchmarks/bench_windows.py            # about half a minute
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
for path in (HERE, HERE.parent):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from bench_stats import best_of  # noqa: E402  (run from benchmarks/: one timer)

import kappaframe as kf  # noqa: E402

RATERS = ["r0", "r1", "r2", "r3", "r4"]


def make_ratings(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    latent = rng.integers(0, 5, n)
    data: dict[str, object] = {
        "t": pd.Timestamp("2023-01-02") + pd.to_timedelta(np.arange(n), unit="min"),
        "project": rng.choice([f"p{i}" for i in range(10)], n),
    }
    for name in RATERS:
        data[name] = np.where(rng.random(n) < 0.7, latent, rng.integers(0, 5, n)).astype(float)
    return pd.DataFrame(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    df = make_ratings(args.items)
    week = df["t"].dt.to_period("W").dt.start_time
    keyed = df.assign(week=week)
    shifted = [df.assign(week=week - pd.Timedelta(weeks=k)) for k in range(4)]
    rolling_keyed = pd.concat(shifted, ignore_index=True)
    print(f"{len(df):,} items x {len(RATERS)} raters, 10 projects, {week.nunique()} weeks")

    def windowed() -> pd.DataFrame:
        return kf.pairwise(df, RATERS, by="project", time="t", every="1w")

    def floor() -> pd.DataFrame:
        return kf.pairwise(keyed, RATERS, by=["project", "week"])

    def rolling() -> pd.DataFrame:
        return kf.pairwise(df, RATERS, by="project", time="t", every="1w", period="4w")

    def rolling_floor() -> pd.DataFrame:
        return kf.pairwise(rolling_keyed, RATERS, by=["project", "week"])

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        windowed()  # warm up: imports, first allocations
        got = best_of(
            args.repeat,
            {"windowed": windowed, "floor": floor, "rolling": rolling, "r_floor": rolling_floor},
        )
    ours, theirs = got["windowed"][1], got["floor"][1]
    assert len(ours) == len(theirs)
    assert (ours["window_start"].to_numpy() == theirs["week"].to_numpy()).all()
    np.testing.assert_allclose(ours["kappa"], theirs["kappa"], rtol=0, atol=1e-12)
    rolled, keyed_rolled = got["rolling"][1], got["r_floor"][1]
    # The precomputed key also has windows starting before a project's first item: polars
    # (and kappaframe) start each project's windows at its earliest time.
    keyed_rolled = keyed_rolled[keyed_rolled["week"] >= week.min()].reset_index(drop=True)
    assert (rolled["window_start"].to_numpy() == keyed_rolled["week"].to_numpy()).all()
    np.testing.assert_allclose(rolled["kappa"], keyed_rolled["kappa"], rtol=0, atol=1e-12)
    print("same windows and numbers as the precomputed week keys: yes")
    for name, (seconds, _) in got.items():
        print(f"  {name:<9} {seconds:8.3f} s")
    ratio = got["windowed"][0] / got["floor"][0]
    print(f"weekly windows / precomputed week key:  {ratio:.2f}x")
    ratio = got["rolling"][0] / got["r_floor"][0]
    print(f"rolling 4-week windows / rows read 4x:  {ratio:.2f}x")


if __name__ == "__main__":
    main()

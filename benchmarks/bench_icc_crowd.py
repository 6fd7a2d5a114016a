"""Benchmark: the ICC of a crowd design, ``kf.icc(..., missing="available")``.

Workload (defaults): 1,000 items x 20 raters, each item scored by 3 raters drawn at random
(3,000 scores), score = item + rater leniency + noise. Seeded.

One run measures, side by side (best of ``--repeat``):

1. ``kf.icc(long, item=, rater=, value=, missing="available")``: the six forms, the
   two-way ones from REML variance components.
2. The baseline, measured in the same run: statsmodels' ``MixedLM`` REML fit of the same
   crossed model (one group for everything, ``vc_formula`` for items and raters), which
   gives the variance components only.

It prints both times, their ratio, and the two fits' variance components side by side.

Run from the repository root::

    python benchmarks/bench_icc_crowd.py        # under a minute
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import kappaframe as kf  # noqa: E402
from kappaframe._stats.icc_incomplete import reml_components  # noqa: E402


def crowd(n: int, k: int, per_item: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    item = np.repeat(np.arange(n), per_item)
    rater = np.concatenate([rng.choice(k, per_item, replace=False) for _ in range(n)])
    score = rng.normal(size=n)[item] + rng.normal(scale=0.5, size=k)[rater]
    score += rng.normal(scale=0.7, size=len(item))
    return pd.DataFrame({"item": item, "rater": rater, "score": score})


def best_of(repeat: int, run: Any) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--raters", type=int, default=20)
    parser.add_argument("--per-item", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = crowd(args.items, args.raters, args.per_item, seed=20261128)
    print(f"{args.items} items x {args.raters} raters, {len(data)} scores")

    ours, res = best_of(
        args.repeat,
        lambda: kf.icc(data, item="item", rater="rater", value="score", missing="available"),
    )
    components = reml_components(
        data["item"].to_numpy(),
        data["rater"].to_numpy(),
        data["score"].to_numpy(),
        args.items,
        args.raters,
    )

    import statsmodels.formula.api as smf

    def statsmodels_fit() -> Any:
        model = smf.mixedlm(
            "score ~ 1",
            data.assign(everything=1),
            groups="everything",
            re_formula="0",
            vc_formula={"item": "0 + C(item)", "rater": "0 + C(rater)"},
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return model.fit(reml=True, method=["lbfgs"])

    theirs, fit = best_of(1, statsmodels_fit)
    print(f"kf.icc(missing='available'), six forms: {ours:8.3f} s (best of {args.repeat})")
    print(f"statsmodels MixedLM REML, components:   {theirs:8.3f} s (one fit)")
    print(f"ratio statsmodels / kappaframe:         {theirs / ours:8.1f}x")
    print("variances (item, rater, residual):")
    print(f"  kappaframe   {components[0]:.6f} {components[1]:.6f} {components[2]:.6f}")
    print(f"  statsmodels  {fit.vcomp[0]:.6f} {fit.vcomp[1]:.6f} {fit.scale:.6f}")
    print(res[["type", "icc", "design", "k0"]].round(4).to_string(index=False))


if __name__ == "__main__":
    main()

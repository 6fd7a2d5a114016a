"""Benchmark: peak memory of per_label and items with thousands of labels.

Both read tables of items x labels that are almost all zeros. They now hold only the
(item, label) pairs that occur (``items``: the per-item counts; ``per_label``: a row per
pair some rater gave, and one weighted row per group, label and pattern of raters for the
rest), so their memory grows with the ratings. Each case runs in a subprocess of its own,
which reports its peak resident memory (``resource.getrusage(...).ru_maxrss``), the
resident memory once its data were built, and the call's time:

1. ``per_label(df, multi_sep="|")`` (Fleiss): 4 raters x 20,000 items, sets of 1-3 of
   5,000 labels;
2. ``items(df)`` (majority vote): 3 raters x 50,000 items, 5,000 labels;
3. ``items(df, consensus="dawid-skene")``, the same data: first refused under the default
   2 GiB limit (the message is printed), then run with the limit raised to 4 GiB, with
   ``max_iter=3`` (memory does not depend on the iterations; time does);
4. ``items(df)``: 3 raters x 100,000 items, 20,000 labels.

"Before" is the code that read every (item, label) cell. It is not run at full size
(up to 9.4 GB on the first case: too much for a shared machine). For per_label and the
majority vote it runs on a twentieth of the items (a two-hundredth for the last case),
in a subprocess, and its growth over the data is scaled back up (its cells grow with the
items): printed "estimated". Dawid-Skene's
is estimated from its array shapes: five float64 arrays of items x labels at once (the
counts, the posterior and its update in EM, the (items, K) table and ``settle``'s copy
of it), plus three of its confusion (raters x labels x labels).

Run from the repository root (each case stays under about 4 GB)::

    python benchmarks/bench_memory_labels.py            # about four minutes
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
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

GB = 1e9

#: name: (raters, items, labels, what)
CASES: dict[str, tuple[int, int, int, str]] = {
    "per_label": (4, 20_000, 5_000, "per_label, 4 raters x 20,000 items x 5,000 labels"),
    "majority": (3, 50_000, 5_000, "items, majority, 3 x 50,000 items x 5,000 labels"),
    "dawid-skene": (3, 50_000, 5_000, "items, Dawid-Skene, 3 x 50,000 x 5,000 labels"),
    "majority-big": (3, 100_000, 20_000, "items, majority, 3 x 100,000 items x 20,000 labels"),
}


#: The share of the items the former code runs on (its memory then scaled up).
SCALE = {"per_label": 20, "majority": 20, "majority-big": 200}


def rss() -> float:
    """Peak resident memory of this process so far, in bytes (Linux: KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024.0


def set_frame(raters: int, items: int, labels: int, seed: int = 0) -> pd.DataFrame:
    """Each rater tags each item with 1-3 labels; raters share one label of three."""
    rng = np.random.default_rng(seed)
    names = np.array([f"t{j}" for j in range(labels)], dtype=object)
    common = rng.integers(0, labels, items)
    columns = {}
    for r in range(raters):
        size = rng.integers(1, 4, items)
        own = rng.integers(0, labels, (items, 3))
        own[:, 0] = np.where(rng.random(items) < 0.7, common, own[:, 0])
        columns[f"r{r}"] = ["|".join(names[own[i, : size[i]]]) for i in range(items)]
    return pd.DataFrame(columns)


def label_frame(raters: int, items: int, labels: int, seed: int = 0) -> pd.DataFrame:
    """One label per rater and item, the true one 70% of the time."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, labels, items)
    return pd.DataFrame(
        {
            f"r{r}": np.where(rng.random(items) < 0.7, truth, rng.integers(0, labels, items))
            for r in range(raters)
        }
    )


def old_majority(df: pd.DataFrame, labels: int) -> None:
    """The former items() majority path: the dense (items, K) counts and everything after."""
    from kappaframe._stats.consensus import item_counts, majority
    from kappaframe._stats.items import per_item

    codes = df.to_numpy().T
    item = np.tile(np.arange(codes.shape[1]), codes.shape[0])
    counts = item_counts(item, codes.reshape(-1), codes.shape[1], labels)
    stats = per_item(counts)
    found = majority(counts)
    top = np.nanmax(found.posterior, axis=1)
    del stats, top


def child(case: str, scale: int, before: bool) -> dict[str, Any]:
    """Build one case's data, run it once, report memory and time."""
    raters, items, labels, _ = CASES[case]
    items //= scale
    warnings.simplefilter("ignore")
    if case == "per_label":
        df = set_frame(raters, items, labels)
        if before:  # the dense reading: one row per (item, label)
            import kappaframe._api.per_label as module

            module.DENSE_BYTES = 1 << 62
        run = lambda: kf.per_label(df, multi_sep="|", min_items=0)  # noqa: E731
    else:
        df = label_frame(raters, items, labels)
        if before:
            run = lambda: old_majority(df, labels)  # noqa: E731
        elif case == "dawid-skene":
            from kappaframe._count import kernel

            out: dict[str, Any] = {}
            try:
                kf.items(df, consensus="dawid-skene", max_iter=3)
            except kf.KappaFrameError as err:
                out["refused"] = str(err)
            kernel.MAX_COUNT_BYTES = 4 * 1024**3
            run = lambda: kf.items(df, consensus="dawid-skene", max_iter=3)  # noqa: E731
        else:
            run = lambda: kf.items(df)  # noqa: E731
    base = rss()
    start = time.perf_counter()
    run()
    seconds = time.perf_counter() - start
    result = {"base": base, "peak": rss(), "seconds": seconds}
    if case == "dawid-skene" and not before:
        result.update(out)
    return result


def spawn(case: str, scale: int = 1, before: bool = False) -> dict[str, Any]:
    args = [sys.executable, __file__, "--child", case, "--scale", str(scale)]
    if before:
        args.append("--before")
    done = subprocess.run(args, capture_output=True, text=True, check=True, cwd=REPO)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def ds_before_bytes(raters: int, items: int, labels: int) -> float:
    """Dawid-Skene's former peak by its array shapes (see the module docstring)."""
    return 5 * 8.0 * items * labels + 3 * 8.0 * raters * labels * labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child")
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--before", action="store_true")
    parser.add_argument("--cases", nargs="*", default=list(CASES))
    o = parser.parse_args()
    if o.child:
        print(json.dumps(child(o.child, o.scale, o.before)))
        return
    print(f"{'case':52} {'peak RSS':>9} {'data':>7} {'call':>7} {'time':>7}  before (call)")
    for case in o.cases:
        raters, items, labels, what = CASES[case]
        after = spawn(case)
        grown = (after["peak"] - after["base"]) / GB
        if case == "dawid-skene":
            old = ds_before_bytes(raters, items, labels) / GB
            note = f"{old:.1f} GB estimated from shapes"
        else:
            scale = SCALE[case]
            small = spawn(case, scale=scale, before=True)
            old = scale * (small["peak"] - small["base"]) / GB
            note = f"{old:.1f} GB estimated (1/{scale} of the items run, x{scale})"
        print(
            f"{what:52} {after['peak'] / GB:7.2f}GB {after['base'] / GB:5.2f}GB "
            f"{grown:5.2f}GB {after['seconds']:6.1f}s  {note}; {old / max(grown, 1e-9):.0f}x"
        )
        if "refused" in after:
            print(f"  default limit: {after['refused']}")


if __name__ == "__main__":
    main()

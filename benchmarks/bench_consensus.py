"""Benchmark: consensus labels, kappaframe's Dawid-Skene and majority vote against crowd-kit's.

Workloads, in one run:

1. The real crowds in ``../shared/data`` (dog, face, product; ``product`` is 24,945
   ratings of 8,315 items by 176 raters), each with a gold label per item.
2. A synthetic crowd of 1,000,000 ratings: 50,000 items x 20 ratings from 5,000 raters, 4
   categories; each rater has their own confusion matrix (a diagonal drawn in [0.3, 0.9],
   errors spread by a Dirichlet draw per row), and one rater in ten answers at random.

For each, kappaframe (codes by ``pandas.factorize``, then ``dawid_skene`` / ``majority``)
and crowd-kit (``DawidSkene(100)`` and ``MajorityVote`` on its task/worker/label frame),
both with their defaults: the accuracy of each against gold, the iterations, the time
(best of ``--repeat``, taking turns; crowd-kit's Dawid-Skene once on the synthetic crowd)
and the speed ratio. It checks that the two are the same model: run for crowd-kit's number
of iterations, kappaframe's posteriors equal crowd-kit's (to 1e-9; crowd-kit clips its
posteriors at 1e-10).

Run from the repository root::

    python benchmarks/bench_consensus.py          # about a minute
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
from kappaframe._stats.consensus import item_counts, majority  # noqa: E402
from kappaframe._stats.dawid_skene import dawid_skene  # noqa: E402

try:
    from crowdkit.aggregation import DawidSkene, MajorityVote
except ModuleNotFoundError:  # pragma: no cover - the benchmark needs it
    sys.exit('crowd-kit is needed: pip install "kappaframe[test]" (or crowd-kit)')

SETS = ("dog", "face", "product")


def default_data() -> Path | None:
    """``../shared/data`` beside the checkout, or beside the folder that holds it."""
    for parent in REPO.parents[:2]:
        if (parent / "shared" / "data").is_dir():
            return parent / "shared" / "data"
    return None


def load(data: Path, name: str) -> tuple[pd.DataFrame, pd.Series]:
    """crowd-kit's frame (task, worker, label) and the gold label per task."""
    raw = pd.read_csv(data / f"{name}_answers.csv", dtype={"question": str, "worker": str})
    gold = pd.read_csv(data / f"{name}_truth.csv", dtype={"question": str})
    frame = raw.rename(columns={"question": "task", "answer": "label"})
    return frame, gold.set_index("question")["truth"]


def synthetic(
    items: int, per_item: int, raters: int, k: int, seed: int
) -> tuple[pd.DataFrame, pd.Series]:
    """A crowd where each rater answers by their own confusion matrix; a tenth are spammers."""
    rng = np.random.default_rng(seed)
    who = rng.integers(0, raters, (items, per_item))
    while True:  # redraw the rows where a rater came up twice
        ordered = np.sort(who, axis=1)
        again = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        if not again.any():
            break
        who[again] = rng.integers(0, raters, (int(again.sum()), per_item))
    truth = rng.integers(0, k, items)
    right = rng.uniform(0.3, 0.9, raters)
    off = rng.dirichlet(np.ones(k - 1), (raters, k)) * (1 - right)[:, None, None]
    confusion = np.zeros((raters, k, k))
    for c in range(k):
        confusion[:, c, c] = right
        confusion[:, c, [j for j in range(k) if j != c]] = off[:, c]
    spammers = rng.random(raters) < 0.1
    confusion[spammers] = 1 / k
    cum = np.cumsum(confusion[who, truth[:, None]], axis=-1)
    label = (rng.random(who.shape)[..., None] > cum).sum(axis=-1).clip(0, k - 1)
    frame = pd.DataFrame(
        {
            "task": np.repeat(np.arange(items), per_item),
            "worker": who.ravel(),
            "label": label.ravel(),
        }
    )
    return frame, pd.Series(truth, index=np.arange(items))


def codes(frame: pd.DataFrame) -> tuple[Any, ...]:
    """Items, raters and labels as codes (labels sorted), with the uniques."""
    item, items = pd.factorize(frame["task"])
    rater, raters = pd.factorize(frame["worker"])
    label, categories = pd.factorize(frame["label"], sort=True)
    return item, rater, label, len(items), len(raters), len(categories), items, categories


def ours_ds(frame: pd.DataFrame, **options: Any) -> tuple[pd.Series, Any, Any, Any]:
    item, rater, label, n_items, n_raters, k, items, categories = codes(frame)
    model = dawid_skene(item, rater, label, n_items, n_raters, k, ties="first-category", **options)
    labels = pd.Series(np.asarray(categories)[model.label], index=items)
    return labels.rename_axis("task"), model, items, categories


def ours_mv(frame: pd.DataFrame) -> pd.Series:
    item, _, label, n_items, _, k, items, categories = codes(frame)
    vote = majority(item_counts(item, label, n_items, k), ties="first-category")
    return pd.Series(np.asarray(categories)[vote.label], index=items)


def theirs(model: Any, frame: pd.DataFrame) -> Any:
    with warnings.catch_warnings():  # its pandas calls warn of deprecations
        warnings.simplefilter("ignore")
        return model.fit(frame)


def timed(fn: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def turns(
    repeat: int, contenders: dict[str, Any], once: frozenset[str] = frozenset()
) -> dict[str, tuple[float, Any]]:
    """Best time of each contender over ``repeat`` rounds, taking turns; ``once``: one run."""
    best: dict[str, float] = {}
    out: dict[str, Any] = {}
    for round_ in range(repeat):
        for name, fn in contenders.items():
            if name in once and round_:
                continue
            seconds, out[name] = timed(fn)
            best[name] = min(best.get(name, np.inf), seconds)
    return {name: (best[name], out[name]) for name in contenders}


def accuracy(labels: pd.Series, gold: pd.Series) -> float:
    return float((labels.reindex(gold.index) == gold).mean())


def compare(title: str, frame: pd.DataFrame, gold: pd.Series, args: argparse.Namespace) -> None:
    n_items, n_raters = frame["task"].nunique(), frame["worker"].nunique()
    print(
        f"\n{title}: {len(frame):,} ratings, {n_items:,} items, {n_raters:,} raters, "
        f"{frame['label'].nunique()} categories, gold for {gold.notna().sum():,} items"
    )
    once = frozenset({"crowd-kit DS"} if len(frame) > 200_000 else ())
    runs = turns(
        args.repeat,
        {
            "kappaframe DS": lambda: ours_ds(frame),
            "crowd-kit DS": lambda: theirs(DawidSkene(100), frame),
            "kappaframe MV": lambda: ours_mv(frame),
            "crowd-kit MV": lambda: theirs(MajorityVote(), frame),
        },
        once,
    )
    t_ds, (ds_labels, model, items, categories) = runs["kappaframe DS"]
    t_ck, ck = runs["crowd-kit DS"]
    t_mv, mv_labels = runs["kappaframe MV"]
    t_ckmv, ckmv = runs["crowd-kit MV"]

    # The same model: run for crowd-kit's iterations, the same posteriors.
    n_ck = len(ck.loss_history_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.ConvergenceWarning)
        same_runs = turns(args.repeat, {"same": lambda: ours_ds(frame, max_iter=n_ck, tol=0.0)})
    t_same, (_, same, _, _) = same_runs["same"]
    probas = ck.probas_.reindex(items)[categories].to_numpy()
    diff = float(np.abs(same.posterior - probas).max())
    assert same.n_iter == n_ck and diff < 1e-9, (same.n_iter, diff)

    acc_ds, acc_ck = accuracy(ds_labels, gold), accuracy(ck.labels_, gold)
    rows = [
        ("kappaframe Dawid-Skene", acc_ds, model.n_iter, t_ds),
        ("crowd-kit DawidSkene", acc_ck, n_ck, t_ck),
        (
            f"kappaframe, {n_ck} iterations",
            accuracy(pd.Series(categories[same.label], index=items), gold),
            n_ck,
            t_same,
        ),
        ("kappaframe majority", accuracy(mv_labels, gold), None, t_mv),
        ("crowd-kit MajorityVote", accuracy(ckmv.labels_, gold), None, t_ckmv),
    ]
    print(f"  {'':30}{'accuracy':>9}{'iterations':>12}{'seconds':>10}")
    for name, acc, n_iter, seconds in rows:
        its = "" if n_iter is None else str(n_iter)
        print(f"  {name:30}{acc:9.4f}{its:>12}{seconds:10.3f}")
    agree = (ds_labels.reindex(ck.labels_.index) == ck.labels_).mean()
    agree_mv = (mv_labels.reindex(ckmv.labels_.index) == ckmv.labels_).mean()
    print(
        f"  same model: for crowd-kit's {n_ck} iterations, kappaframe's posteriors equal "
        f"crowd-kit's (max |difference| {diff:.1e})"
    )
    print(
        f"  Dawid-Skene, kappaframe vs crowd-kit: {t_ck / t_ds:.1f}x faster as each stops "
        f"(target >= 10), {t_ck / t_same:.1f}x for the same iterations; accuracy "
        f"{acc_ds:.4f} vs {acc_ck:.4f}; labels agree on {agree:.2%} of items"
    )
    print(
        f"  majority vote, kappaframe vs crowd-kit: {t_ckmv / t_mv:.1f}x faster; labels "
        f"agree on {agree_mv:.2%} of items (ties: first category vs first met)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data(), help="../shared/data")
    parser.add_argument("--sets", nargs="*", default=list(SETS), choices=SETS)
    parser.add_argument("--items", type=int, default=50_000)
    parser.add_argument("--per-item", type=int, default=20)
    parser.add_argument("--raters", type=int, default=5_000)
    parser.add_argument("--categories", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    if args.data is None or not args.data.is_dir():
        print("no ../shared/data: the real crowds are skipped (--data DIR names them)")
    else:
        for name in args.sets:
            frame, gold = load(args.data, name)
            compare(name, frame, gold, args)
    frame, gold = synthetic(args.items, args.per_item, args.raters, args.categories, args.seed)
    compare("synthetic crowd", frame, gold, args)


if __name__ == "__main__":
    main()

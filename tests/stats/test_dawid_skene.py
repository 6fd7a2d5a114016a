"""Dawid-Skene consensus (kappaframe._stats.dawid_skene): known answers, a loop-written
reference, determinism, bad input, and crowd-kit's DawidSkene and MajorityVote on real data."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._stats import dawid_skene as _dawid_skene
from kappaframe._stats.consensus import Draws, item_counts, majority
from kappaframe._stats.dawid_skene import FLOOR, dawid_skene

ROOT = Path(__file__).resolve().parents[2]
# The real crowds live beside the checkout (../shared/data), or beside the folder that
# holds it; never in the repository.
DATA = next(
    (d for d in (p / "shared" / "data" for p in ROOT.parents[:2]) if d.is_dir()),
    None,
)
SETS = ["dog", "face", "product"]


def crowd(
    rng: np.random.Generator,
    truth: np.ndarray,
    confusion: np.ndarray,
    per_item: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each item rated by ``per_item`` distinct raters; rater r answers by ``confusion[r]``."""
    n_raters, k, _ = confusion.shape
    who = np.argsort(rng.random((len(truth), n_raters)), axis=1)[:, :per_item]
    cum = np.cumsum(confusion[who, truth[:, None]], axis=-1)
    label = (rng.random(who.shape)[..., None] > cum).sum(axis=-1).clip(0, k - 1)
    return np.repeat(np.arange(len(truth)), per_item), who.ravel(), label.ravel()


def noisy(n_raters: int, k: int, accuracy: float) -> np.ndarray:
    """Confusion matrices: ``accuracy`` on the diagonal, the rest spread evenly."""
    off = (1 - accuracy) / (k - 1)
    one = np.full((k, k), off) + np.eye(k) * (accuracy - off)
    return np.repeat(one[None], n_raters, axis=0)


def fit(*args: Any, **options: Any) -> Any:
    """``dawid_skene`` with the ConvergenceWarning of a deliberately short run silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kf.ConvergenceWarning)
        return dawid_skene(*args, **options)


def reference(
    item: np.ndarray, rater: np.ndarray, label: np.ndarray, k: int, n_iter: int
) -> tuple[dict[int, np.ndarray], np.ndarray, dict[int, dict[int, np.ndarray]]]:
    """Dawid & Skene's EM written out with loops over items and raters (same floor)."""
    ratings = list(zip(item.tolist(), rater.tolist(), label.tolist(), strict=True))
    items = sorted(set(item.tolist()))
    given = {lab for *_, lab in ratings}
    post = {}
    for i in items:
        votes = [lab for j, _, lab in ratings if j == i]
        post[i] = np.array([votes.count(c) for c in range(k)]) / len(votes)

    def m_step(
        post: dict[int, np.ndarray],
    ) -> tuple[np.ndarray, dict[int, dict[int, np.ndarray]]]:
        prior = sum(post.values()) / len(post)
        theta = {}
        for r in sorted(set(rater.tolist())):
            mine = [(i, lab) for i, rr, lab in ratings if rr == r]
            expected = {
                lab: np.maximum(sum(post[i] for i, ll in mine if ll == lab), FLOOR)
                for lab in {ll for _, ll in mine}
            }
            total = sum(expected.values())
            theta[r] = {lab: e / total for lab, e in expected.items()}
        return prior, theta

    prior, theta = m_step(post)
    for _ in range(n_iter):
        for i in items:
            log = np.array(
                [np.log(max(prior[c], FLOOR)) if c in given else -np.inf for c in range(k)]
            )
            for j, r, lab in ratings:
                if j == i:
                    log = log + np.log(theta[r][lab])
            p = np.exp(log - log.max())
            post[i] = p / p.sum()
        prior, theta = m_step(post)
    return post, prior, theta


def test_a_perfect_rater_is_learnt_and_the_noisy_ones_are_their_own_tables() -> None:
    # Rater 0 is always right; raters 1 and 2 are each wrong on a quarter of the items,
    # never on the same one, in different directions.
    truth = np.tile([0, 1, 2], 4)
    wrong_1, wrong_2 = [0, 4, 8], [1, 5, 9]
    labels = np.tile(truth, (3, 1))
    labels[1, wrong_1] = (truth[wrong_1] + 1) % 3
    labels[2, wrong_2] = (truth[wrong_2] + 2) % 3
    item, rater, label = np.tile(np.arange(12), 3), np.repeat([0, 1, 2], 12), labels.ravel()
    model = dawid_skene(item, rater, label, n_items=12, n_raters=3, k=3)
    assert model.converged
    assert np.array_equal(model.label, truth) and (model.support > 1 - 1e-6).all()
    np.testing.assert_allclose(model.confusion[0], np.eye(3), atol=1e-6)
    # Each noisy rater's matrix is their table against the truth, row-normalised.
    shift = np.eye(3)[[1, 2, 0]]  # 0 -> 1, 1 -> 2, 2 -> 0
    np.testing.assert_allclose(model.confusion[1], 0.75 * np.eye(3) + 0.25 * shift, atol=1e-6)
    np.testing.assert_allclose(model.confusion[2], 0.75 * np.eye(3) + 0.25 * shift.T, atol=1e-6)
    np.testing.assert_allclose(model.priors, [1 / 3] * 3, atol=1e-6)


def test_a_rater_who_always_swaps_two_labels_is_learnt_as_a_swap() -> None:
    rng = np.random.default_rng(5)
    k = 3
    truth = rng.integers(0, k, 400)
    confusion = noisy(4, k, 0.8)
    swap = np.eye(k)[[1, 0, 2]]  # gives 1 for 0, 0 for 1, and 2 for 2
    confusion[3] = swap
    item, rater, label = crowd(rng, truth, confusion, per_item=3)
    model = dawid_skene(item, rater, label, len(truth), 4, k)
    assert model.converged
    np.testing.assert_array_equal(model.confusion[3].argmax(axis=1), [1, 0, 2])
    np.testing.assert_allclose(model.confusion[3], swap, atol=0.02)
    for r in range(3):  # the others: their own tables against the truth, near enough
        table = np.zeros((k, k))
        np.add.at(table, (truth[item[rater == r]], label[rater == r]), 1)
        table /= table.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(model.confusion[r], table, atol=0.1)
    # The swapper's answer counts for the label it stands for, not the one it says.
    mv = majority(item_counts(item, label, len(truth), k), ties="first-category")
    right = (model.label == truth).mean()
    assert right > (mv.label == truth).mean() + 0.05
    # As good as knowing the raters' true matrices, within a few items.
    with np.errstate(divide="ignore"):
        log = np.log(confusion)[rater, :, label]  # (ratings, true category)
    known = np.stack([np.bincount(item, weights=log[:, c]) for c in range(k)], axis=1)
    assert right >= (known.argmax(axis=1) == truth).mean() - 0.01


def test_the_vectorised_steps_equal_the_textbook_loops() -> None:
    rng = np.random.default_rng(11)
    k, n_raters, n_items = 4, 8, 40
    rows = []
    for i in range(n_items - 3):  # the last three items have no rating
        for r in rng.choice(n_raters - 1, rng.integers(1, 5), replace=False):  # rater 7: none
            rows.append((i, r, rng.integers(0, k - 1)))  # category 3: nobody gives it
    rows += [(0, 2, 1), (5, 4, 0)]  # a rater who rated an item twice
    order = rng.permutation(len(rows))
    item, rater, label = (np.array([rows[j][c] for j in order]) for c in range(3))
    model = fit(item, rater, label, n_items, n_raters, k, max_iter=12)
    post, prior, theta = reference(item, rater, label, k, model.n_iter)
    rated = sorted(post)
    np.testing.assert_allclose(
        model.posterior[rated], np.array([post[i] for i in rated]), atol=1e-12
    )
    np.testing.assert_allclose(model.priors, prior, atol=1e-12)
    for r, cells in theta.items():
        for lab, column in cells.items():
            np.testing.assert_allclose(model.confusion[r][:, lab], column, atol=1e-12)
    # Labels a rater never gave have probability 0; a rater with no rating, NaN.
    assert model.confusion[2][:, [lab for lab in range(k) if lab not in theta[2]]].max() == 0
    assert np.isnan(model.confusion[7]).all()
    # Items with no rating: no posterior, no label; the category nobody gave: never chosen.
    assert np.isnan(model.posterior[-3:]).all() and (model.label[-3:] == -1).all()
    assert not model.tied[-3:].any() and np.isnan(model.support[-3:]).all()
    assert (model.posterior[rated, 3] == 0).all() and model.priors[3] == 0


def test_the_outputs_are_distributions() -> None:
    rng = np.random.default_rng(2)
    truth = rng.integers(0, 4, 500)
    item, rater, label = crowd(rng, truth, noisy(30, 4, 0.55), per_item=4)
    model = dawid_skene(item, rater, label, 500, 30, 4)
    np.testing.assert_allclose(model.posterior.sum(axis=1), 1, atol=1e-12)
    np.testing.assert_allclose(model.confusion.sum(axis=2), 1, atol=1e-12)
    np.testing.assert_allclose(model.priors.sum(), 1, atol=1e-12)
    best = model.posterior.max(axis=1)
    np.testing.assert_array_equal(model.support, np.where(model.label >= 0, best, np.nan))
    assert model.label.dtype == np.intp and model.confusion.shape == (30, 4, 4)


def test_the_same_ratings_give_the_same_model_in_any_order(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(8)
    truth = rng.integers(0, 3, 300)
    item, rater, label = crowd(rng, truth, noisy(12, 3, 0.7), per_item=4)
    first = dawid_skene(item, rater, label, 300, 12, 3)
    again = dawid_skene(item, rater, label, 300, 12, 3)
    for name in ("posterior", "label", "support", "tied", "confusion", "priors"):
        np.testing.assert_array_equal(getattr(first, name), getattr(again, name))
    shuffle = rng.permutation(len(item))
    moved = dawid_skene(item[shuffle], rater[shuffle], label[shuffle], 300, 12, 3)
    # The sums run in an order of the ratings' own, not the order they came in.
    for name in ("posterior", "label", "confusion", "priors"):
        np.testing.assert_array_equal(getattr(moved, name), getattr(first, name))
    assert moved.n_iter == first.n_iter
    # Past 65,536 (rater, label) cells the cell order comes from a sort of keys instead.
    monkeypatch.setattr(_dawid_skene, "_RADIX_CELLS", 0)
    keyed = dawid_skene(item[shuffle], rater[shuffle], label[shuffle], 300, 12, 3)
    np.testing.assert_array_equal(keyed.posterior, moved.posterior)


def test_a_posterior_tie_is_left_open_unless_a_rule_is_named() -> None:
    # Two raters who disagree on both items, symmetrically: every posterior is one half.
    item, rater, label = np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]), np.array([0, 1, 1, 0])
    open_ = dawid_skene(item, rater, label, 2, 2, 2)
    np.testing.assert_allclose(open_.posterior, 0.5)
    assert open_.label.tolist() == [-1, -1] and open_.tied.tolist() == [True, True]
    assert np.isnan(open_.support).all()
    first = dawid_skene(item, rater, label, 2, 2, 2, ties="first-category")
    assert first.label.tolist() == [0, 0] and first.support.tolist() == [0.5, 0.5]
    drawn = dawid_skene(item, rater, label, 2, 2, 2, ties="random", seed=1).label
    assert set(drawn.tolist()) <= {0, 1}
    assert np.array_equal(
        drawn, dawid_skene(item, rater, label, 2, 2, 2, ties="random", seed=1).label
    )


@pytest.mark.parametrize(
    "ratings",
    [
        ([0, 1, 2], [0, 1, 0], [0, 1, 1]),  # one rating per item
        ([0, 0, 1, 1], [3, 3, 2, 2], [0, 1, 1, 1]),  # one rater per item, twice
        ([], [], []),  # no rating at all
    ],
    ids=["one-rating-each", "one-rater-each", "empty"],
)
def test_no_item_rated_by_two_raters_cannot_be_identified(ratings: Any) -> None:
    item, rater, label = (np.array(r, dtype=np.intp) for r in ratings)
    with pytest.raises(kf.KappaFrameError, match="no item was rated by two raters") as err:
        dawid_skene(item, rater, label, 3, 4, 2)
    assert "consensus='majority'" in str(err.value) and err.value.option == "consensus"


def test_running_out_of_iterations_warns_and_says_so() -> None:
    rng = np.random.default_rng(4)
    truth = rng.integers(0, 3, 300)
    item, rater, label = crowd(rng, truth, noisy(20, 3, 0.7), per_item=4)
    with pytest.warns(
        kf.ConvergenceWarning, match=r"did not converge in 2 iterations.*max_iter=20"
    ):
        short = dawid_skene(item, rater, label, 300, 20, 3, max_iter=2)
    assert short.n_iter == 2 and not short.converged
    full = dawid_skene(item, rater, label, 300, 20, 3)
    assert full.converged and 2 < full.n_iter < 100
    looser = dawid_skene(item, rater, label, 300, 20, 3, tol=1e-3)
    assert looser.converged and looser.n_iter < full.n_iter


@pytest.mark.parametrize(
    ("options", "option", "message"),
    [
        ({"max_iter": 0}, "max_iter", "max_iter must be a whole number"),
        ({"max_iter": 2.5}, "max_iter", "max_iter must be a whole number"),
        ({"max_iter": True}, "max_iter", "max_iter must be a whole number"),
        ({"tol": -1e-3}, "tol", "tol must be a number >= 0"),
        ({"tol": float("nan")}, "tol", "tol must be a number >= 0"),
        ({"ties": "coin"}, "ties", "ties must be one of"),
        ({"ties": "random"}, "seed", "seed=0"),
    ],
)
def test_bad_options_are_named(options: dict[str, Any], option: str, message: str) -> None:
    item, rater, label = np.array([0, 0]), np.array([0, 1]), np.array([0, 1])
    with pytest.raises(kf.KappaFrameError, match=message) as err:
        dawid_skene(item, rater, label, 1, 2, 2, **options)
    assert err.value.option == option


# --- crowd-kit on the real crowds ------------------------------------------------------


def load(name: str) -> dict[str, Any]:
    """One shared data set as codes (items, raters and categories sorted) and its gold."""
    pd = pytest.importorskip("pandas")
    assert DATA is not None
    raw = pd.read_csv(DATA / f"{name}_answers.csv", dtype={"question": str, "worker": str})
    gold = pd.read_csv(DATA / f"{name}_truth.csv", dtype={"question": str})
    items, item = np.unique(raw["question"].to_numpy(), return_inverse=True)
    raters, rater = np.unique(raw["worker"].to_numpy(), return_inverse=True)
    categories, label = np.unique(raw["answer"].to_numpy(), return_inverse=True)
    frame = pd.DataFrame({"task": raw["question"], "worker": raw["worker"], "label": raw["answer"]})
    truth = gold.set_index("question")["truth"].reindex(items).to_numpy()
    return {
        "codes": (item, rater, label, len(items), len(raters), len(categories)),
        "items": items,
        "raters": raters,
        "categories": categories,
        "frame": frame,
        "truth": truth,  # NaN where an item has no gold label
    }


def crowdkit(model: Any, frame: Any) -> Any:
    with warnings.catch_warnings():  # its pandas calls warn of deprecations
        warnings.simplefilter("ignore")
        return model.fit(frame)


def accuracy(labels: np.ndarray, truth: np.ndarray) -> float:
    known = ~np.isnan(truth)
    return float(np.mean(labels[known] == truth[known]))


needs_data = pytest.mark.skipif(DATA is None, reason="needs ../shared/data (the real crowds)")


def synthetic(seed: int = 5, n_items: int = 400, n_raters: int = 40, k: int = 3) -> dict:
    """A crowd drawn from known confusion matrices, as ``load`` gives the real ones."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    skill = rng.uniform(0.35, 0.95, n_raters)
    item = np.repeat(np.arange(n_items), 5)
    rater = np.concatenate([rng.choice(n_raters, 5, replace=False) for _ in range(n_items)])
    right = rng.random(len(item)) < skill[rater]
    label = np.where(right, truth[item], rng.integers(0, k, len(item)))
    frame = pd.DataFrame(
        {"task": [f"t{i:04d}" for i in item], "worker": [f"w{r:03d}" for r in rater],
         "label": [f"c{c}" for c in label]}
    )  # fmt: skip
    items, item = np.unique(frame["task"].to_numpy(), return_inverse=True)
    raters, rater = np.unique(frame["worker"].to_numpy(), return_inverse=True)
    categories, label = np.unique(frame["label"].to_numpy(), return_inverse=True)
    return {
        "codes": (item, rater, label, len(items), len(raters), len(categories)),
        "items": items,
        "raters": raters,
        "categories": categories,
        "frame": frame,
    }


def test_the_same_iterations_give_crowdkits_posteriors_on_a_drawn_crowd() -> None:
    """The same model as crowd-kit's, where the real crowds are absent (CI)."""
    aggregation = pytest.importorskip("crowdkit.aggregation")
    data = synthetic()
    for n in (1, 5, 20):
        ours = fit(*data["codes"], max_iter=n, tol=0.0)
        theirs = crowdkit(aggregation.DawidSkene(n, tol=-np.inf), data["frame"])
        probas = theirs.probas_.reindex(data["items"])[data["categories"]].to_numpy()
        np.testing.assert_allclose(ours.posterior, probas, rtol=0, atol=2e-10)
        priors = theirs.priors_[data["categories"]].to_numpy()
        np.testing.assert_allclose(ours.priors, priors, rtol=0, atol=1e-12)


@needs_data
@pytest.mark.parametrize("name", SETS)
def test_the_same_iterations_give_crowdkits_posteriors(name: str) -> None:
    aggregation = pytest.importorskip("crowdkit.aggregation")
    data = load(name)
    for n in (1, 5, 20):
        ours = fit(*data["codes"], max_iter=n, tol=0.0)
        assert ours.n_iter == n
        theirs = crowdkit(aggregation.DawidSkene(n, tol=-np.inf), data["frame"])
        probas = theirs.probas_.reindex(data["items"])[data["categories"]].to_numpy()
        # crowd-kit clips its returned posteriors at 1e-10.
        np.testing.assert_allclose(ours.posterior, probas, rtol=0, atol=2e-10)
        priors = theirs.priors_[data["categories"]].to_numpy()
        np.testing.assert_allclose(ours.priors, priors, rtol=0, atol=1e-12)
    # Its error matrices: indexed by (worker, label given), a column per true label.
    errors = theirs.errors_
    workers = errors.index.get_level_values(0).to_numpy()
    given = errors.index.get_level_values(1).to_numpy()
    r = np.searchsorted(data["raters"], workers)
    g = np.searchsorted(data["categories"], given)
    ours_cells = ours.confusion[r, :, g]  # (cells, true categories)
    theirs_cells = errors[data["categories"]].to_numpy()
    np.testing.assert_allclose(ours_cells, theirs_cells, rtol=1e-9, atol=1e-15)


@needs_data
@pytest.mark.parametrize("name", SETS)
def test_defaults_agree_with_crowdkit_and_beat_the_majority_vote_on_gold(name: str) -> None:
    aggregation = pytest.importorskip("crowdkit.aggregation")
    data = load(name)
    ours = dawid_skene(*data["codes"], ties="first-category")
    assert ours.converged
    theirs = crowdkit(aggregation.DawidSkene(100), data["frame"])
    probas = theirs.probas_.reindex(data["items"])[data["categories"]].to_numpy()
    their_labels = probas.argmax(axis=1)
    # The two stop at different iterations (crowd-kit on its evidence lower bound, with
    # tol=1e-5): the labels agree wherever either is clear of a coin flip.
    clear = (probas.max(axis=1) > 0.55) & (ours.support > 0.55)
    assert clear.mean() > 0.97
    np.testing.assert_array_equal(ours.label[clear], their_labels[clear])
    categories, truth = data["categories"], data["truth"]
    ours_acc = accuracy(categories[ours.label], truth)
    theirs_acc = accuracy(categories[their_labels], truth)
    assert abs(ours_acc - theirs_acc) <= 2 / np.count_nonzero(~np.isnan(truth))
    item, _, label, n_items, _, k = data["codes"]
    vote = majority(item_counts(item, label, n_items, k), ties="first-category")
    assert ours_acc > accuracy(categories[vote.label], truth)


@needs_data
@pytest.mark.parametrize("name", SETS)
def test_the_majority_vote_is_crowdkits(name: str) -> None:
    aggregation = pytest.importorskip("crowdkit.aggregation")
    data = load(name)
    item, _, label, n_items, _, k = data["codes"]
    ours = majority(item_counts(item, label, n_items, k), ties="first-category")
    theirs = crowdkit(aggregation.MajorityVote(), data["frame"])
    probas = theirs.probas_.reindex(data["items"])[data["categories"]].to_numpy()
    np.testing.assert_allclose(ours.posterior, probas, rtol=0, atol=1e-15)
    labels = np.searchsorted(data["categories"], theirs.labels_.reindex(data["items"]))
    # Its ties go to the category it met first in the file; ours are named, here the first.
    np.testing.assert_array_equal(ours.label[~ours.tied], labels[~ours.tied])
    tied = np.flatnonzero(ours.tied)
    assert (probas[tied, labels[tied]] == probas[tied].max(axis=1)).all()


def test_without_the_table_the_labels_are_the_same_and_no_posterior_is_kept() -> None:
    rng = np.random.default_rng(12)
    truth = rng.integers(0, 5, 400)
    item, rater, label = crowd(rng, truth, noisy(9, 5, 0.5), per_item=3)
    item = np.where(item == 7, 401, item)  # items 7 and 400 have no rating
    for ties, seed in (("missing", None), ("first-category", None), ("random", 3)):
        draws = Draws(rng.permutation(402), rng.permutation(5)) if seed else None
        full = dawid_skene(
            item, rater, label, 402, 9, 5, ties=ties, seed=seed, draws=draws, max_iter=1000
        )
        lean = dawid_skene(
            item,
            rater,
            label,
            402,
            9,
            5,
            ties=ties,
            seed=seed,
            draws=draws,
            max_iter=1000,
            table=False,
        )
        assert lean.posterior is None and lean.confusion is None
        for name in ("label", "support", "tied", "priors", "top"):
            np.testing.assert_array_equal(getattr(lean, name), getattr(full, name))
        assert np.isnan(lean.top[[7, 400]]).all() and lean.n_iter == full.n_iter
        np.testing.assert_array_equal(full.top[:7], full.posterior[:7].max(axis=1))


def test_a_fit_over_the_memory_limit_is_refused_before_it_is_allocated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kappaframe._count import kernel

    rng = np.random.default_rng(1)
    truth = rng.integers(0, 40, 300)
    item, rater, label = crowd(rng, truth, noisy(3, 40, 0.6), per_item=3)
    lean = _dawid_skene.fit_model(item, rater, label, 300, 3, 40)
    rows, cells = lean.post.shape[1], lean.theta.shape[1]
    need = _dawid_skene.model_bytes(rows, cells, 40)
    assert need == 8 * 40 * (rows + cells) + 2 * 40 * rows
    assert lean.post.nbytes + lean.theta.nbytes < need  # and the masks settle makes

    monkeypatch.setattr(kernel, "MAX_COUNT_BYTES", need)  # just enough without the table
    dawid_skene(item, rater, label, 300, 3, 40, table=False)
    with pytest.raises(kf.KappaFrameError, match="Dawid-Skene would hold") as err:
        dawid_skene(item, rater, label, 300, 3, 40)  # the (items, K) table is more
    message = str(err.value)
    assert f"{rows:,} items x 40 labels" in message and f"{cells:,} (rater, label)" in message
    assert "consensus='majority'" in message and "MAX_COUNT_BYTES" in message
    assert err.value.option == "consensus"
    monkeypatch.setattr(kernel, "MAX_COUNT_BYTES", need - 1)
    with pytest.raises(kf.KappaFrameError, match="Dawid-Skene would hold"):
        dawid_skene(item, rater, label, 300, 3, 40, table=False)

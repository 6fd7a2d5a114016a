"""The majority vote and the tie rules (kappaframe._stats.consensus)."""

from __future__ import annotations

import numpy as np
import pytest

import kappaframe as kf
from kappaframe._stats.consensus import (
    TIES,
    Draws,
    item_counts,
    majority,
    settle,
    sparse_item_counts,
    sparse_majority,
)
from kappaframe._stats.items import per_item, per_item_sparse


def test_item_counts_is_one_table_of_ratings() -> None:
    item = np.array([0, 0, 0, 1, 1, 2])
    label = np.array([1, 1, 0, 2, 2, 0])
    counts = item_counts(item, label, n_items=4, k=3)
    assert counts.tolist() == [[1, 2, 0], [0, 0, 2], [1, 0, 0], [0, 0, 0]]


def test_a_tie_is_left_open_unless_a_rule_is_named() -> None:
    counts = np.array([[3, 1, 0], [2, 2, 0], [0, 0, 0], [0, 1, 1]])
    open_ = majority(counts)
    assert open_.label.tolist() == [0, -1, -1, -1]
    assert open_.tied.tolist() == [False, True, False, True]
    assert open_.support[0] == 0.75 and np.isnan(open_.support[1:]).all()
    assert np.isnan(open_.posterior[2]).all()  # no rating: no shares at all
    first = majority(counts, ties="first-category")
    assert first.label.tolist() == [0, 0, -1, 1] and first.tied.tolist() == open_.tied.tolist()
    assert first.support[1] == 0.5


def test_a_random_tie_break_is_repeatable_and_picks_only_tied_categories() -> None:
    counts = np.tile([[2, 0, 2, 2]], (400, 1))
    drawn = majority(counts, ties="random", seed=7).label
    assert np.array_equal(drawn, majority(counts, ties="random", seed=7).label)
    assert set(drawn.tolist()) == {0, 2, 3}  # never the category nobody chose
    counts_per = np.bincount(drawn, minlength=4)[[0, 2, 3]]
    assert counts_per.min() > 90  # each tied category drawn about a third of the time


def test_the_tie_rules_are_checked_first() -> None:
    with pytest.raises(kf.KappaFrameError, match="ties must be one of") as err:
        majority(np.ones((1, 2), dtype=int), ties="coin")
    assert err.value.option == "ties"
    with pytest.raises(kf.KappaFrameError, match=r"seed=0") as err:
        majority(np.ones((1, 2), dtype=int), ties="random")
    assert err.value.option == "seed"


def test_close_posteriors_tie_within_a_tolerance() -> None:
    posterior = np.array([[0.5, 0.5 - 1e-15], [0.9, 0.1]])
    label, support, tied = settle(posterior, atol=1e-12)
    assert label.tolist() == [-1, 0] and tied.tolist() == [True, False]
    assert support[1] == 0.9


def _random_ratings(
    rng: np.random.Generator, n: int, k: int, m: int
) -> tuple[np.ndarray, np.ndarray]:
    """``m`` ratings of ``n`` items (some unrated), few labels each: ties are common."""
    item = rng.integers(0, n, m)
    label = rng.integers(0, k, m) if k < 4 else rng.choice(rng.choice(k, 4), m)
    return item, label


@pytest.mark.parametrize("k", [1, 3, 9, 200])
def test_the_majority_by_the_pairs_that_occur_is_the_dense_one(k: int) -> None:
    rng = np.random.default_rng(k)
    item, label = _random_ratings(rng, 300, k, 900)
    dense = item_counts(item, label, 300, k)
    pairs = sparse_item_counts(item, label, 300, k)
    assert int(pairs.tally.sum()) == 900 and (pairs.tally > 0).all()
    assert np.array_equal(dense[pairs.item, pairs.label], pairs.tally)
    rated = dense.sum(axis=1) > 0
    for ties in TIES:
        seed = 5 if ties == "random" else None
        for draws in (None, Draws(rng.permutation(300), rng.permutation(k))):
            want = majority(dense, ties, seed, draws)
            got = sparse_majority(pairs, ties, seed, draws)
            assert np.array_equal(got.label, want.label), ties
            assert np.array_equal(got.support, want.support, equal_nan=True)
            assert np.array_equal(got.tied, want.tied)
            assert np.array_equal(got.top[rated], np.nanmax(want.posterior[rated], axis=1))
            assert np.isnan(got.top[~rated]).all()
    assert majority(dense, "random", 5).tied.any() == (k > 1)  # the draw was exercised


@pytest.mark.parametrize("k", [2, 9, 40, 1000])
def test_per_item_by_the_pairs_that_occur_gives_the_same_numbers(k: int) -> None:
    rng = np.random.default_rng(k)
    item = rng.integers(0, 200, 1500)
    label = rng.integers(0, k, 1500)
    want = per_item(item_counts(item, label, 200, k))
    got = per_item_sparse(sparse_item_counts(item, label, 200, k))
    assert ((got["n_distinct"] >= 3).sum() > 50) == (k > 2)  # the sums whose order matters
    for name, values in want.items():
        assert values.dtype == got[name].dtype
        assert np.array_equal(values, got[name], equal_nan=True), name  # to the last bit


def test_per_item_by_pairs_sums_the_dense_rows_block_by_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kappaframe._stats.items as items_module

    monkeypatch.setattr(items_module, "_CHUNK_CELLS", 50)  # a few items per block
    rng = np.random.default_rng(0)
    item, label = rng.integers(0, 120, 900), rng.integers(0, 17, 900)
    want = per_item(item_counts(item, label, 120, 17))
    got = per_item_sparse(sparse_item_counts(item, label, 120, 17))
    assert np.array_equal(want["entropy"], got["entropy"], equal_nan=True)

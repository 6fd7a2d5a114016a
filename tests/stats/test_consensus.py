"""The majority vote and the tie rules (kappaframe._stats.consensus)."""

from __future__ import annotations

import numpy as np
import pytest

import kappaframe as kf
from kappaframe._stats.consensus import item_counts, majority, settle


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

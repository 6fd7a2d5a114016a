"""kf.rater_confusion: each rater's confusion matrix under Dawid & Skene's model."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

from ..conftest import to_pandas
from ..stats.test_dawid_skene import synthetic


def team() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    truth = rng.choice(["x", "y", "z"], 300)
    noisy = np.where(rng.random(300) < 0.7, truth, rng.choice(["x", "y", "z"], 300))
    swap = pd.Series(truth).map({"x": "y", "y": "x", "z": "z"}).to_numpy()
    return pd.DataFrame(
        {"group": np.repeat(["g1", "g2"], 150), "good": truth, "noisy": noisy, "swap": swap}
    )


def test_a_swap_is_learnt_and_each_row_is_a_distribution(constructor) -> None:
    res = to_pandas(constructor(team()).kappa.rater_confusion(by="group"))
    assert list(res.columns) == [
        "group", "rater", "true_label", "given_label", "probability", "n_ratings",
    ]  # fmt: skip
    assert len(res) == 2 * 3 * 3 * 3  # groups x raters x true x given
    sums = res.groupby(["group", "rater", "true_label"])["probability"].sum()
    np.testing.assert_allclose(sums.to_numpy(), 1.0, atol=1e-12)
    swap = res[(res["rater"] == "swap") & (res["group"] == "g1")].set_index(
        ["true_label", "given_label"]
    )["probability"]
    # The model's true categories follow the majority: good and swap disagree on x and y,
    # so the noisy rater decides which of the two is right.
    assert swap[("x", "y")] > 0.95 and swap[("y", "x")] > 0.95 and swap[("z", "z")] > 0.95
    assert (res["n_ratings"] == 150).all()


def test_the_same_matrices_as_crowd_kit() -> None:
    aggregation = pytest.importorskip("crowdkit.aggregation")
    data = synthetic()
    frame = data["frame"]
    with warnings.catch_warnings():  # the same 20 iterations (no tolerance stops it early)
        warnings.simplefilter("ignore", kf.ConvergenceWarning)
        ours = kf.rater_confusion(
            frame, item="task", rater="worker", label="label", max_iter=20, tol=1e-300
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # crowd-kit's pandas calls warn of deprecations
        theirs = aggregation.DawidSkene(20, tol=-np.inf).fit(frame)
    errors = theirs.errors_  # (worker, given) x true
    mine = ours.set_index(["rater", "given_label", "true_label"])["probability"]
    stacked = errors.stack()  # noqa: PD013
    stacked.index = stacked.index.set_names(["rater", "given_label", "true_label"])
    joined = pd.concat([mine, stacked.rename("theirs")], axis=1, join="inner")
    assert len(joined) == len(stacked)  # every cell crowd-kit reports
    np.testing.assert_allclose(joined["probability"], joined["theirs"], rtol=1e-9, atol=1e-12)
    # Cells crowd-kit leaves out (labels a rater never gave) are 0 here.
    extra = mine.drop(joined.index)
    assert (extra == 0).all()


def test_groups_are_fitted_on_their_own() -> None:
    data = team()
    whole = kf.rater_confusion(data, by="group")
    alone = kf.rater_confusion(data[data["group"] == "g2"].drop(columns="group"))
    got = whole[whole["group"] == "g2"].drop(columns="group").reset_index(drop=True)
    pd.testing.assert_frame_equal(got, alone, check_dtype=False, rtol=0, atol=1e-12)


def test_options_are_checked_first() -> None:
    with pytest.raises(kf.KappaFrameError) as err:
        kf.rater_confusion(team(), max_iter=0)
    assert err.value.option == "max_iter"
    with pytest.raises(kf.KappaFrameError, match="by column 'rater'"):
        kf.rater_confusion(team().rename(columns={"group": "rater"}), by="rater")

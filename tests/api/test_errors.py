"""Bad input: a clear error naming what is wrong, and the caller's frame left as it was."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

from ..conftest import to_pandas

BASE = {
    "project": ["p", "p", "q", "q"],
    "ann1": [1, 2, 1, 2],
    "ann2": [1, 2, 2, 2],
    "ann3": [2, 2, 1, 1],
}


def test_unknown_column_names_close_matches(constructor: Any) -> None:
    frame = constructor(BASE)
    with pytest.raises(kf.KappaFrameError, match=r"'anm1' \(did you mean 'ann1'") as err:
        frame.kappa.pairwise(["anm1", "ann2"])
    assert "The frame has" in str(err.value)
    with pytest.raises(kf.KappaFrameError, match="by column not found: 'projct'"):
        frame.kappa.pairwise(by="projct")


def test_fewer_than_two_raters(constructor: Any) -> None:
    with pytest.raises(kf.KappaFrameError, match=r"at least 2 raters; got 1: \['ann1'\]"):
        constructor(BASE).kappa.pairwise(["ann1"])
    with pytest.raises(kf.KappaFrameError, match="at least 2 raters; got 1"):
        constructor({"g": [1, 2], "a": [1, 2]}).kappa.pairwise(by="g")


def test_by_naming_a_rater(constructor: Any) -> None:
    with pytest.raises(kf.KappaFrameError, match="'ann1' is both a rater and a by column"):
        constructor(BASE).kappa.pairwise(["ann1", "ann2"], by="ann1")


def test_rater_listed_twice(constructor: Any) -> None:
    with pytest.raises(kf.KappaFrameError, match="'ann1' is listed twice"):
        constructor(BASE).kappa.pairwise(["ann1", "ann1"])


@pytest.mark.parametrize("weights", ["linaer", "Quadratic", 3])
def test_unknown_weights(constructor: Any, weights: Any) -> None:
    with pytest.raises(kf.KappaFrameError, match="weights"):
        constructor(BASE).kappa.pairwise(["ann1", "ann2"], weights=weights)


def test_unknown_weights_lists_choices() -> None:
    with pytest.raises(kf.KappaFrameError, match=r"one of None, 'linear', 'quadratic'.*'linaer'"):
        pd.DataFrame(BASE).kappa.pairwise(["ann1", "ann2"], weights="linaer")


def test_weight_matrix_shape_and_diagonal(constructor: Any) -> None:
    frame = constructor(BASE)
    # The shape needs the categories: a LazyFrame's plan says so at collect.
    with pytest.raises(kf.KappaFrameError, match=r"shape \(3, 3\), but there are 2 categories"):
        to_pandas(frame.kappa.pairwise(["ann1", "ann2"], weights=np.ones((3, 3)) - np.eye(3)))
    # The values need no data: refused at the call, on every input.
    with pytest.raises(kf.KappaFrameError, match="zero diagonal"):
        frame.kappa.pairwise(["ann1", "ann2"], weights=np.ones((2, 2)))
    with pytest.raises(kf.KappaFrameError, match="negative"):
        frame.kappa.pairwise(["ann1", "ann2"], weights=[[0, -1], [-1, 0]])
    # Asymmetric weights have an orientation in a pair (rows: rater_a); among many raters
    # every coefficient reads their symmetric part; the rater summary refuses them.
    frame.kappa.pairwise(["ann1", "ann2"], weights=[[0, 1], [2, 0]])
    asym = to_pandas(frame.kappa.overall(["ann1", "ann2"], weights=[[0, 1], [2, 0]]))
    sym = to_pandas(frame.kappa.overall(["ann1", "ann2"], weights=[[0, 1.5], [1.5, 0]]))
    assert asym["value"].tolist() == pytest.approx(sym["value"].tolist(), rel=1e-12)
    with pytest.raises(kf.KappaFrameError, match="symmetric weights matrix"):
        to_pandas(frame.kappa.raters(["ann1", "ann2"], weights=[[0, 1], [2, 0]]))


def test_label_not_in_categories(constructor: Any) -> None:
    with pytest.raises(kf.KappaFrameError, match=r"column 'ann1' has label 2, which is not in"):
        to_pandas(constructor(BASE).kappa.pairwise(["ann1", "ann2"], categories=[1, 3]))


def test_incomparable_label_types(constructor: Any) -> None:
    data = {"a": [1, 2, 1], "b": ["1", "2", "2"]}
    with pytest.raises(kf.KappaFrameError, match=r"number in 'a'; string in 'b'") as err:
        to_pandas(constructor(data).kappa.pairwise())  # a LazyFrame's plan: at collect
    assert "astype(str)" in str(err.value)


def test_mixed_types_within_a_column() -> None:
    df = pd.DataFrame({"a": [1, "x", 2], "b": [1, 2, 2]})
    with pytest.raises(kf.KappaFrameError, match="column 'a' mixes label types"):
        df.kappa.pairwise()


def test_duplicate_rating_in_long_layout(constructor: Any) -> None:
    data = {"item": ["i1", "i1", "i2", "i1"], "rater": ["x", "y", "x", "x"], "label": [1, 1, 2, 1]}
    with pytest.raises(kf.KappaFrameError, match=r"rater 'x' rated item 'i1' more than once") as e:
        to_pandas(constructor(data).kappa.pairwise(item="item", rater="rater", label="label"))
    assert "duplicates='first'" in str(e.value)


def test_long_layout_needs_all_three_columns(constructor: Any) -> None:
    data = {"item": [1, 1], "rater": ["x", "y"], "label": [1, 1]}
    with pytest.raises(kf.KappaFrameError, match="label= missing"):
        constructor(data).kappa.pairwise(item="item", rater="rater")


def test_bad_options(constructor: Any) -> None:
    frame = constructor(BASE)
    with pytest.raises(kf.KappaFrameError, match="scale must be one of"):
        frame.kappa.pairwise(["ann1", "ann2"], scale="landis")
    with pytest.raises(kf.KappaFrameError, match="duplicates must be one of"):
        frame.kappa.pairwise(["ann1", "ann2"], duplicates="keep")
    with pytest.raises(kf.KappaFrameError, match="stat must be one of"):
        frame.kappa.matrix(["ann1", "ann2"], stat="kapa")
    with pytest.raises(kf.KappaFrameError, match="between 0 and 1"):
        frame.kappa.pairwise(["ann1", "ann2"], ci=95)


@pytest.mark.parametrize("obj", [np.zeros((3, 2)), [[1, 2], [3, 4]], {"a": [1, 2]}, 3.5])
def test_unsupported_object(obj: Any) -> None:
    from kappaframe._frames.kinds import INPUT_KINDS

    with pytest.raises(TypeError, match=r"expected .*pandas.*polars.*; got ") as err:
        kf.pairwise(obj)
    assert isinstance(err.value, kf.KappaFrameError)
    # The message lists every kind of input there is, from the one registry.
    assert all(kind.name in str(err.value) for kind in INPUT_KINDS)


def test_cohen_kappa_input_errors() -> None:
    with pytest.raises(kf.KappaFrameError, match="same length; got 3 and 2"):
        kf.cohen_kappa([1, 2, 3], [1, 2])
    with pytest.raises(kf.KappaFrameError, match="1-D"):
        kf.cohen_kappa(np.zeros((2, 2)), np.zeros((2, 2)))
    with pytest.raises(kf.KappaFrameError, match="not in labels="):
        kf.cohen_kappa([1, 2], [1, 3], labels=[1, 2])


def test_duplicate_column_names() -> None:
    df = pd.DataFrame([[1, 2, 1], [2, 2, 1]], columns=["a", "a", "b"])
    with pytest.raises(kf.KappaFrameError, match="'a' appears 2 times"):
        df.kappa.pairwise(["a", "b"])


def test_errors_leave_the_frame_alone(constructor: Any) -> None:
    frame = constructor(BASE)
    before = to_pandas(frame).copy(deep=True)
    with pytest.raises(kf.KappaFrameError):
        to_pandas(frame.kappa.pairwise(["ann1", "ann2"], categories=[1]))
    pd.testing.assert_frame_equal(before, to_pandas(frame))


def test_quiet_undefined_is_per_thread() -> None:
    """Planning a lazy result on no rows says nothing, without silencing other threads."""
    import threading

    import numpy as np

    from kappaframe._errors import quiet_undefined, warn_undefined

    inside, leave = threading.Event(), threading.Event()

    def planner() -> None:
        with quiet_undefined():
            warn_undefined(np.array([True]), np.array([0]))  # silent here
            inside.set()
            leave.wait(5)

    thread = threading.Thread(target=planner)
    thread.start()
    try:
        assert inside.wait(5)
        with pytest.warns(kf.UndefinedKappaWarning, match="1 with no item rated by both"):
            warn_undefined(np.array([True]), np.array([0]))  # this thread still warns
    finally:
        leave.set()
        thread.join()

"""``res.kappa`` is the accessor, not the column: used as the column, it says ``res["kappa"]``."""

from __future__ import annotations

import operator
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import KappaFrameError

RATINGS = {"a": [1, 2, 1, 2, 1], "b": [1, 2, 2, 2, 1], "c": [2, 2, 1, 2, 1]}

#: What a new user writes on a result, expecting the ``kappa`` column.
AS_A_COLUMN: dict[str, Callable[[Any], Any]] = {
    "res.kappa.mean()": lambda k: k.mean(),
    "res.kappa > 0.6": lambda k: k > 0.6,
    "res.kappa >= 0.6": lambda k: k >= 0.6,
    "res.kappa < 0.6": lambda k: k < 0.6,
    "res.kappa == 1": lambda k: k == 1,
    "res.kappa != 1": lambda k: k != 1,
    "res.kappa + 1": lambda k: k + 1,
    "1 - res.kappa": lambda k: 1 - k,
    "res.kappa * 2": lambda k: k * 2,
    "res.kappa / 2": lambda k: k / 2,
    "-res.kappa": operator.neg,
    "abs(res.kappa)": abs,
    "round(res.kappa, 2)": lambda k: round(k, 2),
    "np.asarray(res.kappa)": np.asarray,
    "len(res.kappa)": len,
    "list(res.kappa)": list,
    "bool(res.kappa)": bool,
    "res.kappa[0]": lambda k: k[0],
    "float(res.kappa)": float,
    "0.5 in res.kappa": lambda k: 0.5 in k,
}


@pytest.mark.parametrize("use", list(AS_A_COLUMN))
def test_the_accessor_used_as_the_column_names_the_column(
    use: str, constructor: Callable[[dict[str, Any]], Any]
) -> None:
    res = kf.pairwise(constructor(RATINGS))
    with pytest.raises(KappaFrameError) as caught:
        AS_A_COLUMN[use](res.kappa)
    message = str(caught.value)
    lazy = type(res).__name__ == "LazyFrame"
    assert ('pl.col("kappa")' if lazy else 'res["kappa"]') in message
    assert "res.kappa is kappaframe's accessor" in message
    # What Python expects of each: an attribute error for an attribute, a type error else.
    expected = AttributeError if use.startswith("res.kappa.mean") else TypeError
    assert isinstance(caught.value, expected)


def test_the_message_says_what_to_write_instead() -> None:
    res = kf.pairwise(pd.DataFrame(RATINGS))
    with pytest.raises(AttributeError, match=r'write res\["kappa"\]\.mean\.$'):
        res.kappa.mean()
    with pytest.raises(TypeError, match=r'write res\["kappa"\] > 0\.6\.$'):
        res[res.kappa > 0.6]
    with pytest.raises(TypeError, match=r'write 1 - res\["kappa"\]\.$'):
        1 - res.kappa
    # What the message says works.
    assert res[res["kappa"] > 0.6]["kappa"].tolist() == [k for k in res["kappa"] if k > 0.6]


def test_hasattr_and_getattr_with_a_default_still_work() -> None:
    res = kf.pairwise(pd.DataFrame(RATINGS))
    assert not hasattr(res.kappa, "mean")
    assert getattr(res.kappa, "values", "none") == "none"
    assert not hasattr(res.kappa, "_repr_html_")  # notebooks probe private names
    assert hasattr(res.kappa, "pairwise")


def test_the_accessors_methods_work_on_a_frame_with_a_kappa_column(
    constructor: Callable[[dict[str, Any]], Any],
) -> None:
    frame = constructor({**RATINGS, "kappa": [1, 1, 2, 2, 1]})  # a rater named kappa
    got = frame.kappa.pairwise(["a", "kappa"], ci=0.95)
    want = kf.pairwise(frame, ["a", "kappa"], ci=0.95)
    if hasattr(got, "collect"):
        got, want = got.collect(), want.collect()
    assert got.equals(want)
    assert frame.kappa.score("a", "kappa") == kf.score(frame, "a", "kappa")


def test_without_a_kappa_column_the_errors_are_pythons() -> None:
    frame = pd.DataFrame(RATINGS)
    with pytest.raises(AttributeError) as attribute:
        frame.kappa.mean()
    with pytest.raises(TypeError) as compared:
        frame.kappa > 0.6  # noqa: B015
    assert not isinstance(attribute.value, KappaFrameError)
    assert not isinstance(compared.value, KappaFrameError)
    assert "has no attribute 'mean'" in str(attribute.value)
    assert "'>' not supported" in str(compared.value)
    assert bool(frame.kappa) is True
    accessor = frame.kappa
    assert accessor == accessor and hash(accessor) == hash(accessor)


def test_the_error_survives_pickling() -> None:
    res = kf.pairwise(pd.DataFrame(RATINGS))
    with pytest.raises(AttributeError) as caught:
        res.kappa.mean()
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is type(caught.value) and str(again) == str(caught.value)

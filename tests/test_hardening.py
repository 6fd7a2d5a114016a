"""Odd and hostile input through the Python API: wrong numbers refused, nothing lost."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

from .conftest import to_pandas


def test_cohen_kappa_refuses_mixed_label_types_like_pairwise() -> None:
    with pytest.raises(kf.KappaFrameError, match="mixes label types"):
        kf.cohen_kappa([1, 2, "3", 1], [1, "2", 3, 2])
    with pytest.raises(kf.KappaFrameError, match="mixes label types"):
        kf.pairwise(pd.DataFrame({"a": [1, 2, "3", 1], "b": [1, "2", 3, 2]}))
    assert kf.cohen_kappa(["a", "b", "a"], ["a", "b", "b"]) == pytest.approx(0.4)


def test_cohen_kappa_takes_column_vectors_and_refuses_complex_weights() -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    y1 = np.array([[0], [1], [2], [2], [1]])
    y2 = np.array([[0], [1], [2], [1], [1]])
    expected = sklearn_metrics.cohen_kappa_score(y1.ravel(), y2.ravel(), weights="linear")
    assert kf.cohen_kappa(y1, y2, weights="linear") == pytest.approx(expected, abs=1e-12)
    with pytest.raises(kf.KappaFrameError, match="complex"):
        kf.cohen_kappa([1, 2], [1, 2], sample_weight=[1 + 1j, 1.0])


def test_unordered_categorical_groups_sort_by_value_on_every_backend(constructor: Any) -> None:
    keys = pd.Categorical(["z", "a", "m", "z", "a", "m"], categories=["m", "z", "a"])
    data = {"g": keys, "x": [1, 2, 1, 2, 1, 2], "y": [1, 2, 2, 2, 1, 1]}
    got = to_pandas(kf.pairwise(constructor(data), by="g"))
    assert [str(v) for v in got["g"]] == ["a", "m", "z"]
    ordered = pd.DataFrame(data).astype({"g": pd.CategoricalDtype(["m", "z", "a"], ordered=True)})
    assert [str(v) for v in kf.pairwise(ordered, by="g")["g"]] == ["m", "z", "a"]


def test_counts_refuse_self_cells_that_contradict_the_pair_cells() -> None:
    cells = pd.DataFrame(
        {
            "rater_a": ["a", "a", "b"],
            "rater_b": ["a", "b", "b"],
            "label_a": ["x", "x", "x"],
            "label_b": ["x", "x", "x"],
            "count": [2, 100, 100],  # a labeled 2 items, yet shares 100 with b
        }
    )
    with pytest.raises(kf.KappaFrameError, match="contradict"):
        kf.Counts.from_frame(cells)
    fine = cells.assign(count=[100, 100, 100])
    with pytest.warns(kf.UndefinedKappaWarning):  # one shared category: kappa undefined
        assert int(kf.Counts.from_frame(fine).pairwise()["n"].iloc[0]) == 100


def test_pictures_draw_names_as_plain_text() -> None:
    pytest.importorskip("matplotlib")
    import io

    names = {r"$\frac{": [1, 2, 1, 2], "b$x$": [1, 2, 2, 2]}  # invalid and valid math
    df = pd.DataFrame(names)
    for fig in (kf.heatmap(df), kf.confusion_plot(df, r"$\frac{", "b$x$")):
        fig.savefig(io.BytesIO(), format="svg")  # invalid math would raise while drawing
        texts = [t.get_text() for ax in fig.axes for t in ax.texts + ax.get_xticklabels()]
        texts += [ax.get_title() for ax in fig.axes]
        assert any(r"$\frac{" in s for s in texts)
        assert all(not t.get_parse_math() for ax in fig.axes for t in ax.get_xticklabels())

"""threshold_sweep: every threshold checked against scikit-learn, on every backend."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, cohen_kappa_score, confusion_matrix

import kappaframe as kf

from ..conftest import native_type_matches, to_pandas

COUNTS = ["tn", "fp", "fn", "tp"]


def scored(rng: np.random.Generator, n: int = 400) -> dict[str, Any]:
    truth = rng.random(n) < 0.4
    score = np.round(np.clip(0.5 * truth + rng.normal(0.3, 0.25, n), 0, 1), 2)  # ties
    return {
        "slice": rng.choice(["mobile", "desktop", "tablet"], n),
        "truth": truth,
        "score": score,
    }


def check_against_sklearn(rows: pd.DataFrame, truth: np.ndarray, score: np.ndarray) -> None:
    for row in rows.itertuples(index=False):
        predicted = score >= row.threshold
        expected = cohen_kappa_score(truth, predicted, labels=[False, True])
        assert row.kappa == pytest.approx(expected, abs=1e-12)
        assert row.accuracy == pytest.approx(accuracy_score(truth, predicted), abs=1e-12)
        cm = confusion_matrix(truth, predicted, labels=[False, True]).ravel().tolist()
        assert [row.tn, row.fp, row.fn, row.tp] == cm


def test_every_distinct_score_matches_sklearn(rng: np.random.Generator) -> None:
    data = scored(rng)
    sweep = kf.threshold_sweep(data["truth"], data["score"])
    assert list(sweep.columns) == [
        "threshold",
        "n",
        "tn",
        "fp",
        "fn",
        "tp",
        "accuracy",
        "p_e",
        "kappa",
        "best",
    ]
    assert sweep["threshold"].tolist() == sorted(set(data["score"].tolist()))
    assert (sweep["n"] == len(data["truth"])).all()
    check_against_sklearn(sweep, data["truth"], data["score"])
    assert sweep["best"].sum() == 1
    assert sweep.loc[sweep["best"], "kappa"].item() == sweep["kappa"].max()


def test_given_thresholds_any_order(rng: np.random.Generator) -> None:
    data = scored(rng)
    grid = [0.9, -1.0, 0.5, 0.25, 2.0, 0.5]
    sweep = kf.threshold_sweep(data["truth"], data["score"], grid)
    assert sweep["threshold"].tolist() == [-1.0, 0.25, 0.5, 0.9, 2.0]
    # Below every score: all positive; above every score: all negative (kappa 0).
    first, last = sweep.iloc[0], sweep.iloc[-1]
    assert first["fn"] == first["tn"] == 0
    assert last["tp"] == last["fp"] == 0
    assert last["kappa"] == 0.0
    check_against_sklearn(sweep, data["truth"], data["score"])


def test_grouped_on_every_backend(constructor: Any, rng: np.random.Generator) -> None:
    data = scored(rng)
    frame = constructor(data)
    res = frame.kappa.threshold_sweep("truth", "score", by="slice")
    assert native_type_matches(res, frame)
    out = to_pandas(res)
    assert list(out.columns)[:2] == ["slice", "threshold"]
    assert out["slice"].tolist() == sorted(out["slice"])
    df = pd.DataFrame(data)
    for name, part in out.groupby("slice"):
        sub = df[df["slice"] == name]
        assert part["threshold"].tolist() == sorted(set(sub["score"]))
        check_against_sklearn(part, sub["truth"].to_numpy(), sub["score"].to_numpy())
        assert part["best"].sum() == 1
        assert part.loc[part["best"], "kappa"].item() == part["kappa"].max()


def test_function_equals_accessor_and_backends_agree(rng: np.random.Generator) -> None:
    pl = pytest.importorskip("polars")
    data = scored(rng)
    pdf = pd.DataFrame(data)
    grid = np.linspace(0, 1, 11)
    expected = kf.threshold_sweep("truth", "score", grid, data=pdf, by="slice")
    pd.testing.assert_frame_equal(
        pdf.kappa.threshold_sweep("truth", "score", by="slice", thresholds=grid), expected
    )
    got = pl.from_pandas(pdf).kappa.threshold_sweep("truth", "score", by="slice", thresholds=grid)
    pd.testing.assert_frame_equal(got.to_pandas(), expected, check_dtype=False)


def test_missing_truth_or_score_drops_the_row() -> None:
    df = pd.DataFrame({"truth": [1, 0, 1, None, 0, 1], "score": [0.9, 0.2, np.nan, 0.5, 0.6, 0.7]})
    sweep = df.kappa.threshold_sweep("truth", "score")
    assert (sweep["n"] == 4).all()
    assert sweep["threshold"].tolist() == [0.2, 0.6, 0.7, 0.9]


def test_labels_and_pos_label() -> None:
    truth = ["spam", "ham", "spam", "ham", "ham"]
    score = [0.8, 0.3, 0.6, 0.7, 0.1]
    with pytest.raises(kf.KappaFrameError, match="pos_label"):
        kf.threshold_sweep(truth, score)
    sweep = kf.threshold_sweep(truth, score, [0.65], pos_label="spam")
    assert sweep[COUNTS].iloc[0].tolist() == [2, 1, 1, 1]
    minus = kf.threshold_sweep([-1, 1, 1, -1], [0.1, 0.9, 0.8, 0.2])
    assert minus.loc[minus["best"], "threshold"].item() == 0.8
    assert minus.loc[minus["best"], "kappa"].item() == 1.0
    with pytest.raises(kf.KappaFrameError, match="'maybe' is not a label"):
        kf.threshold_sweep(truth, score, pos_label="maybe")


def test_ordered_categorical_truth_uses_present_labels() -> None:
    cat = pd.Categorical(["no", "yes", "yes", "no"], categories=["no", "maybe", "yes"])
    sweep = kf.threshold_sweep(cat, [0.1, 0.9, 0.6, 0.4], [0.5], pos_label="yes")
    assert sweep["kappa"].item() == 1.0


def test_errors_name_the_problem() -> None:
    with pytest.raises(kf.KappaFrameError, match="must be binary; it has 3 labels"):
        kf.threshold_sweep([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(kf.KappaFrameError, match="same length"):
        kf.threshold_sweep([0, 1, 1], [0.1, 0.2])
    with pytest.raises(kf.KappaFrameTypeError, match="numbers"):
        kf.threshold_sweep([0, 1], ["low", "high"])
    df = pd.DataFrame({"truth": [0, 1], "score": ["low", "high"], "slice": ["a", "b"]})
    with pytest.raises(kf.KappaFrameTypeError, match="score column 'score' must hold numbers"):
        df.kappa.threshold_sweep("truth", "score")
    with pytest.raises(kf.KappaFrameError, match="did you mean 'score'"):
        df.kappa.threshold_sweep("truth", "scores")
    with pytest.raises(kf.KappaFrameError, match="by= needs data="):
        kf.threshold_sweep([0, 1], [0.1, 0.2], by="slice")
    with pytest.raises(kf.KappaFrameError, match="NaN"):
        kf.threshold_sweep([0, 1], [0.1, 0.2], [0.5, np.nan])


def test_single_class_group_warns_once() -> None:
    df = pd.DataFrame(
        {"g": ["a"] * 3 + ["b"] * 3, "truth": [0, 0, 0, 0, 1, 1], "score": [0.1, 0.2, 0.3] * 2}
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sweep = df.kappa.threshold_sweep("truth", "score", by="g", thresholds=[0.0, 0.5])
    assert len(caught) == 1 and issubclass(caught[0].category, kf.UndefinedKappaWarning)
    group_a = sweep[sweep["g"] == "a"]
    # Truth all negative: predicting all positive gives kappa 0; all negative is undefined.
    assert group_a["kappa"].tolist()[0] == 0.0 and np.isnan(group_a["kappa"].tolist()[1])
    assert group_a["best"].tolist() == [True, False]
    assert sweep[sweep["g"] == "b"]["best"].sum() == 1


def test_labeling_team_model_score() -> None:
    team = kf.datasets.labeling_team(seed=0)
    team["acceptable"] = team["gold"] >= "ok"
    sweep = team.kappa.threshold_sweep("acceptable", "model_score", by="project")
    best = sweep[sweep["best"]].set_index("project")
    assert list(best.index) == ["alpha", "beta", "gamma"]
    for project, row in best.iterrows():
        sub = team[team["project"] == project]
        predicted = sub["model_score"] >= row["threshold"]
        assert row["kappa"] == pytest.approx(
            cohen_kappa_score(sub["acceptable"], predicted), abs=1e-12
        )


def check_by_broadcasting(rows: pd.DataFrame, truth: np.ndarray, score: np.ndarray) -> None:
    """Every threshold at once by brute force: an (items x thresholds) boolean table."""
    predicted = score[:, None] >= rows["threshold"].to_numpy()[None, :]
    tp = (predicted & truth[:, None]).sum(axis=0)
    fp = (predicted & ~truth[:, None]).sum(axis=0)
    fn = truth.sum() - tp
    tn = len(truth) - tp - fp - fn
    n = len(truth)
    p_o = (tp + tn) / n
    p_e = ((tn + fn) * (tn + fp) + (fp + tp) * (fn + tp)) / n**2
    assert rows[COUNTS].to_numpy().T.tolist() == [
        tn.tolist(),
        fp.tolist(),
        fn.tolist(),
        tp.tolist(),
    ]
    np.testing.assert_allclose(rows["kappa"], (p_o - p_e) / (1 - p_e), rtol=0, atol=1e-12)


@pytest.mark.parametrize("n_groups", [3, 60])  # few cells: bincount; many: one sort
def test_both_counting_paths(rng: np.random.Generator, n_groups: int) -> None:
    n = 2000
    df = pd.DataFrame(
        {
            "g": rng.integers(0, n_groups, n),
            "truth": rng.random(n) < 0.3,
            "score": rng.random(n),  # every score distinct: many (group, score) cells
        }
    )
    df.loc[::97, "score"] = np.nan
    for grid in (None, [0.1, 0.5, 0.9, 1.5]):
        sweep = df.kappa.threshold_sweep("truth", "score", by="g", thresholds=grid)
        kept = df.dropna(subset=["score"])
        for g in [0, n_groups // 2, n_groups - 1]:
            sub = kept[kept["g"] == g]
            part = sweep[sweep["g"] == g]
            if grid is None:
                assert part["threshold"].tolist() == sorted(sub["score"])
            check_by_broadcasting(part, sub["truth"].to_numpy(), sub["score"].to_numpy())

"""Bundled data sets: reproducible, documented shapes, and the published numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import datasets

# Landis & Koch (1977), equation (4.6): kappa of the Winnipeg (1) and New Orleans (2)
# patients under their four hierarchical agreement weights (Table 2): exact agreement;
# certain = probable; also possible = doubtful; any neighbouring classes.
_AGREE = [
    np.eye(4),
    np.eye(4) + np.diag([1, 0, 0], 1) + np.diag([1, 0, 0], -1),
    np.eye(4) + np.diag([1, 0, 1], 1) + np.diag([1, 0, 1], -1),
    np.eye(4) + np.eye(4, k=1) + np.eye(4, k=-1),
]
_PUBLISHED = {"Winnipeg": [0.208, 0.328, 0.408, 0.596], "New Orleans": [0.297, 0.332, 0.386, 0.789]}


def test_labeling_team_is_reproducible_and_seeded() -> None:
    a = datasets.labeling_team(seed=3)
    pd.testing.assert_frame_equal(a, datasets.labeling_team(seed=3))
    assert not a.equals(datasets.labeling_team(seed=4))


def test_labeling_team_shape_and_dtypes() -> None:
    team = datasets.labeling_team()
    assert list(team.columns) == ["item", "project", *datasets.TEAM, "gold", "model_score"]
    assert len(team) == 600 and team["item"].is_unique
    assert sorted(team["project"].unique()) == ["alpha", "beta", "gamma"]
    for col in [*datasets.TEAM, "gold"]:
        dtype = team[col].dtype
        assert isinstance(dtype, pd.CategoricalDtype) and dtype.ordered
        assert list(dtype.categories) == list(datasets.GRADES)
    assert team["eli"].isna().mean() == pytest.approx(0.25, abs=0.05)
    assert team["ben"].notna().all()
    assert team["model_score"].between(0, 1).all()


def test_labeling_team_personas() -> None:
    team = datasets.labeling_team(seed=0)
    raters = list(datasets.TEAM)
    # dee passes everything: mostly "good", lowest mean kappa against the others.
    assert (team["dee"] == "good").mean() > 0.8
    m = team.kappa.matrix(raters).to_numpy(copy=True)
    np.fill_diagonal(m, np.nan)
    assert raters[int(np.nanargmin(np.nanmean(m, axis=1)))] == "dee"
    # cai is strict: below gold more often than above.
    cai, gold = team["cai"].cat.codes, team["gold"].cat.codes
    assert (cai < gold).mean() > 0.4 > (cai > gold).mean()
    # ben errs by one grade: quadratic weights help him more than they help eli.
    plain = team.kappa.pairwise(["gold", "ben", "eli"])
    quad = team.kappa.pairwise(["gold", "ben", "eli"], weights="quadratic")
    gain = (quad["kappa"] - plain["kappa"]).to_numpy()
    assert gain[0] > gain[1] > 0
    # Prevalence paradox: in gamma, ana and dee agree often, yet kappa is slight.
    gamma = team[team["project"] == "gamma"]
    pair = gamma.kappa.pairwise(["ana", "dee"]).iloc[0]
    assert pair["p_o"] > 0.7 and pair["kappa"] < 0.2


def test_labeling_team_long_layout_matches_wide() -> None:
    long = datasets.labeling_team(seed=1, layout="long")
    wide = datasets.labeling_team(seed=1)
    assert list(long.columns) == ["item", "project", "annotator", "grade"]
    assert len(long) == int(wide[list(datasets.TEAM)].notna().sum().sum())
    a = long.kappa.pairwise(item="item", rater="annotator", label="grade", by="project")
    b = wide.kappa.pairwise(list(datasets.TEAM), by="project")
    pd.testing.assert_frame_equal(a, b)


def test_labeling_team_bad_arguments() -> None:
    with pytest.raises(kf.KappaFrameError, match="layout must be one of"):
        datasets.labeling_team(layout="tall")  # type: ignore[arg-type]
    with pytest.raises(kf.KappaFrameError, match="n_items"):
        datasets.labeling_team(n_items=2)


def test_multiple_sclerosis_table() -> None:
    ms = datasets.multiple_sclerosis()
    assert len(ms) == 218
    assert ms["patients"].value_counts().to_dict() == {"Winnipeg": 149, "New Orleans": 69}
    table = kf.confusion(ms[ms["patients"] == "Winnipeg"], "new_orleans", "winnipeg")
    assert table.to_numpy().tolist() == [
        [38, 5, 0, 1],
        [33, 11, 3, 0],
        [10, 14, 5, 6],
        [3, 7, 3, 10],
    ]
    assert list(table.columns) == list(datasets.MS_CLASSES)


@pytest.mark.parametrize("level", range(4))
def test_multiple_sclerosis_published_kappas(level: int) -> None:
    ms = datasets.multiple_sclerosis()
    weights = 1.0 - _AGREE[level]  # agreement weights -> disagreement weights
    res = ms.kappa.pairwise(["new_orleans", "winnipeg"], by="patients", weights=weights)
    got = dict(zip(res["patients"], res["kappa"], strict=True))
    for sample, values in _PUBLISHED.items():
        assert round(float(got[sample]), 3) == values[level]

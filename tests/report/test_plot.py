"""Pictures: heatmap and confusion plot render to PNG and show the right numbers."""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import datasets

pytest.importorskip("matplotlib")

RATERS = list(datasets.TEAM)


def png_bytes(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=60)
    return buffer.getvalue()


def cell_texts(ax: Any) -> list[str]:
    return [t.get_text() for t in ax.texts]


def test_heatmap_one_panel_per_group(constructor: Any) -> None:
    team = datasets.labeling_team(seed=0)
    data = {c: team[c].astype(object).where(team[c].notna(), None).tolist() for c in RATERS}
    data["project"] = team["project"].tolist()
    fig = constructor(data).kappa.heatmap(RATERS, by="project", categories=list(datasets.GRADES))
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in panels] == [
        "project = alpha",
        "project = beta",
        "project = gamma",
    ]
    expected = team.kappa.matrix(RATERS, by="project")
    off_diagonal = ~np.eye(len(RATERS), dtype=bool)
    for ax, project in zip(panels, ["alpha", "beta", "gamma"], strict=True):
        values = expected.loc[project].to_numpy()
        assert cell_texts(ax) == [f"{v:.2f}" for v in values[off_diagonal]]
        assert [t.get_text() for t in ax.get_xticklabels()] == RATERS
    assert png_bytes(fig).startswith(b"\x89PNG")


def luminance(rgba: Any) -> float:
    r, g, b = rgba[:3]
    return float(0.2126 * r + 0.7152 * g + 0.0722 * b)


def colour_bars(fig: Any) -> list[Any]:
    return [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]


def test_heatmap_low_agreement_is_the_loudest_colour() -> None:
    fig = kf.heatmap(datasets.labeling_team(seed=0), RATERS)
    image = fig.axes[0].images[0]
    assert (image.norm.vmin, image.norm.vmax) == (0.0, 1.0)
    cmap, norm = image.get_cmap(), image.norm
    # Low kappa is dark (saturated red), high kappa pale; below 0 has its own colour.
    assert luminance(cmap(norm(0.05))) < 0.25 < 0.85 < luminance(cmap(norm(0.95)))
    red, green, blue, _ = cmap(norm(0.1))
    assert red > 2 * green and red > 2 * blue
    assert cmap(norm(-0.3)) != cmap(norm(0.0))
    assert colour_bars(fig)[0].get_ylabel() == "Cohen's kappa (unweighted)"


def test_heatmap_masks_the_diagonal() -> None:
    fig = kf.heatmap(datasets.labeling_team(seed=0), RATERS, weights="linear")
    ax = fig.axes[0]
    values = ax.images[0].get_array()
    k = len(RATERS)
    assert np.ma.getmaskarray(values)[np.diag_indices(k)].all()
    assert not np.ma.getmaskarray(values)[~np.eye(k, dtype=bool)].any()
    assert "1.00" not in cell_texts(ax) and len(cell_texts(ax)) == k * (k - 1)
    hatched = [p for p in ax.patches if p.get_label() == "diagonal"]
    assert len(hatched) == k and all(p.get_hatch() for p in hatched)
    # The count matrix keeps its diagonal: the items each rater labelled.
    counts = kf.heatmap(datasets.labeling_team(seed=0), RATERS, stat="n")
    assert not np.ma.getmaskarray(counts.axes[0].images[0].get_array()).any()


def test_heatmap_one_colour_bar_named_with_its_weighting_and_titles() -> None:
    team = datasets.labeling_team(seed=0)
    grades = list(datasets.GRADES)
    fig = kf.heatmap(team, RATERS, by="project", weights="linear", categories=grades)
    bars = colour_bars(fig)
    assert len(bars) == 1
    assert bars[0].get_ylabel() == "linear-weighted kappa"
    quadratic = kf.heatmap(team, RATERS, weights="quadratic", categories=grades)
    assert colour_bars(quadratic)[0].get_ylabel() == "quadratic-weighted kappa"
    assert quadratic.axes[0].get_title() == "all items"
    p_o = kf.heatmap(team, RATERS, stat="p_o", weights="linear", categories=grades)
    assert colour_bars(p_o)[0].get_ylabel() == "observed agreement (linear-weighted)"


def test_heatmap_marks_the_fail_under_bar() -> None:
    team = datasets.labeling_team(seed=0)
    fig = kf.heatmap(team, RATERS, by="project", fail_under=0.2)
    expected = team.kappa.matrix(RATERS, by="project")
    off_diagonal = ~np.eye(len(RATERS), dtype=bool)
    panels = [ax for ax in fig.axes if ax.get_title()]
    for ax, project in zip(panels, ["alpha", "beta", "gamma"], strict=True):
        below = (expected.loc[project].to_numpy() < 0.2) & off_diagonal
        outlined = [p for p in ax.patches if p.get_label() == "below fail_under"]
        assert len(outlined) == int(below.sum()) > 0
        centres = sorted((round(p.get_y() + 0.45), round(p.get_x() + 0.45)) for p in outlined)
        assert centres == sorted(zip(*np.nonzero(below), strict=True))
    bar = colour_bars(fig)[0]
    assert bar.get_ylabel() == "Cohen's kappa (unweighted)\noutlined: below 0.2"
    assert [line.get_ydata()[0] for line in bar.lines] == [0.2]
    plain = kf.heatmap(team, RATERS)
    assert not [p for p in plain.axes[0].patches if p.get_label() == "below fail_under"]
    with pytest.raises(kf.KappaFrameError, match="fail_under must be a number"):
        kf.heatmap(team, RATERS, fail_under="0.2")  # type: ignore[arg-type]


def test_heatmap_counts_and_undefined_cells() -> None:
    df = pd.DataFrame({"a": ["x", "x", "x"], "b": ["x", "x", "x"], "c": ["x", "y", None]})
    with pytest.warns(kf.UndefinedKappaWarning):
        fig = df.kappa.heatmap()
    assert cell_texts(fig.axes[0])[:2] == ["n/a", "0.00"]
    with pytest.warns(kf.UndefinedKappaWarning):
        counts = df.kappa.heatmap(stat="n")
    assert cell_texts(counts.axes[0]) == ["3", "3", "2", "3", "3", "2", "2", "2", "2"]


def test_heatmap_into_given_axes_and_errors() -> None:
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.subplots()
    ms = datasets.multiple_sclerosis()
    assert kf.heatmap(ms, ["new_orleans", "winnipeg"], ax=ax) is fig
    with pytest.raises(kf.KappaFrameError, match="ax= draws one panel, but there are 2 groups"):
        kf.heatmap(ms, ["new_orleans", "winnipeg"], by="patients", ax=ax)
    with pytest.raises(kf.KappaFrameError, match="stat must be one of"):
        kf.heatmap(ms, ["new_orleans", "winnipeg"], stat="alpha")  # type: ignore[arg-type]


def test_confusion_plot_counts_and_title() -> None:
    ms = datasets.multiple_sclerosis()
    winnipeg = ms[ms["patients"] == "Winnipeg"]
    fig = winnipeg.kappa.confusion_plot("new_orleans", "winnipeg")
    ax = fig.axes[0]
    assert ax.get_title() == "new_orleans vs winnipeg: n = 149, kappa = 0.21"
    assert cell_texts(ax)[:4] == ["38", "5", "0", "1"]
    assert ax.get_ylabel() == "new_orleans" and ax.get_xlabel() == "winnipeg"
    assert [t.get_text() for t in ax.get_yticklabels()] == list(datasets.MS_CLASSES)
    shares = kf.confusion_plot(winnipeg, "new_orleans", "winnipeg", normalize=True)
    assert cell_texts(shares.axes[0])[0] == f"{38 / 149:.2f}"
    assert png_bytes(fig).startswith(b"\x89PNG")


def _sklearn_matrix(frame: pd.DataFrame, normalize: Any) -> np.ndarray:
    metrics = pytest.importorskip("sklearn.metrics")
    both = frame.dropna(subset=["new_orleans", "winnipeg"])
    return np.asarray(
        metrics.confusion_matrix(
            both["new_orleans"],
            both["winnipeg"],
            labels=list(datasets.MS_CLASSES),
            normalize=normalize,
        )
    )


@pytest.mark.parametrize("normalize", ["true", "pred", "all", None, True, False])
def test_confusion_plot_normalize_as_sklearn(normalize: Any) -> None:
    winnipeg = datasets.multiple_sclerosis().query("patients == 'Winnipeg'")
    fig = kf.confusion_plot(winnipeg, "new_orleans", "winnipeg", normalize=normalize)
    ax = fig.axes[0]
    drawn = np.asarray(ax.images[0].get_array())
    sk_mode = {True: "all", False: None}.get(normalize, normalize)
    np.testing.assert_allclose(drawn, _sklearn_matrix(winnipeg, sk_mode), atol=1e-12)
    counts = _sklearn_matrix(winnipeg, None)
    expected = [
        (f"{int(c)}" if sk_mode is None else ("<0.01" if v < 0.005 else f"{v:.2f}"))
        for c, v in zip(counts.ravel(), drawn.ravel(), strict=True)
        if sk_mode is None or c > 0
    ]
    assert cell_texts(ax) == expected
    if sk_mode == "true":
        np.testing.assert_allclose(drawn.sum(axis=1)[counts.sum(axis=1) > 0], 1.0)
        assert colour_bars(fig)[0].get_ylabel() == "share of the row (each row sums to 1)"
    if sk_mode == "pred":
        np.testing.assert_allclose(drawn.sum(axis=0)[counts.sum(axis=0) > 0], 1.0)


def test_confusion_plot_leaves_empty_cells_blank() -> None:
    df = pd.DataFrame({"a": ["x", "x", "y", "y"], "b": ["x", "x", "y", "x"]})
    for normalize in ("true", "pred", "all"):
        fig = kf.confusion_plot(df, "a", "b", normalize=normalize)
        assert "0.00" not in cell_texts(fig.axes[0])
        assert len(cell_texts(fig.axes[0])) == 3  # the empty (x, y) cell has no text
    with pytest.raises(kf.KappaFrameError, match="normalize must be one of"):
        kf.confusion_plot(df, "a", "b", normalize="rows")  # type: ignore[arg-type]


def test_confusion_plot_title_uses_the_weighting() -> None:
    team = datasets.labeling_team(seed=0).query("project == 'gamma'")
    grades = list(datasets.GRADES)
    fig = kf.confusion_plot(team, "dee", "eli", weights="linear", categories=grades)
    expected = kf.score(team, "dee", "eli", weights="linear", categories=grades)
    assert fig.axes[0].get_title() == (
        f"dee vs eli: n = 150, linear-weighted kappa = {expected:.2f}"
    )


def test_pyplot_state_untouched() -> None:
    code = (
        "import kappaframe as kf, sys\n"
        "fig = kf.heatmap(kf.datasets.labeling_team(), list(kf.datasets.TEAM))\n"
        "print('matplotlib.pyplot' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_missing_matplotlib_names_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['matplotlib'] = None\n"
        "import kappaframe as kf\n"
        "try:\n"
        "    kf.heatmap(kf.datasets.labeling_team(), list(kf.datasets.TEAM))\n"
        "except ModuleNotFoundError as err:\n"
        "    print(err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install "kappaframe[plot]"' in out.stdout


def test_plots_leave_the_frame_alone() -> None:
    team = datasets.labeling_team(seed=0)
    before = team.copy()
    kf.heatmap(team, RATERS, by="project")
    kf.confusion_plot(team, "ana", "dee")
    pd.testing.assert_frame_equal(team, before)
    assert np.isfinite(team["model_score"]).all()

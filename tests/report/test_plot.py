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


def test_heatmap_draws_kappa_on_the_one_scale() -> None:
    from matplotlib.colors import to_hex

    from kappaframe._report import colours

    team = datasets.labeling_team(seed=0)
    fig = kf.heatmap(team, RATERS)
    image = fig.axes[0].images[0]
    cmap, norm = image.get_cmap(), image.norm
    assert (norm.vmin, norm.vmax) == (-1.0, 1.0)  # centred on 0, chance
    # The colours of the notebook tables and the HTML report, value for value.
    for v in (-0.9, -0.26, -0.003, 0.0, 0.2, 0.5, 0.95):
        assert to_hex(cmap(norm(v))) == colours.colour(v)
    # Each cell's number is written in the colour that reads on the cell's colour.
    values = team.kappa.matrix(RATERS).to_numpy()
    off = ~np.eye(len(RATERS), dtype=bool)
    for text, v in zip(fig.axes[0].texts, values[off], strict=True):
        assert text.get_color() == colours.text_colour(colours.colour(v) or "")
    assert colour_bars(fig)[0].get_ylabel() == "Cohen's kappa (unweighted)"


def test_colour_bar_marks_the_bands() -> None:
    team = datasets.labeling_team(seed=0)
    bar = colour_bars(kf.heatmap(team, RATERS))[0]
    assert list(bar.get_yticks()) == [-1.0, 0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    names = [t.get_text() for t in bar.yaxis.get_minorticklabels()]
    assert names == ["poor", "slight", "fair", "moderate", "substantial", "almost perfect"]
    assert list(bar.yaxis.get_minorticklocs()) == pytest.approx([-0.5, 0.1, 0.3, 0.5, 0.7, 0.9])
    edges = sorted(line.get_ydata()[0] for line in bar.lines)
    assert edges == pytest.approx([0.0, 0.2, 0.4, 0.6, 0.8])  # a line between bands
    fleiss = colour_bars(kf.heatmap(team, RATERS, scale="fleiss"))[0]
    assert [t.get_text() for t in fleiss.yaxis.get_minorticklabels()] == [
        "poor",
        "fair to good",
        "excellent",
    ]
    none = colour_bars(kf.heatmap(team, RATERS, scale=None))[0]
    assert not [t.get_text() for t in none.yaxis.get_minorticklabels() if t.get_text()]
    with pytest.raises(kf.KappaFrameError, match="scale must be one of"):
        kf.heatmap(team, RATERS, scale="landis")  # type: ignore[arg-type]


def test_heatmap_masks_the_diagonal() -> None:
    from kappaframe._report import colours

    fig = kf.heatmap(datasets.labeling_team(seed=0), RATERS, weights="linear")
    ax = fig.axes[0]
    values = ax.images[0].get_array()
    k = len(RATERS)
    assert np.ma.getmaskarray(values)[np.diag_indices(k)].all()
    assert not np.ma.getmaskarray(values)[~np.eye(k, dtype=bool)].any()
    assert "1.00" not in cell_texts(ax) and len(cell_texts(ax)) == k * (k - 1)
    hatched = [p for p in ax.patches if p.get_label() == "diagonal"]
    assert len(hatched) == k and all(p.get_hatch() for p in hatched)
    # Muted: the diagonal is paler than every cell drawn (never the darkest thing).
    cmap, norm = ax.images[0].get_cmap(), ax.images[0].norm
    drawn = [luminance(cmap(norm(v))) for v in values.compressed()]
    assert all(luminance(p.get_facecolor()) > max(drawn) for p in hatched)
    assert colours.DIAGONAL == "#f4f4f4"
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


def outlined_cells(ax: Any) -> list[tuple[int, int]]:
    boxes = [p for p in ax.patches if p.get_label() == "below fail_under"]
    return sorted((round(p.get_y() + 0.45), round(p.get_x() + 0.45)) for p in boxes)


def test_heatmap_marks_the_fail_under_bar() -> None:
    team = datasets.labeling_team(seed=0)
    fig = kf.heatmap(team, RATERS, by="project", fail_under=0.2)
    expected = team.kappa.matrix(RATERS, by="project")
    off_diagonal = ~np.eye(len(RATERS), dtype=bool)
    panels = [ax for ax in fig.axes if ax.get_title()]
    for ax, project in zip(panels, ["alpha", "beta", "gamma"], strict=True):
        below = (expected.loc[project].to_numpy() < 0.2) & off_diagonal
        assert len(outlined_cells(ax)) == int(below.sum()) > 0
        assert outlined_cells(ax) == sorted(zip(*np.nonzero(below), strict=True))
    bar = colour_bars(fig)[0]
    assert bar.get_ylabel() == "Cohen's kappa (unweighted)\noutlined: below 0.2"
    assert [line.get_ydata()[0] for line in bar.lines if line.get_linewidth() > 2] == [0.2]
    plain = kf.heatmap(team, RATERS)
    assert not outlined_cells(plain.axes[0])
    with pytest.raises(kf.KappaFrameError, match="fail_under must be a number"):
        kf.heatmap(team, RATERS, fail_under="0.2")  # type: ignore[arg-type]


def test_outline_and_number_agree_at_the_bar() -> None:
    """A value outlined as below the bar reads below it; one not outlined does not."""
    from kappaframe._report.plots import squares_figure

    values = [0.196, 0.204, 0.2, 0.194, 0.19996, 0.3997, 0.5, -0.003]
    k = len(values) + 1
    square = np.full((k, k), 0.9)
    square[1:, 0] = square[0, 1:] = values
    fig = squares_figure(square[None], [f"r{i}" for i in range(k)], [""], fail_under=0.2)
    ax = fig.axes[0]
    texts = {
        (round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts
    }
    outlined = set(outlined_cells(ax))
    for (row, col), text in texts.items():
        assert ((row, col) in outlined) == (float(text) < 0.2), (row, col, text)
    shown = [texts[(i, 0)] for i in range(1, k)]
    assert shown == ["0.196", "0.20", "0.20", "0.19", "0.19996", "0.40", "0.50", "-0.00"]
    assert {(1, 0), (4, 0), (5, 0), (8, 0)} <= outlined and (2, 0) not in outlined


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


def many_raters(n_raters: int = 14, n_groups: int = 7, seed: int = 1) -> pd.DataFrame:
    """``n_groups`` groups of 120 items, each labelled by ``n_raters`` raters of falling care."""
    rng = np.random.default_rng(seed)
    frames = []
    for g in range(n_groups):
        truth = rng.integers(0, 4, 120)
        data: dict[str, Any] = {"group": [f"group {g}"] * 120}
        for r in range(n_raters):
            guess = rng.random(120) < 0.15 + 0.05 * r
            data[f"rater_{r:02d}"] = np.where(guess, rng.integers(0, 4, 120), truth)
        frames.append(pd.DataFrame(data))
    return pd.concat(frames, ignore_index=True)


def outside(fig: Any) -> float:
    """How far (inches) anything drawn reaches beyond the figure's edges (0 if nothing)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    fig.savefig(io.BytesIO(), format="png", dpi=40)
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    width, height = fig.get_size_inches()
    return float(max(0.0, -box.x0, -box.y0, box.x1 - width, box.y1 - height))


@pytest.mark.parametrize(("n_raters", "n_groups"), [(14, 7), (14, 1), (20, 3), (5, 3)])
def test_heatmap_size_is_capped_and_its_text_readable(n_raters: int, n_groups: int) -> None:
    from kappaframe._report.plots import FIGURE_CAP, MAX_FIGURE

    df = many_raters(n_raters, n_groups)
    raters = [c for c in df if c != "group"]
    fig = kf.heatmap(df, raters, by="group" if n_groups > 1 else None, fail_under=0.3)
    width, height = fig.get_size_inches()
    # 12 wide at most, unless 20 down leaves no room for the values (then up to 20 wide).
    assert width <= FIGURE_CAP + 1e-9 and height <= MAX_FIGURE[1] + 1e-9
    assert width <= MAX_FIGURE[0] + 1e-9 or height < width
    if (n_raters, n_groups) == (14, 7):  # was 12 x 21.9 inches
        assert width > MAX_FIGURE[0] and height / width >= 0.75
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert len(panels) == n_groups
    for ax in panels:
        # Every value written, at 7 points or more (was 9 points in a 28 x 27 inch figure).
        assert len(ax.texts) == n_raters * (n_raters - 1)
        assert min(t.get_fontsize() for t in ax.texts) >= 7
        labels = [t for t in ax.get_xticklabels() if t.get_text()]
        assert len(labels) == n_raters and min(t.get_fontsize() for t in labels) >= 7
        # Each value fits its cell: the cell is at least as wide as the text at its size.
        box = ax.get_window_extent().transformed(fig.dpi_scale_trans.inverted())
        assert box.width / n_raters * 72 >= 0.6 * 5 * ax.texts[0].get_fontsize()
    assert outside(fig) < 0.02  # names, titles and the colour bar's words all inside


def test_a_confusion_matrix_of_many_categories_fits_in_twenty_inches() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(0, 80, 1000)
    b = np.where(rng.random(1000) < 0.5, a, rng.integers(0, 80, 1000))
    fig = kf.confusion_plot(pd.DataFrame({"a": a, "b": b}), "a", "b")
    assert max(fig.get_size_inches()) == pytest.approx(20)  # was 22.6 x 21.8 inches
    assert not fig.axes[0].texts  # 80 cells across: colour only


def test_heatmap_with_many_raters_keeps_colour_only() -> None:
    df = many_raters(40, 1)
    fig = kf.heatmap(df, [c for c in df if c != "group"])
    assert max(fig.get_size_inches()) <= 12
    assert not fig.axes[0].texts  # a value could not be read in a cell this small
    assert outside(fig) < 0.02


def test_heatmap_lower_triangle_and_counts() -> None:
    team = datasets.labeling_team(seed=0)
    k = len(RATERS)
    fig = kf.heatmap(team, RATERS, triangle="lower", show_n=True)
    ax = fig.axes[0]
    values = ax.images[0].get_array()
    upper = np.triu(np.ones((k, k), dtype=bool))
    assert np.ma.getmaskarray(values)[upper].all()
    assert not np.ma.getmaskarray(values)[~upper].any()
    matrix = team.kappa.matrix(RATERS).to_numpy()
    counts = team.kappa.matrix(RATERS, stat="n").to_numpy()
    below = np.tril_indices(k, -1)
    assert cell_texts(ax) == [
        f"{v:.2f}\nn={n}" for v, n in zip(matrix[below], counts[below], strict=True)
    ]
    upper_only = kf.heatmap(team, RATERS, triangle="upper")
    assert len(upper_only.axes[0].texts) == k * (k - 1) // 2
    assert outside(fig) < 0.02
    with pytest.raises(kf.KappaFrameError, match="triangle must be one of"):
        kf.heatmap(team, RATERS, triangle="left")  # type: ignore[arg-type]
    with pytest.raises(kf.KappaFrameError, match="ncols must be a positive integer"):
        kf.heatmap(team, RATERS, ncols=0)
    three = kf.heatmap(team, RATERS, by="project", ncols=1)
    tops = sorted(ax.get_position().y0 for ax in three.axes if ax.get_title())
    assert len(set(np.round(tops, 3))) == 3  # one panel a row, as asked

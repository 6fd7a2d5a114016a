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
    for ax, project in zip(panels, ["alpha", "beta", "gamma"], strict=True):
        values = expected.loc[project].to_numpy()
        assert cell_texts(ax) == [f"{v:.2f}" for v in values.ravel()]
        assert [t.get_text() for t in ax.get_xticklabels()] == RATERS
    assert png_bytes(fig).startswith(b"\x89PNG")


def test_heatmap_colour_scale_is_diverging_and_centred() -> None:
    fig = kf.heatmap(datasets.labeling_team(seed=0), RATERS)
    image = fig.axes[0].images[0]
    assert image.norm.vmin == -1.0 and image.norm.vmax == 1.0 and image.norm.vcenter == 0.0
    assert image.get_cmap().name.startswith("RdBu")
    assert fig.axes[-1].get_ylabel() == "Cohen's kappa"  # the colour bar


def test_heatmap_counts_and_undefined_cells() -> None:
    df = pd.DataFrame({"a": ["x", "x", "x"], "b": ["x", "x", "x"], "c": ["x", "y", None]})
    with pytest.warns(kf.UndefinedKappaWarning):
        fig = df.kappa.heatmap()
    assert cell_texts(fig.axes[0])[:3] == ["n/a", "n/a", "0.00"]
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

"""Notebooks run top to bottom; matrices display as coloured tables, figures as images."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._report import colours
from kappaframe._report.display import matrix_styler

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def small_matrix() -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "a": [1, 1, 2, 2, 1],
            "b": [1, 2, 2, 2, 1],
            "c": [2, 2, 1, 1, 2],
            "d": [1] * 5,
            "e": [1] * 5,
        }
    )
    with pytest.warns(kf.UndefinedKappaWarning):
        return kf.matrix(df)


def test_matrix_is_a_plain_marked_frame() -> None:
    m = small_matrix()
    assert type(m) is pd.DataFrame
    assert m.attrs["kappaframe"] == {"kind": "matrix", "stat": "kappa"}
    plain = pd.DataFrame(m.to_numpy(), index=m.index, columns=m.columns)
    pd.testing.assert_frame_equal(m, plain)  # attrs do not get in the way
    pl = pytest.importorskip("polars")
    res = kf.matrix(pl.DataFrame({"a": [1, 2], "b": [1, 2]}))
    assert isinstance(res, pl.DataFrame)


def test_styler_html() -> None:
    pytest.importorskip("jinja2")
    m = small_matrix()
    page = matrix_styler(m).to_html()
    assert "Cohen&#x27;s kappa" in page or "Cohen's kappa" in page
    red = colours.colour(m.loc["a", "c"])  # a and c always disagree: kappa < 0, red
    assert red is not None and red in page
    assert int(red[1:3], 16) > int(red[5:7], 16)
    assert "n/a" in page  # d and e used one and the same category: undefined
    assert ">-0.92<" in page and ">1.00<" in page


def test_ipython_formatter() -> None:
    pytest.importorskip("IPython")
    pytest.importorskip("matplotlib")
    code = """
import pandas as pd
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
import kappaframe as kf
team = kf.datasets.labeling_team()
m = kf.matrix(team, list(kf.datasets.TEAM))
html = shell.display_formatter.format(m)[0]["text/html"]
other = shell.display_formatter.format(pd.DataFrame({"x": [1]}))[0]["text/html"]
fig = kf.heatmap(team, list(kf.datasets.TEAM))
pairs = shell.display_formatter.format(kf.pairwise(team, ["ana", "ben"], ci=0.95))[0]["text/html"]
print("background-color" in html, "background-color" in other, "<table" in other,
      "image/png" in shell.display_formatter.format(fig)[0],
      "background-color" in pairs and "&lt;0.001" in pairs)
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.split() == ["True", "False", "True", "True", "True"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_saved_notebook_shows_its_outputs(path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(path, as_version=4)
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    assert code_cells and all(c.outputs for c in code_cells)
    assert not any(o.output_type == "error" for c in code_cells for o in c.outputs)


def test_there_are_the_two_notebooks() -> None:
    assert {p.stem for p in NOTEBOOKS} >= {"quickstart", "labeling_team"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    pytest.importorskip("polars")
    pytest.importorskip("sklearn")
    # The kernel imports this checkout even when kappaframe is not installed.
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    )
    nb = copy.deepcopy(nbformat.read(path, as_version=4))
    client = nbclient.NotebookClient(
        nb, kernel_name="python3", timeout=300, resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    styled = [o for o in outputs if "background-color" in o.get("data", {}).get("text/html", "")]
    assert images and styled

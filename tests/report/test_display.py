"""Notebook tables: matrices and tidy results as Stylers on the heatmaps' colour scale."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import datasets
from kappaframe._report import colours
from kappaframe._report.display import (
    kind_of,
    matrix_styler,
    number_text,
    p_value_text,
    result_styler,
    se_note,
    styler,
)

pytest.importorskip("jinja2")

TEAM = list(datasets.TEAM)


def cell_styles(html: str) -> dict[str, str]:
    """The CSS of each styled cell id (``row0_col1``) of a Styler's HTML."""
    out: dict[str, str] = {}
    for selectors, props in re.findall(r"((?:#T_\w+_row\d+_col\d+[, \n]*)+)\{([^}]*)\}", html):
        for cell in re.findall(r"_(row\d+_col\d+)", selectors):
            out[cell] = " ".join(props.split())
    return out


def props(css: str) -> list[str]:
    """CSS declarations, whitespace normalised."""
    return [" ".join(p.split()) for p in css.split(";") if p.strip()]


def cell_texts(html: str) -> dict[str, str]:
    return dict(re.findall(r'<td id="T_\w+_(row\d+_col\d+)"[^>]*>([^<]*)</td>', html))


def test_results_carry_their_kind() -> None:
    team = datasets.labeling_team(seed=0)
    pairs = kf.pairwise(team, TEAM, by="project")
    assert kind_of(pairs) == "pairwise"
    assert kind_of(kf.overall(team, TEAM)) == "overall"
    assert kind_of(kf.raters(team, TEAM)) == "raters"
    assert kind_of(kf.matrix(team, TEAM)) == "matrix"
    assert kind_of(pairs.head(3)) == "pairwise"  # a selection of rows is the same table
    assert kind_of(pairs[["n", "kappa"]]) is None  # not the table any more: shown plainly
    assert kind_of(pd.DataFrame({"kappa": [0.5]})) is None


def test_matrix_diagonal_is_muted() -> None:
    m = kf.matrix(datasets.labeling_team(seed=0), TEAM, by="project")
    html = matrix_styler(m).to_html()
    styles = cell_styles(html)
    texts = cell_texts(html)
    k = len(TEAM)
    for row in range(len(m)):
        for col in range(k):
            cell = f"row{row}_col{col}"
            if TEAM[row % k] == TEAM[col]:
                assert props(styles[cell]) == props(colours.DIAGONAL_CSS)
            else:
                value = m.iloc[row, col]
                assert props(styles[cell]) == props(colours.css(value))
                assert texts[cell] == f"{value:.2f}"
    # The darkest cell is a finding, never the trivial 1.00 of the diagonal.
    darkest = min(
        (c for c, s in styles.items() if "background-color" in s),
        key=lambda c: sum(int(styles[c].split("#")[1][i : i + 2], 16) for i in (0, 2, 4)),
    )
    row, col = map(int, re.findall(r"\d+", darkest))
    assert TEAM[row % k] != TEAM[col]


def test_pairwise_styler_three_decimals_one_coloured_column() -> None:
    res = kf.pairwise(datasets.labeling_team(seed=0), TEAM, ci=0.95)
    html = result_styler(res).to_html()
    styles, texts = cell_styles(html), cell_texts(html)
    kappa_col = list(res.columns).index("kappa")
    coloured = {int(c.split("_col")[1]) for c, s in styles.items() if "background" in s}
    assert coloured == {kappa_col}
    assert len([c for c in styles if c.endswith(f"_col{kappa_col}")]) == len(res)
    for r, row in enumerate(res.itertuples(index=False)):
        assert texts[f"row{r}_col{kappa_col}"] == f"{row.kappa:.3f}"
        p = texts[f"row{r}_col{list(res.columns).index('p_value')}"]
        assert p == ("&lt;0.001" if row.p_value < 0.001 else f"{row.p_value:.3f}")
    assert (res["p_value"] < 0.001).any()
    assert "se0, the standard error under that null" in html  # the caption
    plain = result_styler(kf.pairwise(datasets.labeling_team(seed=0), TEAM)).to_html()
    assert "se0" not in plain and "<caption" not in plain


@pytest.mark.parametrize(("kind", "column"), [("overall", "value"), ("raters", "mean_kappa")])
def test_other_results_colour_one_column(kind: str, column: str) -> None:
    team = datasets.labeling_team(seed=0)
    res = getattr(kf, kind)(team, TEAM, by="project")
    html = styler(res).to_html()
    coloured = {int(c.split("_col")[1]) for c, s in cell_styles(html).items() if "background" in s}
    assert coloured == {list(res.columns).index(column)}
    floats = [c for c in res.columns if pd.api.types.is_float_dtype(res[c])]
    texts = cell_texts(html)
    for c in floats:
        j = list(res.columns).index(c)
        shown = texts["row0_col" + str(j)]
        assert shown == "n/a" or re.fullmatch(r"-?\d+\.\d{3}", shown), (c, shown)


def test_styled_names_are_escaped() -> None:
    df = pd.DataFrame({"<b>x</b>": [1, 2, 1, 2], "y\x1b[31m": [1, 2, 2, 2]})
    for shown in (styler(kf.matrix(df)), styler(kf.pairwise(df))):
        html = shown.to_html()
        assert "<b>x" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
        assert "\x1b" not in html and "\\x1b[31m" in html


def test_numbers_are_written_on_the_side_of_the_bar_they_are_on() -> None:
    assert number_text(0.196, 2) == "0.20"
    assert number_text(0.196, 2, 0.2) == "0.196"
    assert number_text(0.204, 2, 0.2) == "0.20"
    assert number_text(0.2, 2, 0.2) == "0.20"
    assert number_text(0.19996, 2, 0.2) == "0.19996"
    assert number_text(-0.0004, 3, 0.0) == "-0.0004"
    rng = np.random.default_rng(0)
    for value in rng.uniform(0.18, 0.22, 2000):
        for digits in (2, 3):
            text = number_text(float(value), digits, 0.2)
            assert (float(text) < 0.2) == (value < 0.2)
            assert len(text.split(".")[1]) >= digits
    assert p_value_text(0.0004) == "<0.001" and p_value_text(0.0123) == "0.012"
    assert p_value_text(float("nan")) == ""


def test_se_note_only_with_both_p_value_and_interval() -> None:
    team = datasets.labeling_team(seed=0)
    assert se_note(kf.pairwise(team, TEAM, ci=0.95))
    assert se_note(kf.overall(team, TEAM, ci=0.95))
    assert not se_note(kf.pairwise(team, TEAM))
    assert not se_note(kf.pairwise(team, TEAM, ci=0.95)[["kappa", "p_value"]])


def test_tables_are_coloured_without_matplotlib() -> None:
    """The Stylers and the report's tables take their colours from the written-out table."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['matplotlib'] = None\n"
        "import kappaframe as kf\n"
        "from kappaframe._report import colours\n"
        "from kappaframe._report.display import styler\n"
        "team = kf.datasets.labeling_team(seed=0)\n"
        "res = kf.pairwise(team, ['ana', 'ben', 'dee'])\n"
        "html = styler(res).to_html() + styler(kf.matrix(team, ['ana', 'ben'])).to_html()\n"
        "print(all(colours.colour(k) in html for k in res['kappa']), 'matplotlib' in str(\n"
        "    [m for m in sys.modules if m.startswith('matplotlib') and sys.modules[m]]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]

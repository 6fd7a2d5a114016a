"""``describe``: a result in APA sentences, its methods paragraph and table; ``forest_plot``."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

pytest.importorskip("matplotlib")

# 20 items: ana says x on 10 and y on 10, ben agrees on 17 (8 x, 9 y). p_o = .85,
# p_e = .5 * .45 + .5 * .55 = .5, so kappa = .70 ("substantial" on Landis & Koch).
ANA = ["x"] * 10 + ["y"] * 10
BEN = ["x"] * 8 + ["y"] * 2 + ["y"] * 9 + ["x"]
CAI = ["x"] * 9 + ["y"] * 11


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"ana": ANA, "ben": BEN, "cai": CAI})


def _apa(value: float) -> str:
    """Two decimals without a leading zero, written independently of the module."""
    text = f"{value:.2f}"
    return text.replace("0.", ".", 1) if abs(value) < 1 else text


def test_a_pairwise_sentence_without_ci() -> None:
    from sklearn.metrics import cohen_kappa_score

    res = kf.pairwise(_frame(), ["ana", "ben"])
    assert cohen_kappa_score(ANA, BEN) == pytest.approx(0.7)
    assert kf.describe(res).sentences == [
        "Agreement between ana and ben was substantial, κ = .70, n = 20 (Landis & Koch, 1977)."
    ]


def test_a_pairwise_sentence_with_ci_and_its_recorded_level() -> None:
    res = kf.pairwise(_frame(), ["ana", "ben"], ci=0.95)
    low, high = _apa(res["ci_low"].iloc[0]), _apa(res["ci_high"].iloc[0])
    said = kf.describe(res).sentences[0]
    assert said == (
        f"Agreement between ana and ben was substantial, κ = .70, 95% CI [{low}, {high}], "
        "n = 20 (Landis & Koch, 1977)."
    )
    assert "level 0.95, method analytic." in kf.describe(res).methods
    res.attrs["kappaframe"]["ci"] = 0.9  # the level is read from the record
    assert f"90% CI [{low}, {high}]" in kf.describe(res).sentences[0]


def test_weighted_and_grouped_rows_say_so() -> None:
    frame = _frame().assign(site=["s1"] * 10 + ["s2"] * 10)
    res = kf.pairwise(frame, ["ana", "ben"], by="site", weights="linear", min_items=None)
    said = kf.describe(res).sentences
    assert len(said) == 2
    assert said[0].startswith("Agreement between ana and ben (site = s1)")
    assert "κw = " in said[0]


def test_overall_sentences_name_each_coefficient() -> None:
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    res = kf.overall(_frame(), method=["fleiss", "krippendorff", "gwet_ac1"], ci=0.95)
    table, _ = aggregate_raters(_frame().to_numpy())
    fleiss = fleiss_kappa(table)
    assert res["value"].iloc[0] == pytest.approx(fleiss)
    said = kf.describe(res).sentences
    band = res["interpretation"].iloc[0]
    low, high = _apa(res["ci_low"].iloc[0]), _apa(res["ci_high"].iloc[0])
    assert said[0] == (
        f"Agreement among the 3 raters was {band}, Fleiss' κ = {_apa(fleiss)}, "
        f"95% CI [{low}, {high}], n = 20 (Landis & Koch, 1977)."
    )
    assert said[1].split(", ")[1].startswith("\N{GREEK SMALL LETTER ALPHA} = ")
    assert said[2].split(", ")[1].startswith("AC1 = ")


def test_overall_without_ci_has_no_interval() -> None:
    res = kf.overall(_frame(), method="fleiss")
    (said,) = kf.describe(res).sentences
    assert "CI" not in said and said.endswith("n = 20 (Landis & Koch, 1977).")
    assert "No confidence intervals were computed." in kf.describe(res).methods


def test_the_methods_paragraph_reads_the_record() -> None:
    res = kf.pairwise(_frame(), ["ana", "ben"], weights="linear", ci=0.95)
    methods = kf.describe(res).methods
    assert "Cohen's kappa" in methods
    assert "weights: linear; categories: x, y" in methods
    assert "pair-wise deletion" in methods
    assert "level 0.95, method analytic." in methods  # no replicates: no bootstrap
    assert f"Computed with kappaframe {kf.__version__}" in methods
    boot = kf.pairwise(_frame(), ["ana", "ben"], ci=0.9, ci_method="bootstrap", n_boot=200, seed=7)
    assert "level 0.9, method bootstrap, bootstrap replicates 200, seed 7." in (
        kf.describe(boot).methods
    )
    assert "Landis & Koch (1977)" in methods
    assert f"described with kappaframe {kf.__version__}" in methods
    unweighted = kf.describe(kf.pairwise(_frame(), ["ana", "ben"])).methods
    assert "(unweighted; categories: x, y)" in unweighted


def test_a_result_read_back_from_csv_has_nothing_recorded() -> None:
    res = kf.pairwise(_frame(), ci=0.95)
    back = pd.read_csv(io.StringIO(res.to_csv(index=False)))
    described = kf.describe(back)
    assert "weights: not recorded; categories: not recorded" in described.methods
    assert "Interpretation scale: not recorded." in described.methods
    assert described.references == []
    # the band is still the column's, but no scale is named or cited
    assert described.sentences[0].endswith("n = 20.")
    assert len(described.sentences) == 3


def test_polars_results_are_described_alike() -> None:
    pl = pytest.importorskip("polars")
    res = kf.pairwise(pl.from_pandas(_frame()), ["ana", "ben"])
    assert (
        kf.describe(res).sentences == kf.describe(kf.pairwise(_frame(), ["ana", "ben"])).sentences
    )


def test_the_latex_table_goes_through_styler() -> None:
    res = kf.pairwise(_frame(), ci=0.95)
    latex = kf.describe(res).to_latex()
    assert "\\begin{tabular}" in latex and "\\end{tabular}" in latex
    low, high = _apa(res["ci_low"].iloc[0]), _apa(res["ci_high"].iloc[0])
    assert f"ana and ben & .70 & [{low}, {high}] & 20 & substantial" in latex


def test_the_accessor_describes_its_result() -> None:
    res = kf.pairwise(_frame(), ["ana", "ben"])
    assert res.kappa.describe().sentences == kf.describe(res).sentences


def test_not_a_result_is_refused_naming_data() -> None:
    with pytest.raises(kf.KappaFrameError, match="pairwise or overall") as refused:
        kf.describe(_frame())
    assert refused.value.option == "data"
    with pytest.raises(kf.KappaFrameError, match="style"):
        kf.describe(kf.pairwise(_frame()), style="chicago")  # type: ignore[arg-type]


def test_the_forest_plot_draws_one_error_bar_per_row() -> None:
    import matplotlib

    matplotlib.use("Agg")
    res = kf.pairwise(_frame(), ci=0.95)
    fig = kf.forest_plot(res)
    ax = fig.axes[0]
    (bars,) = ax.containers
    line, _caps, (segments,) = bars
    np.testing.assert_allclose(line.get_xdata(), res["kappa"])
    ends = np.array([seg[:, 0] for seg in segments.get_segments()])
    np.testing.assert_allclose(ends, res[["ci_low", "ci_high"]].to_numpy())
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["ana and ben", "ana and cai", "ben and cai"]
    assert len(ax.patches) == len(kf.SCALES["landis_koch"].labels)  # one band each


def test_the_forest_plot_draws_into_the_given_axes_and_caps_its_size() -> None:
    from matplotlib.figure import Figure

    ax = Figure().subplots()
    res = kf.pairwise(_frame())
    assert kf.forest_plot(res, ax=ax, scale=None) is ax.figure
    assert not ax.patches
    many = pd.concat([res] * 100, ignore_index=True)  # 300 rows: 101 inches high uncapped
    width, height = kf.forest_plot(many).get_size_inches()
    assert max(width, height) <= 20.0 and height == pytest.approx(20.0)


def test_too_few_items_and_undefined_intervals_are_said_so_without_a_citation() -> None:
    frame = pd.DataFrame({"a": ["x", "x", "x", "y"], "b": ["x"] * 4, "c": ["x", "y", "x", "y"]})
    with pytest.warns(kf.UndefinedKappaWarning, match="one category only"):
        res = kf.pairwise(frame, ci=0.95)  # 4 items: fewer than min_items
    said = kf.describe(res).sentences
    assert said[0] == (
        "Agreement between a and b (too few items to interpret), κ = .00, 95% CI undefined, n = 4."
    )
    low = _apa(res["ci_low"].iloc[1])
    assert said[1] == (
        "Agreement between a and c (too few items to interpret), κ = .50, "
        f"95% CI [{low}, 1.00], n = 4."
    )

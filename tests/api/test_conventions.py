"""The reference conventions chosen by an option: the same numbers on every way in.

``overall()``'s ``ddof``, ``alpha_centre``, ``z_from``, ``agreement_weights`` and asymmetric
weights, ``layout="table"`` and ``kf.category_counts`` go through pandas, polars (eager and
lazy), the long layout, a CSV file, Dask and the command line, and must give the numbers
of the pandas wide-layout call. Their values against irrCAC's are in ``tests/peers/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe.cli import main as cli_main
from tests.conftest import to_pandas

RATERS = ["r1", "r2", "r3", "r4"]
METHODS = ["fleiss", "conger", "krippendorff", "gwet_ac1", "brennan_prediger", "percent"]
W_ASYM = np.array([[0.0, 1.0, 3.0], [2.0, 0.0, 1.0], [4.0, 2.0, 0.0]])
A = np.array([[1.0, 0.6, 0.2], [0.4, 1.0, 0.6], [0.0, 0.5, 1.0]])


def _ratings() -> pd.DataFrame:
    rng = np.random.default_rng(11)
    n = 90
    latent = rng.integers(1, 4, size=n)
    data: dict[str, Any] = {"group": rng.choice(["a", "b"], size=n)}
    for rater in RATERS:
        labels = np.where(rng.random(n) < 0.7, latent, rng.integers(1, 4, size=n)).astype(float)
        labels[rng.random(n) < 0.15] = np.nan  # items with 1, 2, 3 or 4 labels
        data[rater] = labels
    return pd.DataFrame(data)


DF = _ratings()
CONVENTIONS: dict[str, dict[str, Any]] = {
    "ddof0": {"ddof": 0, "method": METHODS},
    "alpha_p_a": {"alpha_centre": "p_a", "method": ["krippendorff"], "ci_dist": "t"},
    "z_from_se": {"z_from": "se", "method": ["fleiss", "krippendorff"]},
    "agreement_weights": {"agreement_weights": A, "method": [*METHODS[:3], "gwet_ac2"]},
    "asymmetric": {"weights": W_ASYM, "method": [*METHODS[:3], "gwet_ac2", "light"]},
}
COLUMNS = ["p_o", "p_e", "value", "se", "se0", "ci_low", "ci_high", "z", "p_value"]


def _reference(options: dict[str, Any]) -> pd.DataFrame:
    return kf.overall(DF, RATERS, by="group", ci=0.95, **options)


def _same(got: Any, want: pd.DataFrame) -> None:
    got = to_pandas(got)
    assert got["method"].astype(str).tolist() == want["method"].astype(str).tolist()
    for column in COLUMNS:
        np.testing.assert_allclose(
            got[column].to_numpy(float), want[column].to_numpy(float), atol=1e-12, err_msg=column
        )


@pytest.mark.parametrize("name", list(CONVENTIONS))
def test_every_frame(name: str, constructor: Any) -> None:
    options = CONVENTIONS[name]
    got = constructor(DF.to_dict("list")).kappa.overall(RATERS, by="group", ci=0.95, **options)
    _same(got, _reference(options))


@pytest.mark.parametrize("name", list(CONVENTIONS))
def test_long_layout_file_and_dask(name: str, tmp_path: Path) -> None:
    options = CONVENTIONS[name]
    want = _reference(options)
    long = (
        DF.assign(item=range(len(DF)))
        .melt(id_vars=["item", "group"], value_vars=RATERS, var_name="rater", value_name="label")
        .dropna(subset=["label"])
    )
    _same(
        kf.overall(long, item="item", rater="rater", label="label", by="group", ci=0.95, **options),
        want,
    )
    path = tmp_path / "ratings.csv"
    DF.to_csv(path, index=False)
    _same(kf.overall(str(path), RATERS, by="group", ci=0.95, **options), want)
    dd = pytest.importorskip("dask.dataframe")
    ddf = dd.from_pandas(DF, npartitions=3)
    _same(ddf.kappa.overall(RATERS, by="group", ci=0.95, **options).compute(), want)


@pytest.mark.parametrize("name", ["ddof0", "alpha_p_a", "z_from_se"])
def test_command_line(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    options = dict(CONVENTIONS[name])
    methods = options.pop("method")
    path = tmp_path / "ratings.csv"
    DF.to_csv(path, index=False)
    out = tmp_path / "report.csv"
    flags = [f"--{k.replace('_', '-')}" for k in options]
    argv = ["report", str(path), "--raters", *RATERS, "--by", "group", "--ci", "0.95"]
    for flag, value in zip(flags, options.values(), strict=True):
        argv += [flag, str(value)]
    assert cli_main([*argv, "--overall", *methods, "-o", str(out)]) == 0
    got = pd.read_csv(tmp_path / "report.overall.csv")
    _same(got, _reference(CONVENTIONS[name]))


def test_a_two_rater_table_is_the_ratings_it_counts(constructor: Any) -> None:
    table = pd.DataFrame(
        [[13, 0, 2], [1, 20, 7], [0, 4, 56]], index=["x", "y", "z"], columns=["x", "y", "z"]
    )
    rows, cols = np.nonzero(table.to_numpy())
    cells = table.to_numpy()[rows, cols]
    labels = np.array(table.index)
    ratings = pd.DataFrame(
        {"first": np.repeat(labels[rows], cells), "second": np.repeat(labels[cols], cells)}
    )
    methods: Any = [*METHODS, "light"]
    want = kf.overall(ratings, method=methods, ci=0.95, categories=["x", "y", "z"])
    _same(kf.overall(table, layout="table", method=methods, ci=0.95), want)
    _same(kf.overall(table.to_numpy(), layout="table", method=methods, ci=0.95), want)
    polars_table = constructor({"label": list(table.index), **table.to_dict("list")})
    if not isinstance(polars_table, pd.DataFrame):  # polars: first column holds the labels
        _same(kf.overall(polars_table, layout="table", method=methods, ci=0.95), want)
    with pytest.raises(kf.KappaFrameError, match="two-rater table has an order"):
        kf.overall(table, layout="table", weights=W_ASYM)
    with pytest.raises(kf.KappaFrameError, match="whole counts"):
        kf.overall(table / 100, layout="table")
    with pytest.raises(kf.KappaFrameError, match="no by="):
        kf.overall(table, layout="table", by="x")


def test_category_counts_reads_back_to_the_same_numbers(constructor: Any) -> None:
    frame = constructor(DF.to_dict("list"))
    table = to_pandas(kf.category_counts(frame, RATERS, by="group"))
    counts_of = ["1.0", "2.0", "3.0"] if not isinstance(frame, pd.DataFrame) else [1.0, 2.0, 3.0]
    assert list(table.columns) == ["group", "item", *counts_of]
    # Every rating counted once, in its item's row.
    assert int(table[counts_of].to_numpy().sum()) == int(DF[RATERS].notna().to_numpy().sum())
    first = DF.sort_values("group", kind="stable").iloc[0]
    row = table.iloc[0]
    assert row["group"] == first["group"]
    for label, column in zip([1.0, 2.0, 3.0], counts_of, strict=True):
        assert row[column] == int((first[RATERS] == label).sum())
    methods: Any = ["fleiss", "krippendorff", "gwet_ac1", "brennan_prediger", "percent"]
    back = kf.overall(table, layout="counts", item="item", by="group", method=methods, ci=0.95)
    want = kf.overall(DF, RATERS, by="group", method=methods, ci=0.95)
    _same(back, want)


def test_category_counts_of_the_long_layout_keep_the_item_key() -> None:
    long = pd.DataFrame(
        {
            "doc": ["d2", "d2", "d1", "d1", "d1", "d3"],
            "who": ["a", "b", "a", "b", "c", "a"],
            "tag": ["x", "y", "x", "x", "y", "y"],
        }
    )
    table = kf.category_counts(long, item="doc", rater="who", label="tag")
    assert table.to_dict("list") == {"item": ["d1", "d2", "d3"], "x": [2, 1, 0], "y": [1, 1, 1]}
    with pytest.raises(kf.KappaFrameError, match="item key"):
        kf.category_counts(
            long.replace({"tag": {"y": "item"}}), item="doc", rater="who", label="tag"
        )


def test_conventions_are_checked_before_any_data() -> None:
    cases = [
        ({"ddof": 2, "ci": 0.95}, "ddof"),
        ({"ddof": 0}, r"pass ci=0\.95"),
        ({"alpha_centre": "p_a", "ci": 0.95}, "applies to method='krippendorff'"),
        ({"z_from": "se"}, r"pass ci=0\.95"),
        ({"z_from": "null", "ci": 0.95}, "z_from"),
        ({"agreement_weights": A, "weights": "linear"}, "pass one"),
        ({"agreement_weights": 1.0 - A}, "1 on the diagonal"),
        ({"agreement_weights": [1.0, 0.5]}, "K x K matrix"),
        ({"ddof": 0, "ci": 0.95, "method": "light"}, "Light's"),
    ]
    for options, message in cases:
        with pytest.raises(kf.KappaFrameError, match=message):
            kf.overall("no such file.csv", RATERS, **options)


def test_the_command_line_asks_for_overall(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["report", "-", "--z-from", "se"]) == 2
    assert "add --overall METHOD" in capsys.readouterr().err

"""Odd but plausible input: it works like the plain pandas path, or a clear error says why."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
import kappaframe._count.kernel as kernel

from ..conftest import to_pandas

LABELS = {"a": [1, 2, 1, 2, 3, 1], "b": [1, 2, 2, 2, 3, 3], "c": [2, 2, 1, 1, 3, 1]}
NUMBERS = ["n", "p_o", "p_e", "kappa"]


def close(got: pd.DataFrame, expected: pd.DataFrame, columns: list[str]) -> None:
    np.testing.assert_allclose(
        got[columns].to_numpy(dtype=float), expected[columns].to_numpy(dtype=float), atol=1e-12
    )


# --- group keys ----------------------------------------------------------------------------


def test_polars_all_null_group_column_is_one_group() -> None:
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame(LABELS).with_columns(pl.lit(None).alias("g"))
    assert frame.schema["g"] == pl.Null
    got = kf.pairwise(frame, by="g")
    assert got.schema["g"] == pl.Null and got["g"].null_count() == got.height
    expected = kf.pairwise(
        pd.DataFrame({**LABELS, "g": pd.Series([None] * 6, dtype=object)}), by="g"
    )
    assert expected["g"].isna().all()
    close(got.to_pandas(), expected, NUMBERS)
    assert got["rater_a"].to_list() == expected["rater_a"].tolist()
    lazy = kf.pairwise(frame.lazy(), by="g").collect()
    close(lazy.to_pandas(), expected, NUMBERS)


def test_polars_all_null_group_column_with_other_keys() -> None:
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({**LABELS, "h": ["x", "y", "x", "y", "x", "y"]})
    frame = frame.with_columns(pl.lit(None).alias("g"))
    got = kf.pairwise(frame, by=["h", "g"]).to_pandas()
    expected = kf.pairwise(pd.DataFrame({**LABELS, "h": ["x", "y"] * 3}), by="h")
    assert got["h"].tolist() == expected["h"].tolist()
    close(got, expected, NUMBERS)
    sweep = kf.threshold_sweep(
        "t", "s", data=pl.DataFrame({"t": [0, 1, 1], "s": [0.2, 0.8, 0.4], "g": [None] * 3}), by="g"
    )
    plain = kf.threshold_sweep([0, 1, 1], [0.2, 0.8, 0.4])
    close(sweep.to_pandas(), plain, ["threshold", "kappa"])


# --- MultiIndex columns ------------------------------------------------------------------


def _multi() -> tuple[pd.DataFrame, pd.DataFrame]:
    flat = pd.DataFrame(LABELS)
    multi = flat.copy()
    multi.columns = pd.MultiIndex.from_tuples([("a", "x"), ("a", "y"), ("b", "x")])
    return multi, flat


def test_multiindex_columns_are_tuple_rater_names() -> None:
    multi, flat = _multi()
    got = kf.pairwise(multi)
    expected = kf.pairwise(flat)
    assert got["rater_a"].tolist() == [("a", "x"), ("a", "x"), ("a", "y")]
    assert got["rater_b"].tolist() == [("a", "y"), ("b", "x"), ("b", "x")]
    close(got, expected, NUMBERS)
    picked = kf.pairwise(multi, [("a", "x"), ("a", "y")])
    assert picked["rater_a"].tolist() == [("a", "x")]
    assert picked["rater_b"].tolist() == [("a", "y")]
    close(picked, kf.pairwise(flat, ["a", "b"]), NUMBERS)


def test_multiindex_columns_by_and_other_functions() -> None:
    multi, flat = _multi()
    multi[("g", "")] = ["p", "q"] * 3
    flat["g"] = ["p", "q"] * 3
    got = kf.pairwise(multi, by=("g", ""))
    close(got, kf.pairwise(flat, by="g"), NUMBERS)
    assert got[("g", "")].tolist() == ["p", "p", "p", "q", "q", "q"]
    matrix = kf.matrix(multi.drop(columns=[("g", "")]))
    np.testing.assert_allclose(
        matrix.to_numpy(dtype=float), kf.matrix(flat.drop(columns="g")).to_numpy(dtype=float)
    )
    assert list(matrix.index) == [("a", "x"), ("a", "y"), ("b", "x")]
    per_rater = kf.raters(multi.drop(columns=[("g", "")]))
    assert per_rater["rater"].tolist() == [("a", "x"), ("a", "y"), ("b", "x")]


# --- labels that are not scalars --------------------------------------------------------


def test_polars_list_and_struct_labels_are_refused() -> None:
    pl = pytest.importorskip("polars")
    lists = pl.DataFrame({"a": [[1], [2]], "b": [[1], [2]]})
    with pytest.raises(kf.KappaFrameTypeError, match=r"column 'a' has dtype List\(Int64\)") as err:
        kf.pairwise(lists)
    assert "labels must be scalar values" in str(err.value)
    assert "explode" in str(err.value)
    structs = pl.DataFrame({"a": [1, 2], "b": [{"x": 1}, {"x": 2}]})
    with pytest.raises(kf.KappaFrameTypeError, match=r"column 'b' has dtype Struct") as err:
        kf.pairwise(structs)
    assert "pick a field" in str(err.value)
    with pytest.raises(kf.KappaFrameTypeError, match="column 'b'"):
        kf.pairwise(structs.lazy())
    long = pl.DataFrame({"item": [1, 1], "who": ["r", "s"], "label": [[1], [1]]})
    with pytest.raises(kf.KappaFrameTypeError, match="column 'label'"):
        kf.pairwise(long, item="item", rater="who", label="label")


@pytest.mark.parametrize(
    ("values", "kind"), [([[1], [2]], "list"), ([{"x": 1}, {"x": 2}], "dict"), ([{1}, {2}], "set")]
)
def test_pandas_container_labels_are_refused(values: list[Any], kind: str) -> None:
    frame = pd.DataFrame({"a": [1, 2], "b": values})
    with pytest.raises(kf.KappaFrameTypeError, match=f"column 'b' holds {kind} values") as err:
        kf.pairwise(frame)
    assert "labels must be scalar values" in str(err.value)
    assert "explode or pick a field first" in str(err.value)


def test_pandas_arrow_list_labels_are_refused() -> None:
    pa = pytest.importorskip("pyarrow")
    nested = pd.Series([[1], [2]], dtype=pd.ArrowDtype(pa.list_(pa.int64())))
    frame = pd.DataFrame({"a": [1, 2], "b": nested})
    with pytest.raises(kf.KappaFrameTypeError, match=r"column 'b' has dtype list<item: int64>"):
        kf.pairwise(frame)


def test_container_group_keys_are_refused() -> None:
    pl = pytest.importorskip("polars")
    frame = pd.DataFrame({**LABELS, "g": [[1], [2]] * 3})
    with pytest.raises(kf.KappaFrameTypeError, match="column 'g' holds list values"):
        kf.pairwise(frame, by="g")
    with pytest.raises(kf.KappaFrameTypeError, match=r"column 'g' has dtype List"):
        kf.pairwise(pl.DataFrame({**LABELS, "g": [[1], [2]] * 3}), by="g")


def test_tuple_labels_still_work() -> None:
    frame = pd.DataFrame({"a": [(1, 2), (3, 4), (1, 2)], "b": [(1, 2), (3, 4), (3, 4)]})
    got = kf.pairwise(frame)
    expected = kf.pairwise(pd.DataFrame({"a": ["p", "q", "p"], "b": ["p", "q", "q"]}))
    close(got, expected, NUMBERS)


# --- scales, options --------------------------------------------------------------------


def test_custom_scale_with_many_bands() -> None:
    frame = pd.DataFrame(LABELS)
    bounds = np.linspace(-1, 1, 301)
    scale = {float(b): f"band {i}" for i, b in enumerate(bounds)}
    got = kf.pairwise(frame, scale=scale, min_items=None)
    plain = kf.pairwise(frame)
    close(got, plain, NUMBERS)
    for kappa, band in zip(got["kappa"], got["interpretation"], strict=True):
        index = int(np.searchsorted(bounds, kappa, side="right")) - 1
        assert band == f"band {index}"
    assert list(got["interpretation"].cat.categories) == list(scale.values())
    pl = pytest.importorskip("polars")
    in_polars = kf.pairwise(pl.DataFrame(LABELS), scale=scale, min_items=None)
    assert in_polars["interpretation"].to_list() == got["interpretation"].tolist()


@pytest.mark.parametrize("ci", [np.float32(0.9), np.float64(0.9), 0.9])
def test_numpy_scalar_confidence_level(constructor: Any, ci: Any) -> None:
    frame = constructor(LABELS)
    expected = kf.pairwise(pd.DataFrame(LABELS), ci=0.9)
    got = to_pandas(kf.pairwise(frame, ci=ci))
    close(got, expected, [*NUMBERS, "se", "ci_low", "ci_high"])
    overall = to_pandas(kf.overall(frame, ci=ci))
    close(overall, kf.overall(pd.DataFrame(LABELS), ci=0.9), ["ci_low", "ci_high"])


@pytest.mark.parametrize("ci", [True, False, np.bool_(True), 1, np.int64(0), 1.5, "0.9"])
def test_confidence_level_refused(ci: Any) -> None:
    frame = pd.DataFrame(LABELS)
    with pytest.raises(kf.KappaFrameError, match="ci must be a confidence level between 0 and 1"):
        kf.pairwise(frame, ci=ci)
    with pytest.raises(kf.KappaFrameError, match="ci must be a confidence level between 0 and 1"):
        kf.overall(frame, ci=ci)


@pytest.mark.parametrize("n_boot", [10**12, 1_000_001, np.int64(10**9)])
def test_huge_n_boot_is_refused_before_counting(n_boot: Any) -> None:
    frame = pd.DataFrame(LABELS)
    with pytest.raises(kf.KappaFrameError, match=r"at most 1,000,000 replicates"):
        kf.pairwise(frame, ci=0.9, ci_method="bootstrap", n_boot=n_boot)


@pytest.mark.parametrize("n_boot", [0, -5, 1, 2.5, 1000.0, True, "1000"])
def test_bad_n_boot_is_refused(n_boot: Any) -> None:
    with pytest.raises(kf.KappaFrameError, match="n_boot must be an integer"):
        kf.pairwise(pd.DataFrame(LABELS), ci=0.9, ci_method="bootstrap", n_boot=n_boot)


def test_numpy_integer_n_boot() -> None:
    frame = pd.DataFrame(LABELS)
    got = kf.pairwise(frame, ci=0.9, ci_method="bootstrap", n_boot=np.int64(50), seed=1)
    expected = kf.pairwise(frame, ci=0.9, ci_method="bootstrap", n_boot=50, seed=1)
    close(got, expected, ["se", "ci_low", "ci_high"])


# --- threshold_sweep: one class ----------------------------------------------------------


@pytest.mark.parametrize(("truth", "shown"), [([0, 0, 0], "0"), ([False] * 3, "False")])
def test_sweep_truth_without_positives(truth: list[Any], shown: str) -> None:
    with pytest.raises(kf.KappaFrameError, match=f"has no positive.*every label is {shown}") as err:
        kf.threshold_sweep(truth, [0.1, 0.5, 0.9])
    message = str(err.value)
    assert "pos_label 1" not in message
    assert "pos_label=" in message and "both classes" in message
    frame = pd.DataFrame({"t": truth, "s": [0.1, 0.5, 0.9]})
    with pytest.raises(kf.KappaFrameError, match="truth 't' has no positive"):
        kf.threshold_sweep("t", "s", data=frame)


def test_sweep_explicit_pos_label_not_found() -> None:
    with pytest.raises(kf.KappaFrameError, match=r"pos_label 1 is not a label of y_true: 0\."):
        kf.threshold_sweep([0, 0], [0.1, 0.2], pos_label=1)


def test_sweep_truth_all_positive_matches_cohen_kappa() -> None:
    scores = [0.1, 0.5, 0.9]
    with pytest.warns(kf.UndefinedKappaWarning, match="undefined"):
        sweep = kf.threshold_sweep([1, 1, 1], scores)
    assert sweep["tp"].tolist() == [3, 2, 1] and sweep["fn"].tolist() == [0, 1, 2]
    assert np.isnan(sweep["kappa"].iloc[0])
    for threshold, kappa in zip(sweep["threshold"][1:], sweep["kappa"][1:], strict=True):
        predicted = [int(s >= threshold) for s in scores]
        assert kappa == pytest.approx(kf.cohen_kappa([1, 1, 1], predicted), abs=1e-12)


# --- raters(): messages name only its own arguments --------------------------------------


def test_raters_size_message_names_its_own_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel, "MAX_COUNT_BYTES", 10_000)
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.integers(0, 40, size=(50, 4)), columns=list("pqrs"))
    with pytest.raises(kf.KappaFrameError, match=r"raters\(\) needs the full") as err:
        kf.raters(frame)
    message = str(err.value)
    assert "ci=" not in message and "min_overlap" not in message
    assert "categories" in message


def test_raters_size_message_on_the_sparse_path(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(4)
    long = pd.DataFrame(
        {"item": np.repeat(np.arange(300), 2), "who": rng.integers(0, 200, 600)}
    ).drop_duplicates(["item", "who"])
    long["label"] = rng.integers(0, 60, len(long))
    monkeypatch.setattr(kernel, "MAX_COUNT_BYTES", 10_000)
    with pytest.raises(kf.KappaFrameError, match=r"raters\(\) needs the full") as err:
        kf.raters(long, item="item", rater="who", label="label")
    assert "ci=" not in str(err.value) and "min_overlap" not in str(err.value)


# --- Dask: categories the graph does not know -------------------------------------------


def _dask_frame(pdf: pd.DataFrame, dtype: Any, columns: list[str]) -> Any:
    dd = pytest.importorskip("dask.dataframe")
    ddf = dd.from_pandas(pdf, npartitions=2)
    for c in columns:
        ddf[c] = ddf[c].astype(dtype)
    assert not ddf[columns[0]].cat.known
    return ddf


def test_dask_unknown_ordered_categories_with_categories() -> None:
    pdf = pd.DataFrame({"a": ["x", "y", "x", "z"], "b": ["x", "y", "y", "y"]})
    ddf = _dask_frame(pdf, pd.CategoricalDtype(ordered=True), ["a", "b"])
    with pytest.raises(kf.KappaFrameError, match="label 'z'") as err:
        kf.pairwise(ddf, categories=["x", "y"]).compute()  # lazy: the data is read here
    assert "__UNKNOWN_CATEGORIES__" not in str(err.value)
    got = kf.pairwise(ddf, categories=["x", "y", "z"], weights="linear").compute()
    expected = kf.pairwise(pdf, categories=["x", "y", "z"], weights="linear")
    close(got, expected, NUMBERS)


def test_dask_unknown_categories_messages() -> None:
    pdf = pd.DataFrame({"a": ["x", "y", "x", "z"], "b": ["x", "y", "y", "y"]})
    ddf = _dask_frame(pdf, "category", ["a", "b"])
    with pytest.raises(kf.KappaFrameError, match="label 'z'") as err:
        kf.pairwise(ddf, categories=["x", "y"]).compute()  # lazy: the data is read here
    assert "__UNKNOWN_CATEGORIES__" not in str(err.value)
    close(kf.pairwise(ddf).compute(), kf.pairwise(pdf), NUMBERS)
    mixed = _dask_frame(
        pd.DataFrame({"a": [1, 2, 1, 3], "b": ["x", "y", "x", "y"]}), "category", ["a"]
    )
    with pytest.raises(kf.KappaFrameError, match="cannot be compared") as err:
        kf.pairwise(mixed)
    assert "__UNKNOWN_CATEGORIES__" not in str(err.value)
    ordered = _dask_frame(pdf, pd.CategoricalDtype(ordered=True), ["a", "b"])
    with pytest.raises(kf.KappaFrameError, match="categories") as err:
        kf.pairwise(ordered)
    assert "__UNKNOWN_CATEGORIES__" not in str(err.value)


def test_dask_unknown_categories_long_layout() -> None:
    long = pd.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3], "who": ["r", "s"] * 3, "label": ["x", "y", "x", "x", "y", "y"]}
    )
    ddf = _dask_frame(long, pd.CategoricalDtype(ordered=True), ["label"])
    opts = {"item": "item", "rater": "who", "label": "label"}
    with pytest.raises(kf.KappaFrameError, match="label 'y'") as err:
        kf.pairwise(ddf, categories=["x"], **opts)
    assert "__UNKNOWN_CATEGORIES__" not in str(err.value)
    got = kf.pairwise(ddf, categories=["x", "y"], **opts).compute()
    close(got, kf.pairwise(long, categories=["x", "y"], **opts), NUMBERS)

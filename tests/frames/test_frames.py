"""Behaviour of the accessor and functions, run on every backend through `constructor`."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf

from ..conftest import native_type_matches, to_pandas

TIDY = ["rater_a", "rater_b", "n", "p_o", "p_e", "kappa", "interpretation"]


#: The labels of :func:`team`, in order (their sorted order is another).
GRADES = ["bad", "ok", "good"]


def team(rng: np.random.Generator, n: int = 300, missing: float = 0.1) -> dict[str, Any]:
    truth = rng.choice(["bad", "ok", "good"], n)
    data: dict[str, Any] = {
        "project": rng.choice(["beta", "alpha", "gamma"], n),
        "week": rng.integers(1, 3, n),
    }
    for name, skill in [("ann1", 0.9), ("ann2", 0.7), ("ann3", 0.4)]:
        labels = np.where(rng.random(n) < skill, truth, rng.choice(["bad", "ok", "good"], n))
        labels = labels.astype(object)
        labels[rng.random(n) < missing] = None
        data[name] = labels
    return data


def test_output_schema_and_type(constructor: Any, rng: np.random.Generator) -> None:
    frame = constructor(team(rng))
    res = frame.kappa.pairwise(["ann1", "ann2", "ann3"], by=["project", "week"])
    assert native_type_matches(res, frame)
    out = to_pandas(res)
    assert list(out.columns) == ["project", "week", *TIDY]
    # groups sorted, pairs in rater order within each group
    keys = list(zip(out["project"], out["week"], strict=True))
    assert keys == sorted(keys)
    assert len(out) == 3 * 2 * 3
    pairs = list(zip(out["rater_a"], out["rater_b"], strict=True))[:3]
    assert pairs == [("ann1", "ann2"), ("ann1", "ann3"), ("ann2", "ann3")]
    assert out["n"].dtype == np.int64


def test_interpretation_is_ordered(constructor: Any, rng: np.random.Generator) -> None:
    res = constructor(team(rng)).kappa.pairwise(["ann1", "ann2", "ann3"])
    if isinstance(res, pd.DataFrame):
        cat = res["interpretation"].dtype
        assert isinstance(cat, pd.CategoricalDtype) and cat.ordered
        assert list(cat.categories) == ["too few items", *kf.SCALES["landis_koch"].labels]
    else:
        import polars as pl

        schema = res.collect_schema() if hasattr(res, "collect_schema") else res.schema
        labels = ["too few items", *kf.SCALES["landis_koch"].labels]
        assert schema["interpretation"] == pl.Enum(labels)


def test_grouped_equals_per_subset(constructor: Any, rng: np.random.Generator) -> None:
    data = team(rng)
    whole = to_pandas(constructor(data).kappa.pairwise(["ann1", "ann2", "ann3"], by="project"))
    df = pd.DataFrame(data)
    cats = sorted(set(df[["ann1", "ann2", "ann3"]].melt()["value"].dropna()))
    for project, part in whole.groupby("project", observed=True):
        sub = df[df["project"] == project].drop(columns=["project", "week"])
        alone = to_pandas(constructor(sub.to_dict("list")).kappa.pairwise(categories=cats))
        np.testing.assert_allclose(part["kappa"], alone["kappa"], rtol=0, atol=1e-12)
        assert list(part["n"]) == list(alone["n"])


def test_backends_agree(rng: np.random.Generator) -> None:
    pl = pytest.importorskip("polars")
    data = team(rng, n=500)
    kwargs = {
        "by": ["project", "week"],
        "weights": "linear",
        "ci": 0.9,
        "categories": ["bad", "ok", "good"],
    }
    pdf = pd.DataFrame(data)
    expected = pdf.kappa.pairwise(["ann1", "ann2", "ann3"], **kwargs)
    for frame in (pl.from_pandas(pdf), pl.from_pandas(pdf).lazy()):
        got = to_pandas(frame.kappa.pairwise(["ann1", "ann2", "ann3"], **kwargs))
        for col in expected.columns:
            if expected[col].dtype.kind == "f":
                np.testing.assert_array_equal(got[col].to_numpy(), expected[col].to_numpy())
            else:
                assert [str(v) for v in got[col]] == [str(v) for v in expected[col]], col


def test_missing_labels_are_dropped_pair_by_pair(constructor: Any) -> None:
    data = {
        "a": [1.0, 1.0, 2.0, np.nan, 2.0],
        "b": [1.0, 2.0, 2.0, 2.0, np.nan],
        "c": [np.nan, np.nan, 2.0, 1.0, 1.0],
    }
    out = to_pandas(constructor(data).kappa.pairwise())
    assert list(out["n"]) == [3, 2, 2]
    # a vs b on the three complete rows: [1, 1, 2] vs [1, 2, 2]
    assert out["kappa"].iloc[0] == pytest.approx(kf.cohen_kappa([1, 1, 2], [1, 2, 2]))


def test_pandas_missing_markers() -> None:
    df = pd.DataFrame(
        {
            "a": pd.array([1, 2, None, 2, 1], dtype="Int64"),
            "b": pd.array([1, 2, 2, pd.NA, 2], dtype="Int64"),
            "c": ["x", None, "y", np.nan, "x"],
            "d": pd.Series(["x", "y", pd.NA, "y", "y"], dtype="string"),
        }
    )
    assert df.kappa.pairwise(["a", "b"])["n"].iloc[0] == 3
    assert df.kappa.pairwise(["c", "d"])["n"].iloc[0] == 2


def test_polars_nan_is_missing() -> None:
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({"a": [1.0, float("nan"), 2.0, None], "b": [1.0, 2.0, 2.0, 2.0]})
    res = frame.kappa.pairwise()
    assert res["n"].to_list() == [2]
    assert res["kappa"].to_list() == [1.0]


def test_undefined_kappa_warns_once(constructor: Any) -> None:
    data = {
        "g": [1, 1, 2, 2, 3, 3],
        "a": ["x", "x", "x", "y", None, None],
        "b": ["x", "x", "y", "x", "x", "y"],
        "c": ["x", "x", "x", "x", "x", "x"],
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = to_pandas(constructor(data).kappa.pairwise(by="g"))
    relevant = [w for w in caught if issubclass(w.category, kf.UndefinedKappaWarning)]
    assert len(relevant) == 1
    assert "no item rated by both" in str(relevant[0].message)
    if "lazy" in getattr(constructor, "__name__", ""):
        # A plan warns at .collect(), from inside polars: never from inside kappaframe.
        assert Path(kf.__file__).parent not in Path(relevant[0].filename).parents
    else:
        assert relevant[0].filename == __file__
    group1 = out[out["g"] == 1]
    assert group1["kappa"].isna().all()  # every rater used only "x"
    assert group1["interpretation"].isna().all()
    assert out.loc[(out["g"] == 3) & (out["rater_b"] == "b"), "n"].iloc[0] == 0


def test_missing_group_keys_form_the_last_group(constructor: Any) -> None:
    data = {"g": ["b", None, "a", "b", None, "a"], "x": [1, 2, 1, 2, 1, 2], "y": [1, 2, 2, 2, 1, 1]}
    out = to_pandas(constructor(data).kappa.pairwise(["x", "y"], by="g"))
    assert list(out["g"].iloc[:2]) == ["a", "b"]
    assert pd.isna(out["g"].iloc[2])
    assert list(out["n"]) == [2, 2, 2]


def test_long_layout_equals_wide(constructor: Any, rng: np.random.Generator) -> None:
    data = team(rng, n=120)
    wide = pd.DataFrame(data).reset_index(names="item")
    long = wide.melt(
        id_vars=["item", "project", "week"], var_name="annotator", value_name="label"
    ).dropna(subset=["label"])
    long = long.sample(frac=1.0, random_state=1)  # row order must not matter
    got = to_pandas(
        constructor(long.to_dict("list")).kappa.pairwise(
            item="item", rater="annotator", label="label", by="project"
        )
    )
    want = pd.DataFrame(data).kappa.pairwise(["ann1", "ann2", "ann3"], by="project")
    np.testing.assert_allclose(got["kappa"], want["kappa"], rtol=0, atol=1e-12)
    assert list(got["n"]) == list(want["n"])
    assert list(got["rater_a"]) == list(want["rater_a"])


def test_long_layout_duplicates(constructor: Any) -> None:
    data = {
        "item": [1, 1, 1, 2, 2],
        "who": ["a", "b", "a", "a", "b"],
        "label": ["x", "x", "y", "y", "y"],
    }
    with pytest.raises(kf.KappaFrameError, match=r"rater 'a' rated item 1 more than once"):
        # to_pandas: a LazyFrame's plan checks the data when collected
        to_pandas(constructor(data).kappa.pairwise(item="item", rater="who", label="label"))
    first = to_pandas(
        constructor(data).kappa.pairwise(
            item="item", rater="who", label="label", duplicates="first"
        )
    )
    last = to_pandas(
        constructor(data).kappa.pairwise(item="item", rater="who", label="label", duplicates="last")
    )
    assert first["p_o"].iloc[0] == 1.0
    assert last["p_o"].iloc[0] == 0.5


def test_long_layout_selected_raters(constructor: Any) -> None:
    data = {
        "item": [1, 1, 1, 2, 2, 2],
        "who": ["c", "b", "a", "a", "b", "c"],
        "label": [1, 1, 2, 2, 2, 1],
    }
    out = to_pandas(
        constructor(data).kappa.pairwise(["c", "a"], item="item", rater="who", label="label")
    )
    assert list(zip(out["rater_a"], out["rater_b"], strict=True)) == [("c", "a")]
    with pytest.raises(kf.KappaFrameError, match="'z'"):
        to_pandas(
            constructor(data).kappa.pairwise(["a", "z"], item="item", rater="who", label="label")
        )


def test_matrix(constructor: Any, rng: np.random.Generator) -> None:
    data = team(rng)
    tidy = to_pandas(constructor(data).kappa.pairwise(["ann1", "ann2", "ann3"], by="project"))
    res = constructor(data).kappa.matrix(["ann1", "ann2", "ann3"], by="project")
    assert native_type_matches(res, constructor(data))
    out = to_pandas(res)
    if "rater" in out.columns:  # polars: index columns lead
        out = out.set_index(["project", "rater"])
    assert list(out.columns) == ["ann1", "ann2", "ann3"]
    for row in tidy.itertuples(index=False):
        assert out.loc[(row.project, row.rater_a), row.rater_b] == pytest.approx(row.kappa)
        assert out.loc[(row.project, row.rater_b), row.rater_a] == pytest.approx(row.kappa)
    assert (np.diag(out.loc["alpha"].to_numpy()) == 1.0).all()
    n = to_pandas(constructor(data).kappa.matrix(["ann1", "ann2"], stat="n"))
    if "rater" in n.columns:
        n = n.set_index("rater")
    assert n.loc["ann1", "ann1"] == pd.Series(data["ann1"]).notna().sum()


def test_score_and_confusion(constructor: Any) -> None:
    data = {
        "model": ["cat", "dog", "dog", "cat", "bird", None],
        "truth": ["cat", "dog", "cat", "cat", "bird", "dog"],
    }
    frame = constructor(data)
    expected = kf.cohen_kappa(data["model"][:5], data["truth"][:5])
    if hasattr(frame, "collect"):
        frame = frame.collect()
    assert frame.kappa.score("model", "truth") == pytest.approx(expected, abs=1e-15)
    conf = to_pandas(frame.kappa.confusion("model", "truth"))
    if "model" in conf.columns:
        conf = conf.set_index("model")
    assert list(conf.index) == ["bird", "cat", "dog"]
    assert list(conf.columns) == ["bird", "cat", "dog"]
    assert conf.to_numpy().tolist() == [[1, 0, 0], [0, 2, 0], [0, 1, 1]]


def test_category_order_from_ordered_categorical_and_enum() -> None:
    grades = ["low", "mid", "high"]
    a = ["low", "mid", "high", "high", "mid", "low", "high"]
    b = ["low", "high", "high", "mid", "mid", "mid", "high"]
    df = pd.DataFrame(
        {"a": pd.Categorical(a, grades, ordered=True), "b": pd.Categorical(b, grades, ordered=True)}
    )
    ordered = df.kappa.score("a", "b", weights="quadratic")
    explicit = pd.DataFrame({"a": a, "b": b}).kappa.score(
        "a", "b", weights="quadratic", categories=grades
    )
    assert ordered == pytest.approx(explicit, abs=1e-15)
    # Sorting the text would give another number ("high" < "low" < "mid"): refused instead.
    plain = pd.DataFrame({"a": a, "b": b})
    alphabetical = plain.kappa.score("a", "b", weights="quadratic", categories=sorted(grades))
    assert ordered != pytest.approx(alphabetical)
    with pytest.raises(kf.KappaFrameError, match=r"columns 'a', 'b' are text .*categories="):
        plain.kappa.score("a", "b", weights="quadratic")
    pl = pytest.importorskip("polars")
    enum = pl.DataFrame({"a": a, "b": b}, schema={"a": pl.Enum(grades), "b": pl.Enum(grades)})
    assert enum.kappa.score("a", "b", weights="quadratic") == pytest.approx(ordered, abs=1e-15)


def test_custom_weight_matrix(constructor: Any) -> None:
    data = {"a": [0, 1, 2, 2, 1, 0], "b": [0, 2, 2, 1, 1, 1]}
    w = np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0]])
    out = to_pandas(constructor(data).kappa.pairwise(weights=w))
    linear = to_pandas(constructor(data).kappa.pairwise(weights="linear"))
    assert out["kappa"].iloc[0] == pytest.approx(linear["kappa"].iloc[0], abs=1e-15)
    frame_w = pd.DataFrame(w, index=[0, 1, 2], columns=[0, 1, 2]).iloc[::-1, ::-1]
    labelled = to_pandas(constructor(data).kappa.pairwise(weights=frame_w))
    assert labelled["kappa"].iloc[0] == pytest.approx(linear["kappa"].iloc[0], abs=1e-15)


@pytest.mark.parametrize(
    ("scale", "value", "label"),
    [
        ("landis_koch", 0.2, "slight"),
        ("landis_koch", 0.21, "fair"),
        ("landis_koch", 0.0, "slight"),
        ("landis_koch", -0.01, "poor"),
        ("fleiss", 0.75, "fair to good"),
        ("fleiss", 0.76, "excellent"),
        ("altman", 0.2, "poor"),
        ("cicchetti", 0.6, "good"),
        ("mchugh", 0.9, "strong"),
        ("mchugh", 0.91, "almost perfect"),
    ],
)
def test_scale_edges(scale: str, value: float, label: str) -> None:
    s = kf.SCALES[scale]
    assert s.labels[int(s.classify(np.array([value]))[0])] == label


def test_user_scale(constructor: Any) -> None:
    data = {"a": [1, 1, 2, 2], "b": [1, 2, 2, 2]}  # kappa 0.5
    scale = {0.6: "ok", 0.0: "weak"}
    out = to_pandas(constructor(data).kappa.pairwise(scale=scale, min_items=None))
    assert str(out["interpretation"].iloc[0]) == "weak"
    out = to_pandas(constructor(data).kappa.pairwise(scale={0.6: "ok"}, min_items=None))
    assert pd.isna(out["interpretation"].iloc[0])


def test_empty_frame(constructor: Any) -> None:
    data = {
        "g": pd.Series([], dtype="int64"),
        "a": pd.Series([], dtype="float64"),
        "b": pd.Series([], dtype="float64"),
    }
    with pytest.warns(kf.UndefinedKappaWarning):
        out = to_pandas(constructor(data).kappa.pairwise(["a", "b"]))
    assert list(out["n"]) == [0]
    assert out["kappa"].isna().all()
    grouped = to_pandas(constructor(data).kappa.pairwise(["a", "b"], by="g"))
    assert len(grouped) == 0
    assert list(grouped.columns) == ["g", *TIDY]


def test_functions_and_accessor_are_one_path(rng: np.random.Generator) -> None:
    df = pd.DataFrame(team(rng))
    pd.testing.assert_frame_equal(
        kf.pairwise(df, ["ann1", "ann2"], by="project"),
        df.kappa.pairwise(["ann1", "ann2"], by="project"),
    )


def test_input_frame_is_not_modified(constructor: Any, rng: np.random.Generator) -> None:
    data = team(rng)
    frame = constructor(data)
    before = to_pandas(frame).copy(deep=True)
    frame.kappa.pairwise(
        ["ann1", "ann2", "ann3"], by="project", weights="linear", ci=0.95, categories=GRADES
    )
    frame.kappa.matrix(["ann1", "ann2"], by="week")
    to_pandas_after = to_pandas(frame)
    pd.testing.assert_frame_equal(before, to_pandas_after)


def _decoded(fact: Any) -> list[Any]:
    uniques = list(fact.uniques)
    return [None if c < 0 else uniques[c] for c in np.asarray(fact.codes).tolist()]


POLARS_COLUMNS: dict[str, Any] = {
    "ints_with_nulls": ([3, None, 1, 3, 7, None, -2], None),
    "whole_floats_nan_null": ([1.0, float("nan"), None, 2.0, 1.0, -0.0, 0.0], None),
    "fractions": ([0.5, 1.0, None, 2.25, 0.5], None),
    "wide_ints": ([0, 10**9, 5, None, 10**9], None),
    "huge_ints": ([2**62, -(2**62), 2**62 - 1, None], None),
    "infinity": ([1.0, float("inf"), 2.0, None], None),
    "float32": ([1.0, 2.0, None, 2.0], "Float32"),
    "int8": ([1, -1, None, 1], "Int8"),
    "few_strings": (["b", "a", None, "b", "c", "a", "a", "b"], None),
    "many_strings": ([f"id{i}" for i in range(40)] + [None], None),
    "categorical": (["low", "high", None, "mid", "low", "high"], "Categorical"),
    "all_null_floats": ([None, None], "Float64"),
    "empty_ints": ([], "Int64"),
}


@pytest.mark.parametrize("name", POLARS_COLUMNS)
def test_polars_labels_decode_as_pandas_labels(name: str) -> None:
    # polars columns are encoded natively (offsets from the minimum, Enum codes); every
    # row must decode to the label, of the same Python type, that pandas' path gives.
    pl = pytest.importorskip("polars")
    from kappaframe._frames import pandas as pandas_frames
    from kappaframe._frames import polars as polars_frames

    values, dtype = POLARS_COLUMNS[name]
    series = pl.Series(name, values, dtype=getattr(pl, dtype) if dtype else None, strict=False)
    native = _decoded(polars_frames.factorize_labels(series))
    if series.dtype.is_float():
        plain = pd.Series(series.fill_null(float("nan")).to_numpy())
    else:
        plain = pd.Series(series.to_list(), dtype=object)
    reference = _decoded(pandas_frames.factorize_labels(plain))
    assert native == reference
    assert [type(v) for v in native] == [type(v) for v in reference]
    keys, n_keys = polars_frames.factorize_keys(series, name)
    present = [v for v in reference if v is not None]
    assert n_keys == len(set(present))
    order = sorted(set(present))  # group keys: codes in sorted key order
    assert [None if k < 0 else order[k] for k in keys.tolist()] == reference


OFFSET_ARRAYS: dict[str, Any] = {
    "ints": np.array([3, 1, 3, 7, -2, 1]),
    "whole_floats_nan": np.array([1.0, np.nan, 2.0, 1.0, -3.0, np.nan]),
    "float32": np.array([2.0, 1.0, np.nan, 2.0], dtype=np.float32),
    "uint8": np.array([0, 255, 3, 255], dtype=np.uint8),
    "many_values": np.arange(3000) % 1500,
    "gaps": np.array([0, 100, 50, 100] * 300),
    "fractions": np.array([0.5, 1.0, 2.0]),
    "wide": np.array([0, 10**9, 5]),
    "huge": np.array([2**62, 0]),
    "infinity": np.array([1.0, np.inf]),
    "float16": np.array([1.0, 2.0], dtype=np.float16),
    "big_uint": np.array([2**63 + 5, 1], dtype=np.uint64),
    "all_nan": np.array([np.nan, np.nan]),
    "empty": np.array([], dtype=np.int64),
}
HASHED = {"fractions", "wide", "huge", "infinity", "float16", "big_uint"}


@pytest.mark.parametrize("name", OFFSET_ARRAYS)
def test_offset_codes_are_a_sorted_factorize(name: str) -> None:
    # Whole numbers in a narrow range are coded by arithmetic; the labels of every row
    # are those of pandas' hash factorize, the distinct values sorted; the rest is hashed.
    from kappaframe._encode.codes import offset_codes
    from kappaframe._frames.pandas import factorize_labels

    values = OFFSET_ARRAYS[name]
    got = offset_codes(values)
    if name in HASHED:
        assert got is None
    else:
        assert got is not None
        codes, uniques = got
        assert list(uniques) == sorted(set(uniques.tolist()))
        assert codes.dtype.itemsize <= 2 and codes.min(initial=-1) >= -1
        decoded = [None if c < 0 else uniques[c] for c in codes.tolist()]
        codes_pd, uniques_pd = pd.factorize(values, use_na_sentinel=True)
        assert decoded == [None if c < 0 else uniques_pd[c] for c in codes_pd.tolist()]
    fact = factorize_labels(pd.Series(values))
    labels = [None if c < 0 else fact.uniques[c] for c in fact.codes.tolist()]
    reference = [None if pd.isna(v) else v.item() for v in values]
    assert labels == reference
    assert [type(v) for v in labels] == [type(v) for v in reference]


# --------------------------------------------------------------------------- min_items

#: Group "few": 2 items, kappa 1; group "many": 12 items, kappa 1 (n both rated).
SMALL_AND_LARGE = {
    "g": ["few"] * 2 + ["many"] * 12,
    "a": ["x", "y"] + ["x", "y"] * 6,
    "b": ["x", "y"] + ["x", "y"] * 6,
}
LANDIS_KOCH = list(kf.SCALES["landis_koch"].labels)


def interpretations(result: Any) -> list[Any]:
    return [None if pd.isna(v) else str(v) for v in to_pandas(result)["interpretation"]]


def test_too_few_items_instead_of_a_band(constructor: Any) -> None:
    frame = constructor(SMALL_AND_LARGE)
    res = frame.kappa.pairwise(by="g")
    assert native_type_matches(res, frame)
    out = to_pandas(res)
    assert out["n"].tolist() == [2, 12]
    assert out["kappa"].tolist() == [1.0, 1.0]  # the number stays; only the words change
    assert interpretations(res) == ["too few items", "almost perfect"]
    assert list(out["interpretation"].cat.categories) == ["too few items", *LANDIS_KOCH]
    assert out["interpretation"].cat.ordered
    assert interpretations(kf.pairwise(frame, by="g", min_items=12)) == [
        "too few items",
        "almost perfect",
    ]
    assert interpretations(kf.pairwise(frame, by="g", min_items=13)) == ["too few items"] * 2
    assert interpretations(kf.pairwise(frame, by="g", min_items=2)) == ["almost perfect"] * 2
    for off in (None, 0):
        plain = to_pandas(frame.kappa.pairwise(by="g", min_items=off))
        assert interpretations(plain) == ["almost perfect"] * 2
        assert list(plain["interpretation"].cat.categories) == LANDIS_KOCH


def test_too_few_items_never_passes_a_gate(constructor: Any) -> None:
    res = constructor(SMALL_AND_LARGE).kappa.pairwise(by="g")
    if isinstance(res, pd.DataFrame):
        passed = res[res["interpretation"] >= "moderate"]
        assert passed["g"].tolist() == ["many"]
        assert (res["interpretation"] < "poor").tolist() == [True, False]
    else:
        import polars as pl

        passed = res.filter(pl.col("interpretation") >= "moderate")
        passed = passed.collect() if isinstance(passed, pl.LazyFrame) else passed
        assert passed["g"].to_list() == ["many"]


def test_too_few_items_leaves_undefined_kappa_missing(constructor: Any) -> None:
    data = {"a": ["x", "x", None], "b": ["x", "x", "y"]}  # one category shared: p_e 1
    with pytest.warns(kf.UndefinedKappaWarning):
        out = to_pandas(constructor(data).kappa.pairwise())
    assert out["kappa"].isna().all() and interpretations(out) == [None]


def test_too_few_items_on_every_way_in(constructor: Any) -> None:
    frame = constructor(SMALL_AND_LARGE)
    probabilistic = frame.kappa.pairwise(by="g", ci=0.95, benchmark="probabilistic")
    assert interpretations(probabilistic)[0] == "too few items"
    custom = frame.kappa.pairwise(by="g", scale={0.0: "some", 0.5: "lots"})
    assert interpretations(custom) == ["too few items", "lots"]
    counted = kf.counts(to_pandas(frame), by="g")
    assert interpretations(counted.pairwise()) == ["too few items", "almost perfect"]
    assert interpretations(counted.pairwise(min_items=None)) == ["almost perfect"] * 2
    for function in (kf.overall, kf.per_category):
        res = to_pandas(function(to_pandas(frame), ["a", "b"], by="g"))
        few = res["g"] == "few"
        assert set(interpretations(res[few])) == {"too few items"}
        assert "too few items" not in interpretations(res[~few])
        assert res["interpretation"].cat.categories[0] == "too few items"
        res = to_pandas(function(to_pandas(frame), ["a", "b"], by="g", min_items=None))
        assert "too few items" not in interpretations(res)
    res = to_pandas(kf.per_category(to_pandas(frame), ["a", "b"], by="g", method="cohen"))
    assert set(interpretations(res[res["g"] == "few"])) == {"too few items"}
    accessor = to_pandas(to_pandas(frame).kappa.overall(["a", "b"], by="g", min_items=2))
    assert "too few items" not in interpretations(accessor)


@pytest.mark.parametrize("bad", [True, np.bool_(False), -1, 2.5, "10", 10.0])
def test_min_items_refused_before_reading_data(constructor: Any, bad: Any) -> None:
    frame = constructor(SMALL_AND_LARGE)
    for call in (kf.pairwise, kf.overall, kf.per_category):
        # An unknown rater column would be an error too: the option is checked first.
        with pytest.raises(kf.KappaFrameError, match=r"min_items must be a whole number"):
            call(frame, ["a", "nope"], min_items=bad)
    with pytest.raises(kf.KappaFrameError, match=r"min_items .*got"):
        kf.counts(to_pandas(frame)).pairwise(min_items=bad)


def test_min_items_takes_numpy_integers(constructor: Any) -> None:
    res = constructor(SMALL_AND_LARGE).kappa.pairwise(by="g", min_items=np.int64(3))
    assert interpretations(res) == ["too few items", "almost perfect"]


def test_a_scale_band_named_too_few_items_is_refused() -> None:
    frame = pd.DataFrame(SMALL_AND_LARGE)
    with pytest.raises(kf.KappaFrameError, match="rename that band, or pass min_items=None"):
        kf.pairwise(frame, by="g", scale={0.0: "too few items", 0.5: "fine"})
    res = kf.pairwise(frame, by="g", scale={0.0: "too few items", 0.5: "fine"}, min_items=None)
    assert interpretations(res) == ["fine", "fine"]


def test_with_min_items_codes_each_value_as_the_rule_says() -> None:
    from kappaframe._stats.scales import TOO_FEW_ITEMS, with_min_items

    # 128 bands: the codes need a wider type than the bands (int8 -> int16)
    labels = tuple(f"band{i}" for i in range(128))
    band = np.array([-1, 0, 5, 127, -1, 3, 127, 0], dtype=np.int8)
    n = np.array([0, 9, 10, 11, 30, 2, 3, np.nan])
    codes, categories = with_min_items(band, n, 10, labels)
    assert categories == (TOO_FEW_ITEMS, *labels)
    # missing stays missing; under 10 items "too few items" (0); else the band, moved up one
    # (a NaN count is not "fewer")
    assert codes.tolist() == [-1, 0, 6, 128, -1, 0, 0, 1]
    assert codes.dtype == np.int16
    assert band.tolist() == [-1, 0, 5, 127, -1, 3, 127, 0]  # the input is not modified
    same, same_labels = with_min_items(band, n, None, labels)
    assert same is band and same_labels == labels

"""Set-valued labels: overall(distance="masi" | "jaccard") and per_label().

Oracles: NLTK's ``AnnotationTask(..., distance=masi_distance).alpha()`` (and
``jaccard_distance``, ``binary_distance``) on NLTK's own examples and on drawn data;
scikit-learn's ``cohen_kappa_score`` and statsmodels' ``fleiss_kappa`` label by label; and
kappaframe's single-label functions on present/absent columns built by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._stats.sets import set_distances
from kappaframe._types import LabelMethod

agreement = pytest.importorskip("nltk.metrics.agreement")
distance = pytest.importorskip("nltk.metrics.distance")

LABELS = list("abcde")
RATERS = ["r0", "r1", "r2", "r3"]
ATOL = 1e-12


def draw_sets(
    seed: int, n: int = 80, empty: bool = False, missing: float = 0.1, groups: int = 1
) -> pd.DataFrame:
    """Items with a latent set of 1-2 labels; each rater keeps a label w.p. 0.8, adds one
    w.p. 0.2; ``missing`` of the ratings are None; ``empty``: some ratings are empty sets."""
    rng = np.random.default_rng(seed)
    data: dict[str, Any] = {}
    if groups > 1:
        data["group"] = rng.choice([f"g{i}" for i in range(groups)], size=n)
    latent = [set(rng.choice(LABELS, rng.integers(1, 3), replace=False)) for _ in range(n)]
    for rater in RATERS:
        column: list[Any] = []
        for labels in latent:
            given = {x for x in labels if rng.random() < 0.8}
            if rng.random() < 0.2:
                given.add(str(rng.choice(LABELS)))
            if not given and not empty:
                given = set(labels)
            column.append(None if rng.random() < missing else given)
        data[rater] = column
    return pd.DataFrame(data)


def nltk_alpha(df: pd.DataFrame, dist: Callable[[Any, Any], float]) -> float:
    triples = [
        (rater, str(i), frozenset(v))
        for rater in RATERS
        for i, v in enumerate(df[rater])
        if v is not None
    ]
    return float(agreement.AnnotationTask(triples, distance=dist).alpha())


def safe(dist: Callable[[Any, Any], float]) -> Callable[[Any, Any], float]:
    """NLTK's distance with kappaframe's convention for two empty sets (NLTK divides by 0)."""
    return lambda a, b: 0.0 if not a and not b else dist(a, b)


def alpha(df: pd.DataFrame, dist: str, **kw: Any) -> float:
    res = kf.overall(df, RATERS, method="krippendorff", distance=dist, **kw)
    if hasattr(res, "compute"):  # Dask in, Dask out
        res = res.compute()
    return float(res["value"].iloc[0])


def as_text(df: pd.DataFrame, sep: str = "|") -> pd.DataFrame:
    out = df.copy()
    for rater in RATERS:
        out[rater] = [None if v is None else sep.join(sorted(v)) for v in df[rater]]
    return out


# ----------------------------------------------------------------------------- distances


def test_distances_are_nltks_on_its_examples() -> None:
    # older NLTK releases rounded Passonneau's 2/3 and 1/3 to 0.67 and 0.33; 3.10.4 does not
    exact = distance.masi_distance({1, 2}, {1, 2, 3, 4})
    assert exact == pytest.approx(2 / 3, abs=ATOL), "this NLTK rounds MASI's thirds: nltk>=3.10.4"
    # nltk/test/metrics.doctest: s1 = {1, 2, 3, 4}, s2 = {3, 4, 5}: jaccard 0.6, masi
    # 0.8666...; masi_distance's docstring: {1, 2} vs {1, 2, 3, 4}: 0.6666...
    sets = [(1, 2, 3, 4), (3, 4, 5), (1, 2)]
    jac = set_distances(sets, [1, 2, 3, 4, 5], "jaccard")
    masi = set_distances(sets, [1, 2, 3, 4, 5], "masi")
    assert jac[0, 1] == pytest.approx(0.6, abs=ATOL)
    assert masi[0, 1] == pytest.approx(0.8666666666666667, abs=ATOL)
    assert masi[2, 0] == pytest.approx(0.6666666666666667, abs=ATOL)


def test_distance_matrix_is_nltks_on_every_pair() -> None:
    rng = np.random.default_rng(5)
    sets = {tuple(sorted(set(rng.choice(LABELS, rng.integers(1, 4))))) for _ in range(40)}
    cats = sorted(sets)
    for name, dist in (("masi", distance.masi_distance), ("jaccard", distance.jaccard_distance)):
        got = set_distances(cats, LABELS, name)
        want = np.array([[dist(set(a), set(b)) for b in cats] for a in cats])
        np.testing.assert_allclose(got, want, rtol=0, atol=ATOL)
    empty = set_distances([(), ("a",), ("a", "b")], LABELS, "masi")
    assert list(empty[0]) == [0.0, 1.0, 1.0]  # two empty sets equal; empty vs any: 1


# ----------------------------------------------------------------------------- alpha over sets


def test_nltk_unit_test_masi_with_missing() -> None:
    # nltk/test/unit/test_disagreement.py::test_masi_multilabel_with_missing: alpha 1.0
    df = pd.DataFrame(
        {
            "1": [frozenset(["a"]), frozenset(["a", "b"])],
            "2": [frozenset(["a"]), None],
            "3": [None, frozenset(["a", "b"])],
        }
    )
    res = kf.overall(df, method="krippendorff", distance="masi")
    assert float(res["value"].iloc[0]) == pytest.approx(1.0, abs=ATOL)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", ["masi", "jaccard"])
def test_alpha_is_nltks_on_drawn_sets(seed: int, name: str) -> None:
    df = draw_sets(seed)
    dist = getattr(distance, f"{name}_distance")
    assert alpha(df, name) == pytest.approx(nltk_alpha(df, dist), abs=ATOL)


@pytest.mark.parametrize("name", ["masi", "jaccard"])
def test_alpha_with_empty_sets_is_nltks_with_the_empty_convention(name: str) -> None:
    df = draw_sets(7, empty=True)
    assert any(v == set() for v in df["r0"])
    dist = safe(getattr(distance, f"{name}_distance"))
    assert alpha(df, name) == pytest.approx(nltk_alpha(df, dist), abs=ATOL)


def test_sets_in_any_form_and_text_give_one_alpha() -> None:
    df = draw_sets(3)
    want = alpha(df, "masi")
    as_lists = df.copy()
    as_tuples = df.copy()
    for rater in RATERS:
        as_lists[rater] = [None if v is None else sorted(v, reverse=True) for v in df[rater]]
        as_tuples[rater] = [None if v is None else tuple(v) for v in df[rater]]
    assert alpha(as_lists, "masi") == pytest.approx(want, abs=ATOL)
    assert alpha(as_tuples, "masi") == pytest.approx(want, abs=ATOL)
    assert alpha(as_text(df, ";"), "masi", multi_sep=";") == pytest.approx(want, abs=ATOL)
    # the order labels are written in does not matter
    reversed_text = as_text(df)
    for rater in RATERS:
        reversed_text[rater] = [
            "|".join(v.split("|")[::-1]) if isinstance(v, str) else None
            for v in reversed_text[rater]
        ]
    assert alpha(reversed_text, "masi", multi_sep="|") == pytest.approx(want, abs=ATOL)


def test_long_layout_gives_the_wide_alpha() -> None:
    df = draw_sets(4)
    long = df.assign(item=range(len(df))).melt(
        id_vars="item", value_vars=RATERS, var_name="rater", value_name="tags"
    )
    long = long[long["tags"].notna()]
    res = kf.overall(
        long, item="item", rater="rater", label="tags", method="krippendorff", distance="jaccard"
    )
    assert float(res["value"].iloc[0]) == pytest.approx(alpha(df, "jaccard"), abs=ATOL)


def test_alpha_per_group_is_alpha_of_each_group() -> None:
    df = draw_sets(6, n=150, groups=3)
    res = kf.overall(df, RATERS, by="group", method="krippendorff", distance="masi", ci=0.95)
    for _, row in res.iterrows():
        part = df[df["group"] == row["group"]]
        assert row["value"] == pytest.approx(alpha(part, "masi"), abs=ATOL)
        assert row["value"] == pytest.approx(nltk_alpha(part, distance.masi_distance), abs=ATOL)
        assert row["ci_low"] < row["value"] < row["ci_high"]


def test_exact_sets_without_distance_are_nominal_categories() -> None:
    df = draw_sets(8)
    text = as_text(df)
    got = kf.overall(df, RATERS, method=["fleiss", "krippendorff"], multi_sep="|")
    want = kf.overall(text, RATERS, method=["fleiss", "krippendorff"])
    np.testing.assert_allclose(got["value"], want["value"], rtol=0, atol=ATOL)
    binary = kf.overall(df, RATERS, method="krippendorff", distance="masi")
    assert float(binary["value"].iloc[0]) != pytest.approx(float(want["value"].iloc[1]))


# ----------------------------------------------------------------------------- per label


def present(df: pd.DataFrame, label: str) -> pd.DataFrame:
    """Each rater's present (1) / absent (0) column for ``label``; missing stays missing."""
    out = pd.DataFrame(index=df.index)
    for rater in RATERS:
        out[rater] = [np.nan if v is None else float(label in v) for v in df[rater]]
    return out


def test_per_label_cohen_is_sklearns_label_by_label() -> None:
    from sklearn.metrics import cohen_kappa_score

    df = draw_sets(9, n=120)
    res = kf.per_label(df, RATERS, method="cohen")
    assert list(res.columns[:5]) == ["rater_a", "rater_b", "label", "prevalence", "n"]
    assert len(res) == 6 * len(LABELS)
    for _, row in res.iterrows():
        binary = present(df, row["label"])
        both = binary[[row["rater_a"], row["rater_b"]]].dropna()
        a, b = both[row["rater_a"]], both[row["rater_b"]]
        assert row["n"] == len(both)
        assert row["kappa"] == pytest.approx(cohen_kappa_score(a, b), abs=ATOL)
        assert row["prevalence"] == pytest.approx((a.sum() + b.sum()) / (2 * len(both)))


def test_per_label_fleiss_is_statsmodels_label_by_label() -> None:
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    df = draw_sets(10, n=100, missing=0.0)
    res = kf.per_label(df, method="fleiss")
    assert list(res["label"]) == LABELS and set(res["method"]) == {"fleiss"}
    for _, row in res.iterrows():
        table, _ = aggregate_raters(present(df, row["label"]).to_numpy(dtype=int))
        assert row["value"] == pytest.approx(fleiss_kappa(table), abs=ATOL)


def test_per_label_krippendorff_is_nltks_binary_alpha() -> None:
    df = draw_sets(11, n=90)
    res = kf.per_label(df, method="krippendorff")
    for _, row in res.iterrows():
        binary = present(df, row["label"])
        triples = [
            (r, str(i), v) for r in RATERS for i, v in enumerate(binary[r]) if not np.isnan(v)
        ]
        want = agreement.AnnotationTask(triples).alpha()
        assert row["value"] == pytest.approx(want, abs=ATOL)


METHODS = ["fleiss", "light", "conger", "krippendorff", "gwet_ac1", "brennan_prediger", "percent"]


def test_per_label_is_overall_on_present_absent_columns() -> None:
    df = draw_sets(12, n=150, groups=2)
    res = kf.per_label(df, RATERS, by="group", method=METHODS, ci=0.9)
    assert len(res) == 2 * len(METHODS) * len(LABELS)
    for label in LABELS:
        binary = present(df, label).assign(group=df["group"])
        want = kf.overall(binary, RATERS, by="group", method=METHODS, ci=0.9)
        got = res[res["label"] == label].reset_index(drop=True)
        for col in ("group", "method", "n_items", "n_raters"):
            assert list(got[col]) == list(want[col])
        for col in ("p_o", "p_e", "value", "se", "ci_low", "ci_high", "p_value"):
            np.testing.assert_allclose(got[col], want[col], rtol=0, atol=ATOL, err_msg=col)
        for g in ("g0", "g1"):
            part = df[df["group"] == g]
            given = [label in v for r in RATERS for v in part[r] if v is not None]
            share = got.loc[got["group"] == g, "prevalence"]
            assert np.allclose(share, np.mean(given))


def test_per_label_cohen_interval_is_pairwises() -> None:
    df = draw_sets(13, n=100)
    res = kf.per_label(df, method="cohen", ci=0.95)
    for label in LABELS:
        want = kf.pairwise(present(df, label), ci=0.95)
        got = res[res["label"] == label].reset_index(drop=True)
        for col in ("kappa", "se", "se0", "ci_low", "ci_high", "z", "p_value"):
            np.testing.assert_allclose(got[col], want[col], rtol=0, atol=ATOL, err_msg=col)


def test_empty_set_is_a_rating_missing_is_not() -> None:
    df = pd.DataFrame(
        {
            "a": [["x"], [], ["x", "y"], None, ["y"]],
            "b": [["x"], [], ["y"], ["x"], []],
        }
    )
    res = kf.per_label(df, method="cohen", min_items=0)
    assert list(res["n"]) == [4, 4]  # the empty sets count, the missing cell does not
    x = res[res["label"] == "x"].iloc[0]
    assert x["p_o"] == pytest.approx(3 / 4)
    overall = kf.overall(df, method="krippendorff", distance="jaccard")
    assert int(overall["n_items"].iloc[0]) == 5


def test_categories_order_and_labels_nobody_gave() -> None:
    df = draw_sets(14, n=60)
    with pytest.warns(kf.UndefinedKappaWarning, match="1 of 6"):
        res = kf.per_label(df, method="krippendorff", categories=["e", "d", "c", "b", "a", "z"])
    assert list(res["label"]) == ["e", "d", "c", "b", "a", "z"]
    z = res.iloc[-1]
    assert z["prevalence"] == 0.0 and np.isnan(z["value"])


def test_accessor_and_polars_give_the_same() -> None:
    pl = pytest.importorskip("polars")
    df = draw_sets(15, n=70)
    want = kf.per_label(df, method="cohen")
    pd.testing.assert_frame_equal(df.kappa.per_label(method="cohen"), want)
    frame = pl.DataFrame({r: [None if v is None else sorted(v) for v in df[r]] for r in RATERS})
    got = kf.per_label(frame, method="cohen")
    assert isinstance(got, pl.DataFrame)
    np.testing.assert_allclose(got["kappa"].to_numpy(), want["kappa"], rtol=0, atol=ATOL)
    lazy = frame.lazy().kappa.overall(method="krippendorff", distance="masi")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect()["value"][0] == pytest.approx(alpha(df, "masi"), abs=ATOL)


def test_inputs_are_not_modified() -> None:
    df = as_text(draw_sets(16, n=40))
    before = df.copy()
    kf.per_label(df, multi_sep="|")
    kf.overall(df, method="krippendorff", distance="masi", multi_sep="|")
    pd.testing.assert_frame_equal(df, before)


# ----------------------------------------------------------------------------- refused


def test_text_without_a_separator_is_refused() -> None:
    df = as_text(draw_sets(17, n=20))
    with pytest.raises(kf.KappaFrameError, match="multi_sep"):
        kf.overall(df, method="krippendorff", distance="masi")
    with pytest.raises(kf.KappaFrameError, match="multi_sep"):
        kf.per_label(df)


@pytest.mark.parametrize(
    ("cell", "match"),
    [
        ("a | b", "spaces around"),
        ("a||b", "empty label"),
        ("a|", "empty label"),
    ],
)
def test_badly_written_text_sets_are_refused(cell: str, match: str) -> None:
    df = pd.DataFrame({"x": ["a|b", cell], "y": ["a", "b"]})
    with pytest.raises(kf.KappaFrameError, match=match):
        kf.per_label(df, multi_sep="|")


@pytest.mark.parametrize(
    ("cell", "match"),
    [
        (["a", None], "missing value in it"),
        (["a", ["b"]], "not all single labels"),
        (["a", ("b",)], "not a single label"),
        (["a", 1], "mixes label types"),
        (3, "where sets of labels are expected"),
    ],
)
def test_bad_set_cells_are_refused(cell: Any, match: str) -> None:
    df = pd.DataFrame({"x": [["a"], cell], "y": [["a"], ["b"]]})
    with pytest.raises(kf.KappaFrameError, match=match):
        kf.per_label(df)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"method": "fleiss", "distance": "masi"}, "applies to method='krippendorff' only"),
        ({"method": "krippendorff", "distance": "cosine"}, "distance"),
        ({"method": "krippendorff", "distance": "masi", "weights": "linear"}, "give one"),
        ({"method": "krippendorff", "distance": "masi", "level": "ordinal"}, "give one"),
        ({"method": "krippendorff", "distance": "masi", "layout": "counts"}, "ratings"),
        ({"method": "krippendorff", "distance": "masi", "multi_sep": ""}, "non-empty"),
        ({"method": "krippendorff", "distance": "masi", "categories": ["a"]}, "not in"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], match: str) -> None:
    df = pd.DataFrame({"x": [["a"], ["a", "b"]], "y": [["a"], ["b"]]})
    with pytest.raises(kf.KappaFrameError, match=match):
        kf.overall(df, **options)


def test_per_label_refuses_cohen_with_others_and_unknown_methods() -> None:
    df = pd.DataFrame({"x": [["a"], ["a", "b"]], "y": [["a"], ["b"]]})
    with pytest.raises(kf.KappaFrameError, match="once for each"):
        kf.per_label(df, method=["cohen", "fleiss"])
    with pytest.raises(kf.KappaFrameError, match="gwet_ac2"):
        kf.per_label(df, method="gwet_ac2")


def test_sets_of_labels_of_different_types_are_refused_naming_the_columns() -> None:
    df = pd.DataFrame({"a": ["x|y", "x", None], "b": [1.0, float("nan"), 2.0]})
    with pytest.raises(kf.KappaFrameError, match=r"string labels in 'a'; number labels in 'b'"):
        kf.overall(df, method="krippendorff", distance="masi", multi_sep="|")


def test_pyarrow_list_columns_and_numbers_with_a_separator() -> None:
    pa = pytest.importorskip("pyarrow")
    lists = pd.ArrowDtype(pa.list_(pa.string()))
    df = pd.DataFrame(
        {
            "a": pd.Series([["x"], ["x", "y"], None, []], dtype=lists),
            "b": pd.Series([["x"], ["y"], ["y"], []], dtype=lists),
        }
    )
    res = kf.per_label(df, method="cohen", min_items=0)
    assert list(res["n"]) == [3, 3]
    assert list(res["kappa"]) == pytest.approx([0.4, 1.0])
    # a column a file reader made numbers (no separator in it): one label per cell
    numbers = pd.DataFrame({"a": [1, 2, None, 2], "b": ["1|2", "2", "1", "2"]})
    numbers["b"] = [[int(x) for x in v.split("|")] for v in numbers["b"]]
    res = kf.per_label(numbers, method="cohen", multi_sep="|", min_items=0)
    assert list(res["label"]) == [1, 2]


def test_dask_with_list_cells_and_with_text() -> None:
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    df = draw_sets(18, n=60)
    want = alpha(df, "masi")
    with dask.config.set({"dataframe.convert-string": False, "scheduler": "sync"}):
        lists = dd.from_pandas(
            df.assign(**{r: [None if v is None else sorted(v) for v in df[r]] for r in RATERS}),
            npartitions=3,
        )
        assert alpha(lists, "masi") == pytest.approx(want, abs=ATOL)
    with dask.config.set({"scheduler": "sync"}):
        printed = dd.from_pandas(
            df.assign(**{r: [None if v is None else sorted(v) for v in df[r]] for r in RATERS}),
            npartitions=3,
        )
        with pytest.raises(kf.KappaFrameError, match="convert-string"):
            alpha(printed, "masi")
        text = dd.from_pandas(as_text(df), npartitions=3)
        assert alpha(text, "masi", multi_sep="|") == pytest.approx(want, abs=ATOL)


def test_one_set_for_everybody_is_undefined_not_one() -> None:
    df = pd.DataFrame({"a": [["x", "y"]] * 4, "b": [["y", "x"]] * 4})
    with pytest.warns(kf.UndefinedKappaWarning):
        res = kf.overall(df, method="krippendorff", distance="masi")
    assert np.isnan(res["value"].iloc[0])
    triples = [(r, str(i), frozenset(v)) for r in "ab" for i, v in enumerate(df[r])]
    assert agreement.AnnotationTask(triples, distance=distance.masi_distance).alpha() == 1


def test_a_label_studio_multi_choice_export_is_read_as_sets(tmp_path: Any) -> None:
    import json

    rng = np.random.default_rng(19)
    given: dict[tuple[str, int], list[str]] = {}
    tasks = []
    for task in range(12):
        annotations = []
        for aid, user in enumerate(["ana", "ben", "cai"]):
            chosen = sorted(set(rng.choice(["food", "price", "staff"], rng.integers(1, 3))))
            given[(user, task)] = chosen
            result = {
                "id": f"r{aid}",
                "from_name": "topic",
                "to_name": "text",
                "type": "choices",
                "value": {"choices": chosen},
            }
            annotations.append({"id": task * 10 + aid, "completed_by": user, "result": [result]})
        tasks.append({"id": task, "annotations": annotations, "data": {"text": f"review {task}"}})
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    wide = pd.DataFrame({u: [given[(u, t)] for t in range(12)] for u in ["ana", "ben", "cai"]})
    layout = {"item": "item", "rater": "rater", "label": "label"}
    got = kf.per_label(str(path), **layout, method="cohen", min_items=0)
    want = kf.per_label(wide, method="cohen", min_items=0)
    np.testing.assert_allclose(got["kappa"], want["kappa"], rtol=0, atol=ATOL)
    got = kf.overall(str(path), **layout, method="krippendorff", distance="masi")
    want = kf.overall(wide, method="krippendorff", distance="masi")
    assert float(got["value"].iloc[0]) == pytest.approx(float(want["value"].iloc[0]), abs=ATOL)


def test_single_label_functions_point_list_columns_to_the_set_functions() -> None:
    df = pd.DataFrame({"a": [["x", "y"], ["x"]], "b": [["x"], ["y"]]})
    with pytest.raises(kf.KappaFrameError, match=r"kappaframe\.per_label"):
        kf.pairwise(df)
    pl = pytest.importorskip("polars")
    with pytest.raises(kf.KappaFrameError, match=r"distance='masi'"):
        kf.pairwise(pl.DataFrame({"a": [["x", "y"], ["x"]], "b": [["x"], ["y"]]}))


def _tagged(rng: np.random.Generator, n: int, n_raters: int) -> pd.DataFrame:
    """Sets of 1-3 of ten labels, some empty, some missing, in two groups."""
    tags = list("abcdefghij")

    def cell() -> str | None:
        u = rng.random()
        if u < 0.1:
            return None
        if u < 0.2:
            return ""
        return "|".join(sorted(set(rng.choice(tags, int(rng.integers(1, 4))))))

    df = pd.DataFrame({f"r{j}": [cell() for _ in range(n)] for j in range(n_raters)})
    df["g"] = rng.integers(0, 2, n)
    return df


@pytest.mark.filterwarnings("ignore:the agreement on a label is undefined")
def test_the_rows_by_what_is_there_give_the_values_of_every_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past DENSE_BYTES the items nobody tagged with a label are one weighted row per
    group, label and pattern of raters: every column the same, the values to rounding."""
    import kappaframe._api.per_label as module

    rng = np.random.default_rng(11)
    df = _tagged(rng, 150, 4)
    methods = list(get_args(LabelMethod))
    methods.remove("cohen")
    options: dict[str, Any] = dict(multi_sep="|", by="g", ci=0.95, min_items=0)
    options["categories"] = list("abcdefghijk")  # "k": nobody gave it
    want = kf.per_label(df, RATERS, method=methods, **options)
    cohen = kf.per_label(df, RATERS, method="cohen", **options)
    monkeypatch.setattr(module, "DENSE_BYTES", 0)
    got = kf.per_label(df, RATERS, method=methods, **options)
    pd.testing.assert_frame_equal(kf.per_label(df, RATERS, method="cohen", **options), cohen)
    for column in want.columns:
        if want[column].dtype.kind == "f":
            np.testing.assert_allclose(got[column], want[column], rtol=0, atol=1e-12)
        elif column != "interpretation":  # a band edge can move with the last bit
            assert want[column].astype(str).tolist() == got[column].astype(str).tolist()
    assert want["value"].notna().sum() > 50 and want["ci_low"].notna().sum() > 50


def test_label_rows_hold_the_pairs_given_and_weigh_the_rest() -> None:
    from kappaframe._encode.sets import indicator_pairs, indicators
    from kappaframe._stats.sets import label_rows

    sets = [(), ("a",), ("a", "b"), ("c",)]
    codes = np.array([[1, 2, -1, 0, 3], [1, -1, 0, 1, 3], [2, 1, 1, -1, -1]], dtype=np.int8)
    pairs = indicator_pairs(sets, list("abc"))
    assert pairs[0].tolist() == [1, 2, 2, 3] and pairs[1].tolist() == [0, 0, 1, 2]
    assert np.array_equal(np.argwhere(indicators(sets, list("abc"))).T, np.stack(pairs))
    rows = label_rows(codes, pairs, 4, 3, None, 1)
    # (item, label) pairs given: 0a 0b 1a 1b 2a 3a 4c -> rows of their own
    assert rows.n_given == 7 and rows.weight[:7].tolist() == [1.0] * 7
    dense = np.where(codes >= 0, 0, -1)[:, :, None] + 0 * np.arange(3)
    for r, i in zip(*np.nonzero(codes >= 0), strict=True):
        for label in pairs[1][pairs[0] == codes[r, i]]:
            dense[r, i, label] = 1
    # Every key holds all five items, once each, in its rows' weights ...
    assert np.bincount(rows.key, rows.weight, 3).tolist() == [5.0, 5.0, 5.0]
    # ... and the weighted rows are the items with that pattern of raters and no label.
    for key in range(3):
        mine = rows.key == key
        got = sorted(
            (tuple(c), w) for c, w in zip(rows.codes[:, mine].T, rows.weight[mine], strict=True)
        )
        columns = [tuple(dense[:, i, key]) for i in range(5)]
        want = sorted((c, float(columns.count(c))) for c in set(columns))
        assert got == want
    assert rows.given.tolist() == [7, 2, 2] and rows.rated.tolist() == [11]


def test_per_label_refuses_rows_over_the_memory_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import kappaframe._api.per_label as module
    from kappaframe._count import kernel

    df = _tagged(np.random.default_rng(2), 80, 4)
    monkeypatch.setattr(module, "DENSE_BYTES", 0)
    monkeypatch.setattr(kernel, "MAX_COUNT_BYTES", 20_000)
    with pytest.raises(kf.KappaFrameError, match="ratings read per label would take") as err:
        kf.per_label(df, RATERS, multi_sep="|")
    message = str(err.value)
    assert "(rating, label) pairs" in message and "10 labels and 4 raters" in message
    assert "by=" in message and "MAX_COUNT_BYTES" in message
    monkeypatch.setattr(kernel, "MAX_COUNT_BYTES", 2 * 1024**3)
    assert len(kf.per_label(df, RATERS, multi_sep="|")) == 10

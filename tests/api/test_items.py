"""kf.items: per-item agreement, consensus labels and the adjudication queue."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from tests.conftest import native_type_matches, to_pandas

#: Fleiss (1971): 30 patients, 6 psychiatrists, 5 diagnoses.
DIAGNOSES = [
    "444444", "222555", "233335", "555555", "222444", "113333", "333355", "113334",
    "114444", "555555", "144444", "124444", "222333", "144444", "224445", "333335",
    "111455", "111112", "224444", "133555", "555555", "244444", "224555", "114444",
    "144445", "222224", "111155", "224444", "133333", "555555",
]  # fmt: skip


def diagnoses() -> pd.DataFrame:
    rows = [[int(c) for c in row] for row in DIAGNOSES]
    return pd.DataFrame(rows, columns=[f"psy{i}" for i in range(1, 7)])


def small() -> dict[str, Any]:
    """Five items, three raters: unanimous, 2-1, a tie (one missing), one rating, none."""
    nan = None
    return {
        "a": ["x", "x", "x", "y", nan],
        "b": ["x", "x", "y", nan, nan],
        "c": ["x", "y", nan, nan, nan],
    }


# ------------------------------------------------------------------------- the numbers


def test_fleiss_per_subject_agreement_and_its_mean_is_p_o() -> None:
    df = diagnoses()
    res = kf.items(df)
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    table = inter_rater.aggregate_raters(df.to_numpy())[0]
    n = table.sum(axis=1)
    want = ((table * (table - 1)).sum(axis=1)) / (n * (n - 1))
    np.testing.assert_allclose(res["p_i"], want, rtol=0, atol=1e-15)
    overall = kf.overall(df, method="fleiss")
    assert res["p_i"].mean() == pytest.approx(overall["p_o"].iloc[0], abs=1e-15)
    assert res["p_i"].mean() == pytest.approx(0.5556, abs=1e-4)  # Fleiss' P-bar
    shares = table.sum(axis=0) / table.sum()
    p_e = (shares**2).sum()
    kappa = (res["p_i"].mean() - p_e) / (1 - p_e)
    assert kappa == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-12)
    assert res["n_ratings"].eq(6).all() and res["item"].tolist() == list(range(30))


def test_mean_p_i_is_p_o_with_missing_labels(rng: np.random.Generator) -> None:
    """Items with two or more ratings: their mean p_i is overall's Fleiss p_o."""
    codes = rng.integers(0, 4, size=(300, 5)).astype(float)
    codes[rng.random(codes.shape) < 0.3] = np.nan
    df = pd.DataFrame(codes, columns=list("abcde"))
    res = kf.items(df)
    two = res["n_ratings"] >= 2
    assert res.loc[~two, "p_i"].isna().all()
    want = kf.overall(df, method="fleiss")["p_o"].iloc[0]
    assert res.loc[two, "p_i"].mean() == pytest.approx(want, abs=1e-14)


def test_one_rating_none_and_ties() -> None:
    res = kf.items(pd.DataFrame(small()))
    assert res["n_ratings"].tolist() == [3, 3, 2, 1, 0]
    assert res["n_distinct"].tolist() == [1, 2, 2, 1, 0]
    assert res["consensus"].tolist()[:2] == ["x", "x"]
    assert pd.isna(res["consensus"].iloc[2]) and res["tied"].tolist() == [0, 0, 1, 0, 0]
    assert res["consensus"].iloc[3] == "y" and res["support"].iloc[3] == 1.0
    assert res["support"].iloc[2] == 0.5  # the share of each tied label
    assert pd.isna(res["consensus"].iloc[4]) and np.isnan(res["support"].iloc[4])
    np.testing.assert_allclose(res["p_i"][:3], [1.0, 1 / 3, 0.0], rtol=0, atol=1e-15)
    assert res["p_i"][3:].isna().all()  # one rating agrees with nobody: no 1.0
    np.testing.assert_allclose(res["entropy"][:4], [0.0, 0.9182958340544896, 1.0, 0.0])
    assert np.isnan(res["entropy"].iloc[4])


def test_tie_rules() -> None:
    df = pd.DataFrame(small())
    first = kf.items(df, ties="first-category", categories=["x", "y"])
    assert first["consensus"].iloc[2] == "x" and bool(first["tied"].iloc[2])
    assert first["support"].iloc[2] == 0.5
    assert kf.items(df, ties="first-category", categories=["y", "x"])["consensus"][2] == "y"
    with pytest.raises(kf.KappaFrameError, match="needs the order of the categories") as err:
        kf.items(df, ties="first-category")  # sorting text would guess the first
    assert err.value.option == "categories"
    tied = pd.DataFrame({"a": ["x", "y"] * 100, "b": ["y", "x"] * 100})
    drawn = kf.items(tied, ties="random", seed=5)["consensus"]
    assert drawn.tolist() == kf.items(tied, ties="random", seed=5)["consensus"].tolist()
    assert set(drawn) == {"x", "y"}
    with pytest.raises(kf.KappaFrameError, match="seed=0") as err:
        kf.items(tied, ties="random")
    assert err.value.option == "seed"
    with pytest.raises(kf.KappaFrameError, match="ties='random'") as err:
        kf.items(tied, seed=1)
    assert err.value.option == "seed"


def test_the_consensus_keeps_the_label_type() -> None:
    res = kf.items(pd.DataFrame({"a": [1, 2, 3], "b": [1, 3, 3], "c": [2, 2, 3]}))
    assert str(res["consensus"].dtype) == "int64"
    assert res["consensus"].tolist() == [1, 2, 3]
    tied = kf.items(pd.DataFrame({"a": [1, 2], "b": [1, 3]}))
    assert tied["consensus"].iloc[0] == 1 and tied["consensus"].isna().iloc[1]
    assert str(tied["consensus"].dtype) == "Int64"  # whole labels stay whole, not 1.0


# ------------------------------------------------------------------------- every backend


def test_every_backend_gives_its_own_frame_and_the_same_numbers(
    constructor: Callable[[dict[str, Any]], Any],
) -> None:
    data = {**small(), "g": ["u", "u", "v", "v", "v"]}
    frame = constructor(data)
    res = kf.items(frame, by="g", reference="c")
    assert native_type_matches(res, frame)
    got = to_pandas(res)
    want = kf.items(pd.DataFrame(data), by="g", reference="c")
    assert list(got.columns) == list(want.columns)
    assert got["item"].tolist() == want["item"].tolist() == [0, 1, 2, 3, 4]
    for col in ("n_ratings", "support", "p_i", "entropy"):
        np.testing.assert_allclose(got[col], want[col], rtol=0, atol=1e-15)
    strings = lambda s: [None if pd.isna(v) else str(v) for v in s]  # noqa: E731
    for col in ("consensus", "reference_label", "correct", "g"):
        assert strings(got[col]) == strings(want[col]), col


def test_long_layout_keys_are_the_item_column_sorted(
    constructor: Callable[[dict[str, Any]], Any],
) -> None:
    long = {
        "doc": ["d3", "d1", "d3", "d1", "d2", "d2", "d3"],
        "who": ["a", "a", "b", "b", "a", "b", "c"],
        "lab": ["x", "y", "x", "y", "x", "y", "y"],
    }
    res = to_pandas(kf.items(constructor(long), item="doc", rater="who", label="lab"))
    assert res["item"].tolist() == ["d1", "d2", "d3"]
    assert res["n_ratings"].tolist() == [2, 2, 3]
    assert res["consensus"].tolist()[0] == "y" and res["consensus"].tolist()[2] == "x"


def test_same_item_in_two_groups_is_two_items() -> None:
    long = pd.DataFrame(
        {
            "g": ["p", "p", "q", "q"],
            "item": [1, 1, 1, 1],
            "who": ["a", "b", "a", "b"],
            "lab": ["x", "x", "x", "y"],
        }
    )
    res = kf.items(long, item="item", rater="who", label="lab", by="g")
    assert res["g"].tolist() == ["p", "q"] and res["p_i"].tolist() == [1.0, 0.0]


def test_wide_items_are_the_index_or_a_column() -> None:
    team = kf.datasets.labeling_team()
    raters = [*kf.datasets.TEAM]
    by_index = kf.items(team.set_index("item"), raters)
    by_column = kf.items(team, raters, item="item")
    assert by_index["item"].tolist() == by_column["item"].tolist() == team["item"].tolist()
    pd.testing.assert_series_equal(by_index["p_i"], by_column["p_i"])
    polars = pytest.importorskip("polars")
    positions = kf.items(polars.from_pandas(team), raters).to_pandas()
    assert positions["item"].tolist() == list(range(len(team)))
    with pytest.raises(kf.KappaFrameError, match="both a rater and the item column"):
        kf.items(team, [*raters, "item"], item="item")


def test_wide_item_column_is_no_rater_by_default() -> None:
    team = kf.datasets.labeling_team().drop(columns=["model_score"])
    res = kf.items(team, by="project", item="item")
    assert "item" in res and list(res.columns)[-1] == "entropy"
    assert res["n_ratings"].max() == 6  # five annotators and gold; not the ids


# ------------------------------------------------------------------------- reference


def test_reference_is_left_out_of_the_consensus() -> None:
    df = pd.DataFrame(
        {
            "a": ["x", "x", "y", "x"],
            "b": ["x", "y", "y", None],
            "gold": ["x", "y", "x", None],
        }
    )
    res = kf.items(df, reference="gold", labels=True)
    assert res["n_ratings"].tolist() == [2, 2, 2, 1]
    assert res["consensus"].tolist()[0] == "x" and pd.isna(res["consensus"].iloc[1])
    assert res["reference_label"].tolist()[:3] == ["x", "y", "x"]
    assert str(res["correct"].dtype) == "boolean"
    assert res["correct"].tolist()[0] is True and res["correct"].tolist()[2] is False
    assert pd.isna(res["correct"].iloc[1]) and pd.isna(res["correct"].iloc[3])
    assert list(res.columns)[-2:] == ["a", "b"]  # the reference is in reference_label


def test_a_missing_reference_is_named() -> None:
    df = pd.DataFrame(small())
    with pytest.raises(kf.KappaFrameError, match="'gold'") as err:
        kf.items(df, reference="gold")
    assert err.value.option == "reference"
    long = pd.DataFrame({"i": [1, 1], "r": ["a", "b"], "l": ["x", "y"]})
    with pytest.raises(kf.KappaFrameError, match="reference 'gold' is not one of") as err:
        kf.items(long, item="i", rater="r", label="l", reference="gold")
    assert err.value.option == "reference"


# ------------------------------------------------------------------------- labels, queue


def test_labels_are_one_column_per_rater() -> None:
    long = pd.DataFrame(
        {"i": [1, 1, 2, 2, 2], "r": [7, 8, 7, 8, 9], "l": ["x", "y", "x", "x", "z"]}
    )
    res = kf.items(long, item="i", rater="r", label="l", labels=True)
    assert list(res.columns)[-3:] == [7, 8, 9]
    assert res[9].tolist()[1] == "z" and pd.isna(res[9].iloc[0])
    with pytest.raises(kf.KappaFrameError, match="rater 'consensus'") as err:
        kf.items(pd.DataFrame({"consensus": ["x"], "b": ["y"]}), labels=True)
    assert err.value.option == "labels"
    assert "consensus" in kf.items(pd.DataFrame({"consensus": ["x"], "b": ["y"]}))


def test_too_many_label_cells_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from kappaframe._api import items as items_module

    monkeypatch.setattr(items_module, "MAX_LABEL_CELLS", 10)
    with pytest.raises(kf.KappaFrameError, match="label columns would hold 15 cells") as err:
        kf.items(pd.DataFrame(small()), labels=True)
    assert err.value.option == "labels"
    assert len(kf.items(pd.DataFrame(small()))) == 5


def test_the_queue_most_contested_first() -> None:
    df = pd.DataFrame(
        {
            "g": ["p"] * 6 + ["q"] * 2,
            "a": ["x", "x", "x", "x", "x", "y", "x", "x"],
            "b": ["x", "x", "y", "y", "y", "x", "y", "x"],
            "c": ["x", "y", "z", "x", "y", "z", "z", "x"],
            "d": ["x", None, "w", "y", "x", "w", "y", "x"],
        }
    )
    res = kf.items(df, by="g")
    np.testing.assert_allclose(res["p_i"], [1, 1 / 3, 0, 1 / 3, 1 / 3, 0, 1 / 6, 1])
    np.testing.assert_allclose(res["support"], [1, 2 / 3, 0.25, 0.5, 0.5, 0.25, 0.5, 1])
    queue = kf.items(df, by="g", disagreements=True)
    # p: items 2 and 5 (p_i 0, support 0.25: item order), 3 and 4 (p_i 1/3, support 0.5),
    # 1 (p_i 1/3, support 2/3); then q: item 6.
    assert queue["item"].tolist() == [2, 5, 3, 4, 1, 6]
    assert queue["g"].tolist() == ["p"] * 5 + ["q"]
    assert list(queue.columns)[-4:] == ["a", "b", "c", "d"]  # every rater's label
    assert pd.isna(queue["d"].iloc[4]) and queue["c"].iloc[0] == "z"
    below = kf.items(df, by="g", min_p=0.2)
    assert below["item"].tolist() == [2, 5, 6]
    weak = kf.items(df, by="g", max_support=0.25)
    assert weak["item"].tolist() == [2, 5]
    both = kf.items(df, by="g", disagreements=True, max_support=0.5, labels=False)
    assert both["item"].tolist() == [2, 5, 3, 4, 6] and list(both.columns)[-1] == "entropy"
    single = pd.DataFrame({"a": ["x", "y"], "b": ["x", None]})
    assert kf.items(single, min_p=1.0)["item"].tolist() == []  # one rating has no p_i


def test_duplicates_as_elsewhere() -> None:
    long = pd.DataFrame({"i": [1, 1, 1], "r": ["a", "a", "b"], "l": ["x", "y", "y"]})
    with pytest.raises(kf.KappaFrameError, match="rated item 1 more than once"):
        kf.items(long, item="i", rater="r", label="l")
    first = kf.items(long, item="i", rater="r", label="l", duplicates="first")
    last = kf.items(long, item="i", rater="r", label="l", duplicates="last")
    assert first["p_i"].iloc[0] == 0.0 and last["p_i"].iloc[0] == 1.0


def test_the_input_is_not_modified() -> None:
    df = pd.DataFrame({**small(), "g": list("uuvvv")})
    before = df.copy()
    kf.items(df, by="g", reference="c", disagreements=True)
    pd.testing.assert_frame_equal(df, before)


def test_accessor_is_the_function() -> None:
    df = diagnoses()
    pd.testing.assert_frame_equal(
        df.kappa.items(disagreements=True), kf.items(df, disagreements=True)
    )


# ------------------------------------------------------------------------- options first


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"consensus": "vote"}, "consensus"),
        ({"ties": "coin"}, "ties"),
        ({"max_iter": 0}, "max_iter"),
        ({"max_iter": 50}, "max_iter"),  # only for dawid-skene
        ({"tol": -1.0}, "tol"),
        ({"disagreements": "yes"}, "disagreements"),
        ({"min_p": 2}, "min_p"),
        ({"max_support": -0.1}, "max_support"),
        ({"labels": "all"}, "labels"),
        ({"reference": ["a", "b"]}, "reference"),
        ({"duplicates": "keep"}, "duplicates"),
    ],
)
def test_a_bad_option_is_refused_before_the_file_is_read(
    options: dict[str, Any], option: str, tmp_path: Any
) -> None:
    corrupt = tmp_path / "ratings.csv.xz"
    corrupt.write_bytes(b"\xfd7zXZ\x00 this is not xz data")
    with pytest.raises(kf.KappaFrameError) as refused:
        kf.items(str(corrupt), **options)
    assert refused.value.option == option, str(refused.value)


def test_a_by_column_named_like_the_output_is_refused() -> None:
    with pytest.raises(kf.KappaFrameError, match="by column 'consensus' has the name"):
        kf.items(pd.DataFrame({"consensus": ["x"], "a": ["x"], "b": ["y"]}), by="consensus")


# ------------------------------------------------------------------------- lazy, crowd


def test_a_lazyframe_gives_a_plan_with_its_schema() -> None:
    pl = pytest.importorskip("polars")
    team = pl.from_pandas(kf.datasets.labeling_team())
    raters = [*kf.datasets.TEAM]
    plan = kf.items(team.lazy(), raters, by="project", item="item", reference="gold", labels=True)
    assert isinstance(plan, pl.LazyFrame)
    schema = plan.collect_schema()
    got = plan.collect()
    assert got.schema == schema
    assert schema["consensus"] == pl.String and schema["correct"] == pl.Boolean
    assert schema["item"] == team.schema["item"] and schema["project"] == pl.String
    want = kf.items(team, raters, by="project", item="item", reference="gold", labels=True)
    assert got.equals(want)


def test_a_lazyframe_plan_reads_the_data_at_collect(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pl = pytest.importorskip("polars")
    from kappaframe._api import items as items_module

    path = tmp_path / "r.csv"
    pd.DataFrame(small()).to_csv(path, index=False)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("read at call time")

    with monkeypatch.context() as patched:
        patched.setattr(items_module, "gather_units", refuse)
        plan = kf.items(pl.scan_csv(path), reference="c")
        assert plan.collect_schema().names()[-2:] == ["reference_label", "correct"]
    pd.DataFrame({"a": ["x"] * 2, "b": ["y"] * 2, "c": ["x"] * 2}).to_csv(path, index=False)
    assert plan.collect()["n_ratings"].to_list() == [2, 2]  # the data as it is now


def test_long_layout_lazy_labels_compute_at_once() -> None:
    pl = pytest.importorskip("polars")
    long = pl.DataFrame({"i": [1, 1, 2], "r": ["a", "b", "a"], "l": ["x", "y", "x"]})
    res = kf.items(long.lazy(), item="i", rater="r", label="l", disagreements=True)
    assert isinstance(res, pl.LazyFrame)
    assert res.collect().columns[-2:] == ["a", "b"]


def test_a_crowd_stays_sparse_and_equals_the_wide_layout(rng: np.random.Generator) -> None:
    n_items, n_raters = 400, 300
    who = np.stack([rng.choice(n_raters, 3, replace=False) for _ in range(n_items)])
    labels = rng.integers(0, 3, size=(n_items, 3))
    long = pd.DataFrame(
        {"item": np.repeat(np.arange(n_items), 3), "who": who.ravel(), "lab": labels.ravel()}
    )
    res = kf.items(long, item="item", rater="who", label="lab")
    wide = long.pivot_table(index="item", columns="who", values="lab", aggfunc="first")
    want = kf.items(wide)
    np.testing.assert_allclose(res["p_i"], want["p_i"], rtol=0, atol=1e-15)
    assert res["consensus"].isna().tolist() == want["consensus"].isna().tolist()
    given = res["consensus"].notna()
    assert (res["consensus"][given].astype(float) == want["consensus"][given]).all()


def test_dask_is_computed_and_given_back_as_dask() -> None:
    dd = pytest.importorskip("dask.dataframe")
    team = kf.datasets.labeling_team()
    raters = [*kf.datasets.TEAM]
    res = kf.items(dd.from_pandas(team, npartitions=3), raters, by="project", labels=True)
    assert isinstance(res, dd.DataFrame)
    pd.testing.assert_frame_equal(
        res.compute().reset_index(drop=True),
        kf.items(team, raters, by="project", labels=True),
        check_dtype=False,
    )


def test_an_engine_is_refused_naming_the_way_out() -> None:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    con = duckdb.connect()
    try:
        con.register("t", pd.DataFrame(small()))
        with pytest.raises(kf.KappaFrameError, match="needs every rating of every item"):
            kf.items(con.sql("SELECT * FROM t"))
    finally:
        con.close()


# ------------------------------------------------------------------------- Dawid-Skene


def test_dawid_skene_options_belong_to_dawid_skene() -> None:
    with pytest.raises(kf.KappaFrameError, match="consensus='dawid-skene'") as err:
        kf.items(diagnoses(), tol=1e-3)
    assert err.value.option == "tol"


def test_dawid_skene_agrees_with_a_clear_majority() -> None:
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, 300)
    cols = {}
    for r in range(6):
        good = rng.random(300) < 0.85
        cols[f"r{r}"] = np.where(good, truth, rng.integers(0, 3, 300))
    df = pd.DataFrame(cols)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = kf.items(df, consensus="dawid-skene", max_iter=200)
    assert (res["consensus"].astype(float) == truth).mean() > 0.95
    assert res["support"].between(0, 1).all()
    majority = kf.items(df, ties="first-category")
    same = (res["consensus"].astype(float) == majority["consensus"].astype(float)).mean()
    assert same > 0.9


def test_dawid_skene_says_when_it_cannot_be_identified() -> None:
    one_each = pd.DataFrame({"i": [1, 2, 3], "r": ["a", "b", "c"], "l": ["x", "y", "x"]})
    with pytest.raises(kf.KappaFrameError):
        kf.items(one_each, item="i", rater="r", label="l", consensus="dawid-skene")


def test_dawid_skene_is_called_per_group_as_the_contract_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The call, checked against a stand-in model: codes within each group, options passed."""
    from kappaframe._stats.consensus import Consensus

    calls: list[dict[str, Any]] = []

    def dawid_skene(
        item: np.ndarray,
        rater: np.ndarray,
        label: np.ndarray,
        n_items: int,
        n_raters: int,
        k: int,
        **options: Any,
    ) -> Consensus:
        calls.append({"item": item, "rater": rater, "n_items": n_items, "n_raters": n_raters})
        calls[-1].update(k=k, **options)
        counts = np.zeros((n_items, k), dtype=np.int64)
        np.add.at(counts, (item, label), 1)
        with np.errstate(invalid="ignore"):
            posterior = counts / counts.sum(axis=1, keepdims=True)
        tied = np.zeros(n_items, dtype=bool)
        return Consensus(posterior, counts.argmax(axis=1), posterior.max(axis=1), tied)

    from kappaframe._stats import dawid_skene as model

    monkeypatch.setattr(model, "dawid_skene", dawid_skene)
    long = pd.DataFrame(
        {
            "g": ["q", "q", "q", "p", "p", "p", "p", "p"],
            "i": [5, 5, 6, 1, 1, 2, 2, 3],
            "r": ["c", "d", "c", "a", "b", "a", "gold", "gold"],
            "l": ["y", "y", "x", "x", "y", "y", "y", "x"],
        }
    )
    res = kf.items(
        long, item="i", rater="r", label="l", by="g", reference="gold",
        consensus="dawid-skene", max_iter=7, tol=1e-3,
    )  # fmt: skip
    assert [c["n_items"] for c in calls] == [3, 2]  # group p (items 1, 2, 3), then q (5, 6)
    assert [c["n_raters"] for c in calls] == [2, 2]  # the raters of each group, not gold
    assert calls[0]["item"].tolist() == [0, 0, 1] and calls[1]["item"].tolist() == [0, 0, 1]
    assert calls[0]["rater"].tolist() == [0, 1, 0]
    assert {c["k"] for c in calls} == {2}
    assert calls[0]["max_iter"] == 7 and calls[0]["tol"] == 1e-3
    assert calls[0]["ties"] == "missing" and calls[0]["seed"] is None
    assert res["consensus"].tolist()[:2] == ["x", "y"] and pd.isna(res["consensus"].iloc[2])
    assert res["consensus"].tolist()[3:] == ["y", "x"]  # item 3: rated by gold only
    np.testing.assert_array_equal(res["support"], [0.5, 1.0, np.nan, 1.0, 1.0])
    assert [str(v) for v in res["correct"]] == ["<NA>", "True", "<NA>", "<NA>", "<NA>"]


def test_no_rows_and_no_labels(constructor: Callable[[dict[str, Any]], Any]) -> None:
    empty = {"a": pd.Series([], dtype=object), "b": pd.Series([], dtype=object)}
    res = to_pandas(kf.items(constructor(empty)))
    assert len(res) == 0 and list(res.columns)[:2] == ["item", "n_ratings"]
    blank = to_pandas(kf.items(pd.DataFrame({"a": [None, None], "b": [None, None]})))
    assert blank["n_ratings"].tolist() == [0, 0] and blank["consensus"].isna().all()
    assert blank["support"].isna().all() and not blank["tied"].any()


def test_dask_long_layout_keeps_the_raters_order() -> None:
    dd = pytest.importorskip("dask.dataframe")
    long = pd.DataFrame(
        {
            "i": [1, 1, 2, 2, 3, 3],
            "r": ["r3", "r1", "r3", "r1", "r1", "r2"],
            "l": ["x", "y", "x", "x", "y", "y"],
        }
    )
    options: dict[str, Any] = {"item": "i", "rater": "r", "label": "l", "labels": True}
    got = kf.items(dd.from_pandas(long, npartitions=3), ["r3", "r1"], **options).compute()
    want = kf.items(long, ["r3", "r1"], **options)
    assert list(got.columns)[-2:] == list(want.columns)[-2:] == ["r3", "r1"]
    assert got["n_ratings"].tolist() == want["n_ratings"].tolist() == [2, 2, 1]


def test_dawid_skene_over_the_memory_limit_is_refused_and_the_majority_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kappaframe._count import kernel

    rng = np.random.default_rng(2)
    truth = rng.integers(0, 300, 400)  # many labels: posteriors of 400 items x ~300
    frame = pd.DataFrame(
        {
            f"r{j}": np.where(rng.random(400) < 0.8, truth, rng.integers(0, 300, 400))
            for j in range(3)
        }
    )
    monkeypatch.setattr(kernel, "MAX_COUNT_BYTES", 400_000)
    with pytest.raises(kf.KappaFrameError, match="Dawid-Skene would hold") as err:
        kf.items(frame, consensus="dawid-skene")
    assert "400 items x" in str(err.value) and "consensus='majority'" in str(err.value)
    assert err.value.option == "consensus"
    res = kf.items(frame)  # the majority: memory by the ratings, no limit reached
    assert len(res) == 400 and res["n_ratings"].eq(3).all()
    monkeypatch.setattr(kernel, "MAX_COUNT_BYTES", 2 * 1024**3)
    fitted = kf.items(frame, consensus="dawid-skene")
    assert (fitted["consensus"] == pd.Series(truth)).mean() > 0.8

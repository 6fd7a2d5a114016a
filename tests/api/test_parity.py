"""Parity: the same ratings and the same options give the same numbers on every way in.

Each OPTION (a dict of ``pairwise`` keyword arguments) goes through each WAY IN (the shared
``way_in`` fixture of ``tests/conftest.py``, ``tests/ways.py``: one pandas frame pushed
through a frame, a file, a scan, an engine or the command line, the result read back as
pandas) and must give the numbers of the reference, the pandas wide-layout call
``kf.pairwise(pandas_df, by="group", ...)``, to 1e-12 (absolute), with the same rows
(``min_overlap`` drops the same pairs everywhere).

``kf.items``, ``kf.rater_confusion`` and ``kf.overall`` (its large-sample and bootstrap
intervals for every coefficient) have their own matrices below, compared with their pandas
wide-layout call.

Only the public API is used, with one exception: the crowd (sparse long-layout) path is forced
by monkeypatching ``use_crowd`` in the private module that holds the crowd counting (see
:func:`tests.ways.crowd_module`).

Cells known not to work today, written as they SHOULD work (no xfail, no skip):

- ``asymmetric``: a non-symmetric disagreement matrix (Cohen 1968) is refused by ``pairwise``
  ("weights matrix must be symmetric"); a fix is under way.
- ``counts_parquet`` with weights: ``Counts.from_frame`` re-sorts the categories when they are
  not passed; the stored cells are to carry the category order (fix under way).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe.cli import main as cli_main
from tests.ways import CliRefused, NotOffered, WayIn, cli_flags, ways

# ----------------------------------------------------------------------------- the data

#: Ordered categories whose sorted order ("high", "low", "mid") is NOT the category order, so
#: that any way in that loses the order changes weighted kappa.
CATS = ["low", "mid", "high"]
RATERS = [f"r{i}" for i in range(5)]  # sorted ids == wide column order (long layout sorts)
BY = "group"
KEYS = [BY, "rater_a", "rater_b"]
ATOL = 1e-12

#: Cohen (1968)-style disagreement weights, NOT symmetric; rows are rater_a's labels.
W_ASYM = np.array([[0.0, 1.0, 3.0], [2.0, 0.0, 1.0], [4.0, 2.0, 0.0]])


def make_ratings() -> pd.DataFrame:
    """120 items, 5 raters, 3 ordered labels, ~10% missing, 3 groups of unequal size.

    Raters copy a latent label with probability 0.6 (moderate kappas, none undefined). ``r4``
    misses ~30% of its labels, the others ~5%: the pairs with ``r4`` (and every pair in the
    smallest group) share fewer than 30 items, so ``min_overlap=30`` drops some rows, not all.
    """
    rng = np.random.default_rng(20240611)
    n = 120
    data: dict[str, Any] = {BY: rng.choice(["g0", "g1", "g2"], size=n, p=[0.4, 0.33, 0.27])}
    latent = rng.integers(0, 3, size=n)
    for name, missing in zip(RATERS, [0.05, 0.05, 0.05, 0.05, 0.30], strict=True):
        copy = rng.random(n) < 0.6
        codes = np.where(copy, latent, rng.integers(0, 3, size=n))
        labels = np.array(CATS, dtype=object)[codes]
        labels[rng.random(n) < missing] = np.nan
        data[name] = labels
    return pd.DataFrame(data)


DF = make_ratings()


# ----------------------------------------------------------------------------- the options

OPTIONS: dict[str, dict[str, Any]] = {
    "unweighted": {},
    "linear": {"weights": "linear"},
    "quadratic": {"weights": "quadratic"},
    "asymmetric": {"weights": W_ASYM},
    "ci": {"ci": 0.95},
    "stats_all": {"stats": "all"},
    "reference": {"reference": "r4"},
    "min_overlap": {"min_overlap": 30},
    "min_items": {"min_items": 40},  # some pairs of some groups share fewer items
    "fine_print": {
        "ci": 0.9,
        "alternative": "greater",
        "ci_dist": "t",
        "population": 500,
        "benchmark": "probabilistic",
    },
    "gwet_weights": {"weights": "radical"},
    "distance_vector": {"weights": [0.0, 0.25, 1.0]},
    "bootstrap": {"ci": 0.9, "ci_method": "bootstrap", "n_boot": 200, "seed": 3},
    "kappa0": {"ci": 0.95, "kappa0": 0.3},  # z and p_value against kappa = 0.3
}

# ----------------------------------------------------------------------------- the ways in

#: ``kf.pairwise`` through every way in (``tests/ways.py``, the ``way_in`` fixture).
WAYS = ways(
    "pandas",
    "polars",
    "polars_lazy",
    "long_pandas",
    "long_polars",
    "crowd",
    "counts_parts",
    "counts_parquet",
    "scan_parquet",
    "scan_csv",
    "dask",
    "cli",
    "duckdb",
    "ibis",
    "spark",
)

WayInFixture = Callable[..., WayIn]


def through(
    way_in: WayInFixture, way: str, categories: list[str] | None, df: pd.DataFrame = DF
) -> Callable[..., pd.DataFrame]:
    """``kf.<function>(df, by=BY, categories=..., ...)`` through the way in ``way``."""
    cats = {} if categories is None else {"categories": categories}
    call = way_in(way, df.copy(), raters=RATERS)
    return lambda function, *args, **opts: call(function, *args, by=BY, **cats, **opts)


#: Cells a way in cannot express: excluded from the matrix (not skipped), and checked by
#: :func:`test_not_offered_cells_really_lack_the_option`.
NOT_OFFERED: dict[tuple[str, str], str] = {
    ("cli", "asymmetric"): "the CLI takes named weights only",
    ("cli", "distance_vector"): "the CLI takes named weights only",
}

#: Ways that also run without categories= (text labels with no declared order: the same
#: numbers where no order is needed, the same refusal where weights need one).
#: The Counts ways are built with categories= by design (parts must share one order).
WITHOUT_CATEGORIES = ways(
    "polars",
    "polars_lazy",
    "long_pandas",
    "long_polars",
    "crowd",
    "scan_parquet",
    "scan_csv",
    "dask",
    "cli",
    "duckdb",
    "ibis",
)


def cells(names: list[str]) -> list[Any]:
    return [
        pytest.param(way, option, id=f"{way}-{option}")
        for way in names
        for option in OPTIONS
        if (way, option) not in NOT_OFFERED
    ]


# ----------------------------------------------------------------------------- comparing


def normalise(res: pd.DataFrame) -> pd.DataFrame:
    """Sort by (group, rater_a, rater_b) compared as strings; plain index."""
    res = res.copy()
    for key in KEYS:
        res[key] = res[key].astype(object).map(str)
    return res.sort_values(KEYS, kind="stable").reset_index(drop=True)


def _strings(col: pd.Series) -> list[str | None]:
    return [None if pd.isna(v) else str(v) for v in col.astype(object)]


def assert_same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """Same columns, same rows (keys exactly), numbers to 1e-12 absolute (NaN == NaN)."""
    got, want = normalise(got), normalise(want)
    assert list(got.columns) == list(want.columns)
    assert got[KEYS].to_numpy().tolist() == want[KEYS].to_numpy().tolist()
    for col in want.columns:
        if col in KEYS or col == "interpretation":
            continue
        np.testing.assert_allclose(
            got[col].to_numpy(dtype=float, na_value=np.nan),
            want[col].to_numpy(dtype=float, na_value=np.nan),
            rtol=0,
            atol=ATOL,
            equal_nan=True,
            err_msg=f"column {col!r}",
        )
    assert _strings(got["interpretation"]) == _strings(want["interpretation"])


# ----------------------------------------------------------------------------- the matrix


def test_data_is_as_designed() -> None:
    """No undefined kappa; min_overlap=30 drops some rows but not all; r4 is the sparse one."""
    res = kf.pairwise(DF, by=BY, categories=CATS)
    assert len(res) == 3 * 10
    assert res["kappa"].notna().all()
    assert res["kappa"].between(0.0, 0.8).all()
    kept = kf.pairwise(DF, by=BY, categories=CATS, min_overlap=30)
    assert 0 < len(kept) < len(res)
    assert 0.05 < DF[RATERS].isna().to_numpy().mean() < 0.15
    assert sorted(set(DF["r0"].dropna())) != CATS  # sorted order is not the category order


@pytest.mark.parametrize(("way", "option"), cells(WAYS))
def test_parity(way: str, option: str, way_in: WayInFixture) -> None:
    """Every way in, every option, categories=CATS: the numbers of the pandas wide call."""
    opts = OPTIONS[option]
    want = kf.pairwise(DF, by=BY, categories=CATS, **opts)
    got = through(way_in, way, CATS)(kf.pairwise, **opts)
    assert_same(got, want)


@pytest.mark.parametrize(("way", "option"), cells(WITHOUT_CATEGORIES))
def test_parity_without_categories(way: str, option: str, way_in: WayInFixture) -> None:
    """No categories= anywhere: the same numbers where no order is needed, else one refusal.

    The labels are text with no declared order, so every option that weights
    disagreements is refused on every way in, naming the rater columns (the label column
    in the long layout) and the way out; sorting the labels would guess the order.
    """
    opts = OPTIONS[option]
    call = through(way_in, way, None)
    if opts.get("weights") is not None:
        with pytest.raises((kf.KappaFrameError, CliRefused)) as refused:
            call(kf.pairwise, **opts)
        message = str(refused.value)
        assert "needs the order of the categories" in message
        assert "--categories" in message if way == "cli" else "categories=[...]" in message
        assert "'r0'" in message or "'label'" in message
        return
    want = kf.pairwise(DF, by=BY, **opts)
    got = call(kf.pairwise, **opts)
    assert_same(got, want)


@pytest.mark.parametrize("option", list(OPTIONS))
def test_accessor_is_identical(option: str) -> None:
    """``df.kappa.pairwise(...)`` is ``kf.pairwise(df, ...)``: identical frames."""
    opts = OPTIONS[option]
    want = kf.pairwise(DF, by=BY, categories=CATS, **opts)
    got = DF.kappa.pairwise(by=BY, categories=CATS, **opts)
    pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_inputs_are_not_modified() -> None:
    before = DF.copy()
    kf.pairwise(DF, by=BY, categories=CATS, weights="linear")
    pd.testing.assert_frame_equal(DF, before)


# ----------------------------------------------------------------------------- asymmetric by hand


def hand_weighted(a: np.ndarray, b: np.ndarray, w: np.ndarray) -> tuple[float, float, float]:
    """p_o, p_e, kappa_w with disagreement weights ``w`` (rows: ``a``'s labels), scaled to 1."""
    k = w.shape[0]
    both = (a >= 0) & (b >= 0)
    obs = np.zeros((k, k))
    np.add.at(obs, (a[both], b[both]), 1.0)
    obs /= obs.sum()
    chance = np.outer(obs.sum(axis=1), obs.sum(axis=0))
    ws = w / w.max()
    d_o, d_e = float((ws * obs).sum()), float((ws * chance).sum())
    return 1.0 - d_o, 1.0 - d_e, 1.0 - d_o / d_e


def codes_of(col: pd.Series) -> np.ndarray:
    return np.array([-1 if pd.isna(v) else CATS.index(v) for v in col], dtype=np.intp)


def test_asymmetric_weights_by_hand() -> None:
    """kappa_w = 1 - sum(W P_obs) / sum(W outer(rows, cols)), rows = rater_a's labels."""
    res = normalise(kf.pairwise(DF, by=BY, categories=CATS, weights=W_ASYM))
    checked = 0
    for group, sub in DF.groupby(BY):
        for i, ra in enumerate(RATERS):
            for rb in RATERS[i + 1 :]:
                p_o, p_e, kappa = hand_weighted(codes_of(sub[ra]), codes_of(sub[rb]), W_ASYM)
                row = res[(res[BY] == group) & (res["rater_a"] == ra) & (res["rater_b"] == rb)]
                assert len(row) == 1
                np.testing.assert_allclose(
                    row[["p_o", "p_e", "kappa"]].to_numpy(dtype=float)[0],
                    [p_o, p_e, kappa],
                    rtol=0,
                    atol=ATOL,
                    err_msg=f"{group} {ra} {rb}",
                )
                checked += 1
    assert checked == 30


def test_asymmetric_weights_really_are_asymmetric_here() -> None:
    """The data tells W from its transpose, so the orientation is really tested (numpy only)."""
    sub = DF[DF[BY] == "g0"]
    a, b = codes_of(sub["r0"]), codes_of(sub["r1"])
    assert not np.allclose(W_ASYM, W_ASYM.T)
    kappa = hand_weighted(a, b, W_ASYM)[2]
    transposed = hand_weighted(a, b, W_ASYM.T)[2]
    assert abs(kappa - transposed) > 1e-3


# ----------------------------------------------------------------------------- the CLI


def report_help(capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    try:
        code = cli_main(["report", "--help"])
    except SystemExit as exit_info:  # argparse's own exit, if main lets it through
        code = exit_info.code
    assert code in (0, None)
    return capsys.readouterr().out


def test_not_offered_cells_really_lack_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    """NOT_OFFERED lists only cells whose way in really lacks the option; the rest exist."""
    text = report_help(capsys)
    match = re.search(r"--weights \{([^}]*)\}", text)
    assert match is not None, "no --weights choices in `kappaframe report --help`"
    named = set(match.group(1).split(","))
    assert named == {"linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar"}
    for way, option in NOT_OFFERED:
        assert way == "cli" and option in OPTIONS
        weights = OPTIONS[option].get("weights")
        assert weights is not None and not isinstance(weights, str), (way, option)
        with pytest.raises(NotOffered):
            cli_flags(OPTIONS[option])
    # every other option has its flag (so nothing else belongs in the table)
    flags = ("--ci", "--stats", "--reference", "--min-overlap", "--categories", "--by")
    flags += ("--alternative", "--ci-dist", "--population", "--benchmark")
    flags += ("--ci-method", "--n-boot", "--seed", "--overall")
    for flag in flags:
        assert re.search(rf"(^|\s){re.escape(flag)}\s", text), flag
    for option, opts in OPTIONS.items():
        if ("cli", option) not in NOT_OFFERED:
            cli_flags(opts)  # raises if an option has no flag


def test_cli_csv_is_full_precision(way_in: WayInFixture) -> None:
    """The CSV on stdout carries every digit: floats round-trip exactly (repr)."""
    got = normalise(through(way_in, "cli", CATS)(kf.pairwise, ci=0.95))
    want = normalise(kf.pairwise(DF, by=BY, categories=CATS, ci=0.95))
    for col in ["p_o", "p_e", "kappa", "se", "ci_low", "ci_high", "z", "p_value"]:
        np.testing.assert_array_equal(got[col].to_numpy(float), want[col].to_numpy(float), col)


# ----------------------------------------------------------------------------- clusters

#: The ratings with a cluster column: 4 consecutive items per cluster (a patient's lesions).
CLUSTERED = DF.assign(patient=[f"p{i // 4:02d}" for i in range(len(DF))])
CLUSTER_OPTIONS: dict[str, dict[str, Any]] = {
    "cluster": {"ci": 0.95, "cluster": "patient"},
    "cluster_weighted": {"ci": 0.9, "cluster": "patient", "weights": "quadratic"},
    "cluster_bootstrap": {
        "ci": 0.9,
        "cluster": "patient",
        "ci_method": "bootstrap",
        "n_boot": 200,
        "seed": 3,
    },
}
#: Ways that read every rating in memory: the numbers of the pandas wide call.
CLUSTER_WAYS = ways(
    "pandas", "accessor", "shuffled", "polars", "long_pandas", "long_polars", "crowd", "cli"
)
#: Ways that read in parts or count in an engine: refused, with the way out (collect first).
CLUSTER_REFUSED = ways(
    "polars_lazy", "long_lazy", "scan_csv", "dask", "duckdb", "ibis", "spark", "cli_stream"
)


@pytest.mark.parametrize("option", list(CLUSTER_OPTIONS))
@pytest.mark.parametrize("way", CLUSTER_WAYS)
def test_parity_of_clusters(way: str, option: str, way_in: WayInFixture) -> None:
    """cluster= on every way that holds the ratings: the numbers of the pandas wide call."""
    opts = CLUSTER_OPTIONS[option]
    want = kf.pairwise(CLUSTERED, RATERS, by=BY, categories=CATS, **opts)
    got = through(way_in, way, CATS, CLUSTERED)(kf.pairwise, **opts)
    assert_same(got, want)


@pytest.mark.parametrize("way", CLUSTER_REFUSED)
def test_clusters_in_parts_are_refused_with_the_way_out(way: str, way_in: WayInFixture) -> None:
    with pytest.raises((kf.KappaFrameError, CliRefused), match=r"needs every rating in memory"):
        through(way_in, way, CATS, CLUSTERED)(kf.pairwise, **CLUSTER_OPTIONS["cluster"])


# ----------------------------------------------------------------------------- windows


#: Agreement over time: overlapping six-week windows, a new one every two weeks.
WINDOWS: dict[str, Any] = {"time": "t", "every": "2w", "period": "6w"}
WINDOW_WAYS = ways(
    "pandas",
    "polars",
    "polars_lazy",
    "long_pandas",
    "long_polars",
    "crowd",
    "scan_parquet",
    "scan_csv",
    "dask",
    "cli",
)


def with_time(df: pd.DataFrame) -> pd.DataFrame:
    """The ratings with a time column: one item every 17 hours from a Wednesday on."""
    hours = pd.to_timedelta(np.arange(len(df)) * 17, unit="h")
    return df.assign(t=pd.Timestamp("2024-01-03 09:00") + hours)


def _window_numbers(res: pd.DataFrame) -> pd.DataFrame:
    """The window bounds as numbers (nanoseconds), whatever type the way in gave them."""
    res = res.copy()
    for name in ("window_start", "window_end"):
        res[name] = pd.to_datetime(res[name]).astype("datetime64[ns]").astype("int64")
    return res


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")  # an edge window
@pytest.mark.parametrize("way", WINDOW_WAYS)
def test_parity_windows(way: str, way_in: WayInFixture) -> None:
    """Windows over time: the same windows and numbers on every way in that reads rows."""
    want = kf.pairwise(with_time(DF), by=BY, categories=CATS, **WINDOWS)
    assert want["window_start"].nunique() > 4
    got = through(way_in, way, CATS, with_time(DF))(kf.pairwise, **WINDOWS)
    assert list(got.columns[:3]) == [BY, "window_start", "window_end"]
    assert_same(_window_numbers(got), _window_numbers(want))


#: Windows an engine computes in its own query: one grid of whole cells (period = every).
GRID_WINDOWS: dict[str, Any] = {"time": "t", "every": "2w"}


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")  # an edge window
@pytest.mark.parametrize("way", ways("duckdb", "ibis", "spark", "polars_lazy", "dask", "cli"))
def test_parity_grid_windows(way: str, way_in: WayInFixture) -> None:
    """Calendar windows counted inside DuckDB and Spark: the windows and numbers of pandas."""
    want = kf.pairwise(with_time(DF), by=BY, categories=CATS, **GRID_WINDOWS)
    got = through(way_in, way, CATS, with_time(DF))(kf.pairwise, **GRID_WINDOWS)
    assert_same(_window_numbers(got), _window_numbers(want))


# ----------------------------------------------------------------------------- items


#: ``kf.items`` options through every way in (the same ratings, the same items table).
ITEM_OPTIONS: dict[str, dict[str, Any]] = {
    "plain": {},
    "first_category": {"ties": "first-category"},
    "random_ties": {"ties": "random", "seed": 3},
    "reference": {"reference": "r4"},
    "labels": {"labels": True},
    "queue": {"disagreements": True},
    "thresholds": {"min_p": 0.5, "max_support": 0.75, "labels": False},
    "dawid_skene": {"consensus": "dawid-skene"},
}

#: Columns compared as text (labels, flags, keys); the others as numbers.
ITEM_TEXT = ("group", "consensus", "reference_label", "correct", "tied", *RATERS)


#: ``kf.items`` through every way in that reads its rows, and ``kappaframe items``.
ITEM_WAYS = ways(
    "pandas",
    "polars",
    "polars_lazy",
    "long_pandas",
    "long_polars",
    "scan_parquet",
    "scan_csv",
    "dask",
    "cli",
)


def item_key(value: Any) -> int:
    """Wide ways name items by row (0, 1, ...), long ways by the item column ("i000", ...)."""
    return int(str(value).lstrip("i"))


def assert_same_items(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """Same columns, rows in the same order, numbers to 1e-12, labels as text."""
    assert list(map(str, got.columns)) == list(map(str, want.columns))
    got, want = got.reset_index(drop=True), want.reset_index(drop=True)
    assert [item_key(v) for v in got["item"]] == [item_key(v) for v in want["item"]]
    for col in want.columns:
        if col == "item":
            continue
        if col in ITEM_TEXT:
            assert _strings(got[col]) == _strings(want[col]), f"column {col!r}"
            continue
        np.testing.assert_allclose(
            got[col].to_numpy(dtype=float, na_value=np.nan),
            want[col].to_numpy(dtype=float, na_value=np.nan),
            rtol=0,
            atol=ATOL,
            equal_nan=True,
            err_msg=f"column {col!r}",
        )


def item_cells() -> list[Any]:
    return [
        pytest.param(way, option, id=f"{way}-{option}")
        for way in ITEM_WAYS
        for option in ITEM_OPTIONS
    ]


@pytest.mark.parametrize(("way", "option"), item_cells())
def test_items_parity(way: str, option: str, way_in: WayInFixture) -> None:
    """Every way in gives the items table of the pandas wide call: same rows, same order."""
    opts = ITEM_OPTIONS[option]
    want = kf.items(DF, by=BY, categories=CATS, **opts)
    assert len(want) > 0
    assert_same_items(through(way_in, way, CATS)(kf.items, **opts), want)


def test_items_data_is_as_designed() -> None:
    """Ties to break, contested items to queue, a reference that disagrees at times."""
    res = kf.items(DF, by=BY, categories=CATS, reference="r4")
    assert res["tied"].sum() > 5 and res["correct"].eq(False).sum() > 5
    assert 0 < len(kf.items(DF, by=BY, min_p=0.5, max_support=0.75)) < len(DF)
    assert (res["n_ratings"] < 2).sum() > 0  # some items with one rating (no p_i)


#: ``kf.rater_confusion`` through every way in that reads frames (it has no command).
CONFUSION_WAYS = ways("polars", "polars_lazy", "long_pandas", "scan_csv", "dask")


@pytest.mark.parametrize("way", CONFUSION_WAYS)
def test_rater_confusion_parity(way: str, way_in: WayInFixture) -> None:
    """Every way in fits the same Dawid-Skene models: the same matrices, rows in order."""
    want = kf.rater_confusion(DF, by=BY, categories=CATS)
    got = through(way_in, way, CATS)(kf.rater_confusion).reset_index(drop=True)
    assert list(map(str, got.columns)) == list(map(str, want.columns))
    for col in ("group", "rater", "true_label", "given_label"):
        assert _strings(got[col]) == _strings(want[col]), col
    for col in ("probability", "n_ratings"):
        np.testing.assert_allclose(
            got[col].to_numpy(dtype=float), want[col].to_numpy(dtype=float), rtol=0, atol=ATOL
        )


# ----------------------------------------------------------------------------- set labels

#: Multi-label ratings: each rating a set of labels (no empty sets: a CSV cell cannot hold
#: one, an empty cell is missing). ``overall(distance=...)`` and ``per_label`` options.
SET_LABELS = list("abcde")
SET_OPTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "masi": ("overall", {"method": "krippendorff", "distance": "masi"}),
    "jaccard_ci": ("overall", {"method": "krippendorff", "distance": "jaccard", "ci": 0.95}),
    "label_cohen": ("per_label", {"method": "cohen", "ci": 0.9}),
    "label_many": ("per_label", {"method": ["fleiss", "krippendorff", "gwet_ac1"]}),
}
SET_TEXT = ("group", "method", "label", "rater_a", "rater_b", "interpretation")


def make_sets() -> pd.DataFrame:
    """90 items, 4 raters, sets of 1-3 of five labels, ~10% missing, 3 groups."""
    rng = np.random.default_rng(20251125)
    n = 90
    data: dict[str, Any] = {BY: rng.choice(["g0", "g1", "g2"], size=n)}
    latent = [set(rng.choice(SET_LABELS, rng.integers(1, 3), replace=False)) for _ in range(n)]
    for rater in RATERS[:4]:
        column: list[Any] = []
        for labels in latent:
            given = {x for x in sorted(labels) if rng.random() < 0.8} or set(labels)
            if rng.random() < 0.25:
                given.add(str(rng.choice(SET_LABELS)))
            column.append(None if rng.random() < 0.1 else sorted(given))
        data[rater] = column
    return pd.DataFrame(data)


SETS = make_sets()
SET_RATERS = RATERS[:4]


def sets_text(df: pd.DataFrame) -> pd.DataFrame:
    out = df.copy()
    for rater in SET_RATERS:
        out[rater] = [None if v is None else "|".join(v[::-1]) for v in df[rater]]
    return out


def _set_call(function: str, data: Any, opts: dict[str, Any], **layout: Any) -> Any:
    call = getattr(kf, function)
    return call(data, **({} if layout else {"raters": SET_RATERS}), by=BY, **layout, **opts)


#: Each set-label way: the way in (``tests/ways.py``), and whether it reads the sets as
#: text (``"b|a"``, with ``multi_sep="|"``) or as lists.
SET_WAYS: dict[str, tuple[str, bool]] = {
    "pandas_text": ("pandas", True),
    "long_pandas": ("long_pandas", False),
    "polars": ("polars", False),
    "polars_lazy": ("polars_lazy", False),
    "long_polars": ("long_polars", False),
    "dask": ("dask", True),
    "csv_path": ("csv_path", True),
    "scan_parquet": ("scan_parquet", False),
    "cli": ("cli", True),
}
SET_LONG = {"item": "item", "rater": "rater", "label": "tags"}


@pytest.mark.parametrize("option", list(SET_OPTIONS))
@pytest.mark.parametrize("way", list(SET_WAYS))
def test_set_labels_parity(way: str, option: str, way_in: WayInFixture) -> None:
    """Every way in gives the numbers of the pandas call on Python sets, to 1e-12."""
    function, opts = SET_OPTIONS[option]
    want = _set_call(function, SETS, opts)
    assert len(want) > 0 and want.iloc[:, -1].notna().any()
    name, text = SET_WAYS[way]
    call = way_in(name, sets_text(SETS) if text else SETS, raters=SET_RATERS, long=SET_LONG)
    wide = {} if call.options else {"raters": SET_RATERS}
    got = call(getattr(kf, function), **wide, by=BY, **({"multi_sep": "|"} if text else {}), **opts)
    got = got.reset_index(drop=True)
    assert list(map(str, got.columns)) == list(map(str, want.columns))
    for col in want.columns:
        if col in SET_TEXT:
            assert _strings(got[col]) == _strings(want[col]), f"column {col!r}"
            continue
        np.testing.assert_allclose(
            got[col].to_numpy(dtype=float, na_value=np.nan),
            want[col].to_numpy(dtype=float, na_value=np.nan),
            rtol=0,
            atol=ATOL,
            equal_nan=True,
            err_msg=f"column {col!r}",
        )


# ------------------------------------------------------------- two methods on one scale


def make_concordance() -> pd.DataFrame:
    """The ratings of ``DF`` as numbers (low 1, mid 2, high 3) plus each rater's own noise.

    The same items, groups and missing ratings as ``DF``: ``kf.ccc`` and
    ``kf.bland_altman`` read them as numbers on one scale.
    """
    rng = np.random.default_rng(20261125)
    out = DF[[BY]].copy()
    scale = {c: float(i + 1) for i, c in enumerate(CATS)}
    for i, name in enumerate(RATERS):
        values = DF[name].map(scale).astype(float)
        out[name] = np.round(values * 10 + i + rng.normal(0, 2, len(DF)), 2)
    return out


CONCORDANCE = make_concordance()

#: ``kf.ccc`` and ``kf.bland_altman`` options through every way in.
CONCORDANCE_OPTIONS: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "ccc": (kf.ccc, {}),
    "ccc_ci90_reference": (kf.ccc, {"ci": 0.9, "reference": "r4"}),
    "ccc_no_ci": (kf.ccc, {"ci": None}),
    "bland_altman": (kf.bland_altman, {}),
    "bland_altman_2sd_reference": (kf.bland_altman, {"agreement": 2.0, "reference": "r0"}),
}

CONCORDANCE_LONG = {"item": "item", "rater": "rater", "value": "score"}


#: Each way in of the numeric ratings (DuckDB sums in the engine).
CONCORDANCE_WAYS = ways(
    "polars",
    "polars_lazy",
    "long_pandas",
    "long_polars",
    "long_lazy",
    "scan_parquet",
    "scan_csv",
    "long_scan_csv",
    "dask",
    "long_dask",
    "duckdb",
    "long_duckdb",
    "ibis",
    "long_ibis",
)


@pytest.mark.parametrize("option", list(CONCORDANCE_OPTIONS))
@pytest.mark.parametrize("way", CONCORDANCE_WAYS)
def test_concordance_parity(way: str, option: str, way_in: WayInFixture) -> None:
    """``ccc`` and ``bland_altman``: every way in gives the pandas wide call's numbers."""
    function, opts = CONCORDANCE_OPTIONS[option]
    want = function(CONCORDANCE, by=BY, **opts)
    assert want["n"].min() > 10 and want.iloc[:, 4].notna().all()
    call = way_in(way, CONCORDANCE, raters=RATERS, long=CONCORDANCE_LONG)
    got = call(function, by=BY, **opts).reset_index(drop=True)
    assert list(map(str, got.columns)) == list(map(str, want.columns))
    for col in (BY, "rater_a", "rater_b"):
        assert _strings(got[col]) == _strings(want[col]), col
    numbers = [c for c in want.columns if c not in (BY, "rater_a", "rater_b")]
    np.testing.assert_allclose(
        got[numbers].to_numpy(dtype=float),
        want[numbers].to_numpy(dtype=float),
        rtol=0,
        atol=1e-10,
        err_msg=way,
    )


@pytest.mark.parametrize("option", list(CONCORDANCE_OPTIONS))
def test_concordance_accessor_is_identical(option: str) -> None:
    function, opts = CONCORDANCE_OPTIONS[option]
    method = getattr(CONCORDANCE.kappa, function.__name__)
    pd.testing.assert_frame_equal(method(by=BY, **opts), function(CONCORDANCE, by=BY, **opts))


# ----------------------------------------------------------------------------- compare

#: ``kf.compare`` of two rater pairs on the same items: its options through every way in.
COMPARE_OPTIONS: dict[str, dict[str, Any]] = {
    "delta": {},
    "linear": {"weights": "linear"},
    "asymmetric": {"weights": W_ASYM},
    "bootstrap": {"method": "bootstrap", "n_boot": 200, "seed": 5, "ci": 0.9},
}
COMPARE_PAIRS = (("r0", "r4"), ("r1", "r4"))


#: ``kf.compare`` through the accessor and every way in that reads frames.
COMPARE_WAYS = ways(
    "accessor",
    "polars",
    "polars_lazy",
    "long_pandas",
    "long_polars",
    "scan_parquet",
    "scan_csv",
    "dask",
)


@pytest.mark.parametrize("option", list(COMPARE_OPTIONS))
@pytest.mark.parametrize("way", COMPARE_WAYS)
def test_compare_parity(way: str, option: str, way_in: WayInFixture) -> None:
    """Every way in compares the same pairs on the same items: the same rows and numbers."""
    opts = COMPARE_OPTIONS[option]
    want = kf.compare(DF, *COMPARE_PAIRS, by=BY, categories=CATS, **opts)
    got = through(way_in, way, CATS)(kf.compare, *COMPARE_PAIRS, **opts).reset_index(drop=True)
    assert list(map(str, got.columns)) == list(map(str, want.columns))
    for col in ("group", "first_a", "first_b", "second_a", "second_b", "test", "verdict"):
        assert _strings(got[col]) == _strings(want[col]), col
    for col in ("n", "kappa_first", "kappa_second", "difference", "se", "ci_low", "ci_high"):
        np.testing.assert_allclose(
            got[col].to_numpy(dtype=float), want[col].to_numpy(dtype=float), rtol=0, atol=ATOL
        )


# ------------------------------------------------------------------- sample size of a pilot

#: ``kf.sample_size`` of the ratings as a pilot: power to reject kappa <= 0.2 per group.
SIZE_OPTIONS: dict[str, Any] = {"kappa0": 0.2, "power": 0.9}


#: ``kf.sample_size`` of a pilot through every way in that reads frames, ``plan`` and
#: the accessor.
SIZE_WAYS = ways("polars", "polars_lazy", "long_pandas", "scan_csv", "dask", "cli", "accessor")


@pytest.mark.parametrize("way", SIZE_WAYS)
def test_sample_size_parity(way: str, way_in: WayInFixture) -> None:
    """Every way in reads the same pilot: the same shares, kappa and number of items."""
    want = kf.sample_size(DF, by=BY, categories=CATS, **SIZE_OPTIONS)
    assert list(want["n_raters"]) == [5, 5, 5] and len(set(want["n_items"])) == 3
    got = through(way_in, way, CATS)(kf.sample_size, **SIZE_OPTIONS).reset_index(drop=True)
    assert list(map(str, got.columns)) == list(map(str, want.columns))
    for col in ("group", "goal", "method", "props", "alternative"):
        assert _strings(got[col]) == _strings(want[col]), col
    for col in ("pilot_items", "n_raters", "n_categories", "n_items"):
        assert got[col].tolist() == want[col].tolist(), col
    for col in ("pilot_kappa", "kappa0", "kappa1", "alpha", "power"):
        np.testing.assert_allclose(
            got[col].to_numpy(dtype=float), want[col].to_numpy(dtype=float), rtol=0, atol=ATOL
        )


# ----------------------------------------------------------------------------- numeric ratings


def make_scores() -> pd.DataFrame:
    """The ratings above as numbers (label code + noise), with the same missing cells."""
    rng = np.random.default_rng(20261125)
    data: dict[str, Any] = {BY: DF[BY]}
    for name in RATERS:
        codes = DF[name].map({c: i for i, c in enumerate(CATS)}).to_numpy(dtype=float)
        data[name] = codes * 10 + rng.normal(0, 3, len(DF)).round(0)  # rounded: ties
    return pd.DataFrame(data)


SCORES = make_scores()

#: ``kf.icc`` and ``kf.kendall_w`` options through every way in.
NUMERIC_OPTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "icc": ("icc", {}),
    "icc_no_ci": ("icc", {"ci": None}),
    "icc_ci90": ("icc", {"ci": 0.9}),
    "icc_raters": ("icc", {"raters": ["r0", "r2", "r3"]}),
    "kendall": ("kendall_w", {}),
    "kendall_uncorrected": ("kendall_w", {"correct": False}),
    "kendall_raters": ("kendall_w", {"raters": ["r1", "r4"]}),
    "icc_available": ("icc", {"missing": "available"}),
    "kendall_available": ("kendall_w", {"missing": "available"}),
}

NUMERIC_LONG = {"item": "item", "rater": "rater", "value": "label"}


def _numeric(frame: Any, function: str, opts: dict[str, Any]) -> Any:
    return getattr(kf, function)(frame, by=BY, **opts)


#: ``kf.icc`` and ``kf.kendall_w`` through every way in that reads numbers.
NUMERIC_WAYS = ways(
    "polars",
    "polars_lazy",
    "long_pandas",
    "long_polars",
    "scan_parquet",
    "scan_csv",
    "dask",
    "long_dask",
    "duckdb",
    "long_duckdb",
    "ibis",
    "long_ibis",
    "spark",
)

#: Engines compute the ICC's sums; Kendall's W ranks the scores and is refused there
#: (``tests/api/test_icc.py``), as is ``missing="available"`` (every rating, not sums:
#: ``tests/api/test_icc_missing.py``).
ENGINE_WAYS = ("duckdb", "long_duckdb", "ibis", "long_ibis", "spark")
#: Each Spark query takes seconds: the options that change its query (the rest are the
#: same sums, finished in Python).
SPARK_OPTIONS = ("icc", "icc_raters")

#: Text columns of the numeric results; the others are compared as numbers.
NUMERIC_TEXT = (BY, "type", "description", "mcgraw_wong", "design")


@pytest.mark.parametrize(
    ("way", "option"),
    [
        pytest.param(way, option, id=f"{way}-{option}")
        for way in NUMERIC_WAYS
        for option in NUMERIC_OPTIONS
        if way not in ENGINE_WAYS or NUMERIC_OPTIONS[option][0] == "icc"
        if way not in ENGINE_WAYS or "missing" not in NUMERIC_OPTIONS[option][1]
        if way != "spark" or option in SPARK_OPTIONS
    ],
)
def test_numeric_parity(way: str, option: str, way_in: WayInFixture) -> None:
    """Every way in gives the ICC and Kendall's W of the pandas wide call, to 1e-12."""
    function, opts = NUMERIC_OPTIONS[option]
    want = _numeric(SCORES, function, opts)
    # Incomplete designs: the two-way forms have no F test or interval (NaN).
    assert "missing" in opts or want.select_dtypes("number").notna().all().all()
    call = way_in(way, SCORES, raters=RATERS, long=NUMERIC_LONG)
    got = call(getattr(kf, function), by=BY, **opts).reset_index(drop=True)
    assert list(map(str, got.columns)) == list(map(str, want.columns))
    for col in want.columns:
        if col in NUMERIC_TEXT:
            assert _strings(got[col]) == _strings(want[col]), f"column {col!r}"
            continue
        np.testing.assert_allclose(
            got[col].to_numpy(dtype=float),
            want[col].to_numpy(dtype=float),
            rtol=1e-12,
            atol=ATOL,
            err_msg=f"column {col!r}",
        )


def test_numeric_accessor_is_identical() -> None:
    pd.testing.assert_frame_equal(SCORES.kappa.icc(by=BY), kf.icc(SCORES, by=BY))
    pd.testing.assert_frame_equal(SCORES.kappa.kendall_w(by=BY), kf.kendall_w(SCORES, by=BY))


# ----------------------------------------------------------------------------- overall


#: ``kf.overall`` options through every way in. The bootstrap resamples items folded into
#: patterns sorted by their labels, so its draws (and intervals) do not depend on the row
#: order, the layout, the partitions or the batches.
UNWEIGHTED_METHODS = ["fleiss", "light", "conger", "krippendorff", "gwet_ac1"]
UNWEIGHTED_METHODS += ["brennan_prediger", "percent"]
WEIGHTED_METHODS = ["fleiss", "light", "conger", "krippendorff", "gwet_ac2"]
WEIGHTED_METHODS += ["brennan_prediger", "percent"]
BOOT = {"ci": 0.9, "ci_method": "bootstrap", "n_boot": 200, "seed": 3}
OVERALL_OPTIONS: dict[str, dict[str, Any]] = {
    "analytic": {"method": UNWEIGHTED_METHODS, "ci": 0.95},
    "bootstrap": {"method": UNWEIGHTED_METHODS, **BOOT},
    "bootstrap_weighted": {"method": WEIGHTED_METHODS, "weights": "quadratic", **BOOT},
    "bootstrap_ordinal": {"method": "krippendorff", "level": "ordinal", **BOOT},
    "bootstrap_counted": {"method": ["fleiss", "gwet_ac1", "krippendorff"], **BOOT},
}
OVERALL_KEYS = [BY, "method"]


#: ``kf.overall`` through every way in that reads ratings, the item x category counts
#: table and ``kappaframe report --overall``.
OVERALL_WAYS = ways(
    "polars",
    "polars_lazy",
    "long_pandas",
    "long_polars",
    "scan_parquet",
    "scan_csv",
    "dask",
    "shuffled",
    "counts_table",
    "cli",
)

#: Cells a way in cannot express (excluded, not skipped).
OVERALL_NOT_OFFERED = {
    ("cli", "bootstrap_ordinal"): "the command line has no --level",
    ("counts_table", "analytic"): "light and conger need the ratings",
    ("counts_table", "bootstrap"): "light and conger need the ratings",
    ("counts_table", "bootstrap_weighted"): "light and conger need the ratings",
}


def overall_cells() -> list[Any]:
    return [
        pytest.param(way, option, id=f"{way}-{option}")
        for way in OVERALL_WAYS
        for option in OVERALL_OPTIONS
        if (way, option) not in OVERALL_NOT_OFFERED
    ]


def assert_same_overall(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """Same columns, same rows in the same order, numbers to 1e-12 absolute."""
    got, want = got.reset_index(drop=True), want.reset_index(drop=True)
    assert list(map(str, got.columns)) == list(map(str, want.columns))
    for key in (*OVERALL_KEYS, "interpretation"):
        assert _strings(got[key]) == _strings(want[key]), key
    for col in want.columns:
        if col in (*OVERALL_KEYS, "interpretation"):
            continue
        np.testing.assert_allclose(
            got[col].to_numpy(dtype=float, na_value=np.nan),
            want[col].to_numpy(dtype=float, na_value=np.nan),
            rtol=0,
            atol=ATOL,
            equal_nan=True,
            err_msg=f"column {col!r}",
        )


@pytest.mark.parametrize(("way", "option"), overall_cells())
def test_overall_parity(way: str, option: str, way_in: WayInFixture) -> None:
    """Every way in gives the overall table of the pandas wide call, intervals included."""
    opts = OVERALL_OPTIONS[option]
    want = kf.overall(DF, by=BY, categories=CATS, **opts)
    assert want["se"].notna().all()
    assert_same_overall(through(way_in, way, CATS)(kf.overall, **opts), want)


@pytest.mark.parametrize("option", list(OVERALL_OPTIONS))
def test_overall_accessor_is_identical(option: str) -> None:
    """``df.kappa.overall(...)`` is ``kf.overall(df, ...)``, bootstrap included."""
    opts = OVERALL_OPTIONS[option]
    want = kf.overall(DF, by=BY, categories=CATS, **opts)
    got = DF.kappa.overall(by=BY, categories=CATS, **opts)
    pd.testing.assert_frame_equal(got, want, check_exact=True)


# ------------------------------------------------------------------- repeated trials


#: ``DF``'s items rated twice: trial 1 is ``DF``, trial 2 each label kept with probability
#: 0.8 (else another category); missing labels stay missing. Wide: a row per item and trial.
def make_trials() -> pd.DataFrame:
    rng = np.random.default_rng(20261128)
    first = DF.assign(item=np.arange(len(DF)), trial=1)
    second = first.assign(trial=2)
    for name in RATERS:
        change = rng.random(len(DF)) < 0.2
        other = np.array(CATS, dtype=object)[rng.integers(0, 3, len(DF))]
        second[name] = np.where(change & first[name].notna(), other, first[name])
    return pd.concat([first, second], ignore_index=True)


TRIALS = make_trials()
TRIALS_LONG = TRIALS.melt(
    id_vars=[BY, "item", "trial"], value_vars=RATERS, var_name="rater", value_name="label"
).dropna(subset=["label"])
SCALE = {c: float(i + 1) for i, c in enumerate(CATS)}
TRIAL_SCORES = TRIALS.assign(**{r: TRIALS[r].map(SCALE).astype(float) for r in RATERS})
TRIAL_SCORES_LONG = TRIALS_LONG.assign(label=TRIALS_LONG["label"].map(SCALE).astype(float))

#: ``trial=`` options: (function, its keywords, numeric ratings).
TRIAL_OPTIONS: dict[str, tuple[Callable[..., Any], dict[str, Any], bool]] = {
    "pairwise": (kf.pairwise, {"categories": CATS}, False),
    "pairwise_linear_ci": (
        kf.pairwise,
        {"categories": CATS, "weights": "linear", "ci": 0.9},
        False,
    ),
    "overall": (kf.overall, {"categories": CATS, "method": ["fleiss", "krippendorff"]}, False),
    "icc": (kf.icc, {}, True),
    "bland_altman_proportional": (kf.bland_altman, {"proportional": True}, True),
}
TRIAL_WAYS = ("long_pandas", "polars", "long_polars", "accessor", "cli")
TRIAL_NOT_OFFERED = {"icc", "bland_altman_proportional"}  # kappaframe report: the kappas


def _trial_call(way: str, function: Callable[..., Any], opts: dict[str, Any], numeric: bool) -> Any:
    wide = TRIAL_SCORES if numeric else TRIALS
    long = TRIAL_SCORES_LONG if numeric else TRIALS_LONG
    word = "value" if numeric else "label"
    layout = {"item": "item", "rater": "rater", word: "label"}
    base = {"by": BY, "trial": "trial", **opts}
    if way == "long_pandas":
        return function(long, **layout, **base)
    if way == "long_polars":
        return function(pl_frame(long), **layout, **base).to_pandas()
    if way == "polars":
        return function(pl_frame(wide), RATERS, item="item", **base).to_pandas()
    assert way == "accessor"
    return getattr(wide.kappa, function.__name__)(RATERS, item="item", **base)


def pl_frame(df: pd.DataFrame) -> Any:
    pl = pytest.importorskip("polars")
    return pl.from_pandas(df)


def _trial_cli(opts: dict[str, Any], tmp_path: Any, capsys: Any) -> pd.DataFrame:
    path = tmp_path / "trials.csv"
    TRIALS_LONG.to_csv(path, index=False)
    flags = ["--item", "item", "--rater", "rater", "--label", "label", "--trial", "trial"]
    argv = ["report", str(path), "--no-progress", *flags, "--by", BY, "--format", "csv"]
    rest = {k: v for k, v in opts.items() if k != "method"}
    argv += cli_flags(rest)
    capsys.readouterr()
    assert cli_main(argv) == 0
    return pd.read_csv(io.StringIO(capsys.readouterr()[0]), dtype={BY: str, "rater": str})


@pytest.mark.parametrize("option", list(TRIAL_OPTIONS))
@pytest.mark.parametrize("way", TRIAL_WAYS)
def test_trial_parity(way: str, option: str, tmp_path: Any, capsys: Any) -> None:
    """``trial=``: every way in that reads a frame gives the pandas wide call's numbers."""
    function, opts, numeric = TRIAL_OPTIONS[option]
    wide = TRIAL_SCORES if numeric else TRIALS
    want = function(wide, RATERS, item="item", by=BY, trial="trial", **opts)
    assert len(want) and want.iloc[:, -1].notna().any()
    if way == "cli":
        if option in TRIAL_NOT_OFFERED or function is kf.overall:
            return  # kappaframe report computes pairwise (overall: --overall, its own test)
        got = _trial_cli(opts, tmp_path, capsys)
    else:
        got = _trial_call(way, function, opts, numeric).reset_index(drop=True)
    assert list(map(str, got.columns)) == list(map(str, want.columns))
    numbers = [c for c in want.columns if pd.api.types.is_numeric_dtype(want[c])]
    texts = [c for c in want.columns if c not in numbers]
    for col in texts:
        assert _strings(got[col]) == _strings(want[col]), col
    np.testing.assert_allclose(
        got[numbers].to_numpy(dtype=float),
        want[numbers].to_numpy(dtype=float),
        rtol=0,
        atol=1e-10 if way == "cli" else ATOL,
        equal_nan=True,
        err_msg=way,
    )


@pytest.mark.parametrize("way", ["polars_lazy", "dask", "duckdb"])
def test_trial_refuses_what_it_cannot_read_whole(way: str) -> None:
    """``trial=`` reads a pandas or polars DataFrame: a lazy input gets the way out."""
    if way == "polars_lazy":
        data: Any = pl_frame(TRIALS_LONG).lazy()
    elif way == "dask":
        dd = pytest.importorskip("dask.dataframe")
        data = dd.from_pandas(TRIALS_LONG, npartitions=2)
    else:
        duckdb = pytest.importorskip("duckdb")
        data = duckdb.from_df(TRIALS_LONG)
    with pytest.raises(kf.KappaFrameError, match=r"pandas or polars DataFrame.*first"):
        kf.pairwise(data, item="item", rater="rater", label="label", trial="trial")


# ----------------------------------------------------------------------------- overall, clusters

OVERALL_CLUSTER_OPTIONS: dict[str, dict[str, Any]] = {
    "cluster": {
        "method": ["fleiss", "conger", "gwet_ac1", "brennan_prediger"],
        "ci": 0.95,
        "cluster": "patient",
    },
    "cluster_bootstrap": {"method": UNWEIGHTED_METHODS, "cluster": "patient", **BOOT},
}
OVERALL_CLUSTER_WAYS = ways("polars", "long_pandas", "long_polars", "shuffled", "cli")


@pytest.mark.parametrize("option", list(OVERALL_CLUSTER_OPTIONS))
@pytest.mark.parametrize("way", OVERALL_CLUSTER_WAYS)
def test_overall_parity_of_clusters(way: str, option: str, way_in: WayInFixture) -> None:
    """overall(cluster=) on every way that holds the ratings: the pandas wide call's table."""
    opts = OVERALL_CLUSTER_OPTIONS[option]
    want = kf.overall(CLUSTERED, RATERS, by=BY, categories=CATS, **opts)
    assert want["se"].notna().all()
    assert_same_overall(through(way_in, way, CATS, CLUSTERED)(kf.overall, **opts), want)


@pytest.mark.parametrize("way", ways("polars_lazy", "scan_csv", "dask"))
def test_overall_clusters_in_parts_are_refused(way: str, way_in: WayInFixture) -> None:
    with pytest.raises((kf.KappaFrameError, CliRefused), match=r"needs every rating in memory"):
        through(way_in, way, CATS, CLUSTERED)(kf.overall, **OVERALL_CLUSTER_OPTIONS["cluster"])

"""Parity: the same ratings and the same options give the same numbers on every way in.

Each OPTION (a dict of ``pairwise`` keyword arguments) goes through each WAY IN (a function
``(case, options) -> pandas DataFrame``) and must give the numbers of the reference, the pandas
wide-layout call ``kf.pairwise(pandas_df, by="group", ...)``, to 1e-12 (absolute), with the same
rows (``min_overlap`` drops the same pairs everywhere).

``kf.items``, ``kf.rater_confusion`` and ``kf.overall`` (its large-sample and bootstrap
intervals for every coefficient) have their own matrices below, compared with their pandas
wide-layout call.

Only the public API is used, with one exception: the crowd (sparse long-layout) path is forced
by monkeypatching ``use_crowd`` in the private module that holds the crowd counting (see
:func:`crowd_module`).

Cells known not to work today, written as they SHOULD work (no xfail, no skip):

- ``asymmetric``: a non-symmetric disagreement matrix (Cohen 1968) is refused by ``pairwise``
  ("weights matrix must be symmetric"); a fix is under way.
- ``counts_parquet`` with weights: ``Counts.from_frame`` re-sorts the categories when they are
  not passed; the stored cells are to carry the category order (fix under way).
"""

from __future__ import annotations

import importlib
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe.cli import main as cli_main

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


def to_long(df: pd.DataFrame) -> pd.DataFrame:
    """One row per rating: item, rater, label (missing labels dropped), group."""
    wide = df.assign(item=[f"i{i:03d}" for i in range(len(df))])
    ids = ["item", BY, *(["t"] if "t" in df else [])]  # the time column of windowed cases
    long = wide.melt(id_vars=ids, value_vars=RATERS, var_name="rater", value_name="label")
    return long.dropna(subset=["label"]).reset_index(drop=True)


LONG = to_long(DF)

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
}

# ----------------------------------------------------------------------------- the ways in


@dataclass
class Case:
    """What a way in gets: the data, the category list (or None) and pytest's helpers."""

    df: pd.DataFrame
    categories: list[str] | None
    tmp_path: Path
    monkeypatch: pytest.MonkeyPatch
    capsys: pytest.CaptureFixture[str]
    request: pytest.FixtureRequest

    def cats(self) -> dict[str, Any]:
        return {} if self.categories is None else {"categories": self.categories}


def crowd_module() -> ModuleType:
    """The private module holding the crowd counting (being moved; take whichever exists)."""
    for name in ("kappaframe._count.crowd", "kappaframe._crowd"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "use_crowd"):
            return module
    raise AssertionError("no crowd module with use_crowd: kappaframe._count.crowd, ._crowd")


def way_pandas(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    return kf.pairwise(case.df, by=BY, **case.cats(), **opts)


def way_polars(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    frame = pl.from_pandas(case.df, nan_to_null=True)
    res = kf.pairwise(frame, by=BY, **case.cats(), **opts)
    assert isinstance(res, pl.DataFrame)
    return res.to_pandas()


def way_polars_lazy(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    frame = pl.from_pandas(case.df, nan_to_null=True).lazy()
    res = kf.pairwise(frame, by=BY, **case.cats(), **opts)
    assert isinstance(res, pl.LazyFrame)
    return res.collect().to_pandas()


def _long(frame: Any, case: Case, opts: dict[str, Any]) -> Any:
    return kf.pairwise(
        frame, item="item", rater="rater", label="label", by=BY, **case.cats(), **opts
    )


def way_long_pandas(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    return _long(to_long(case.df), case, opts)


def way_long_polars(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    res = _long(pl.from_pandas(to_long(case.df)), case, opts)
    assert isinstance(res, pl.DataFrame)
    return res.to_pandas()


def way_crowd(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    """The long layout counted sparsely: force the switch, and check it was consulted."""
    asked: list[tuple[Any, ...]] = []

    def always(*args: Any) -> bool:
        asked.append(args)
        return True

    case.monkeypatch.setattr(crowd_module(), "use_crowd", always)
    res = _long(to_long(case.df), case, opts)
    assert asked, "use_crowd was not consulted: the crowd path was not taken"
    return res


def _parts(df: pd.DataFrame) -> list[pd.DataFrame]:
    cut = np.array_split(np.arange(len(df)), 3)
    return [df.iloc[idx] for idx in cut]


def way_counts_parts(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    part1, part2, part3 = (kf.counts(p, by=BY, **case.cats()) for p in _parts(case.df))
    total = part1 + part2 + part3
    return total.pairwise(**opts)


def way_counts_parquet(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    """Counts stored as cells in parquet and read back WITHOUT categories= (must keep order)."""
    pytest.importorskip("pyarrow")
    path = case.tmp_path / "cells.parquet"
    kf.counts(case.df, by=BY, **case.cats()).to_frame().to_parquet(path)
    stored = kf.Counts.from_frame(pd.read_parquet(path), by=BY)
    return stored.pairwise(**opts)


def _scan(case: Case, opts: dict[str, Any], path: Path) -> pd.DataFrame:
    return kf.pairwise(kf.scan(path, batch_size=7), by=BY, **case.cats(), **opts)


def way_scan_parquet(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    pytest.importorskip("pyarrow")
    path = case.tmp_path / "wide.parquet"
    case.df.to_parquet(path, index=False)
    return _scan(case, opts, path)


def way_scan_csv(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    path = case.tmp_path / "wide.csv"
    case.df.to_csv(path, index=False)
    return _scan(case, opts, path)


def way_dask(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    dd = pytest.importorskip("dask.dataframe")
    case.request.getfixturevalue("dask_client")
    res = kf.pairwise(dd.from_pandas(case.df, npartitions=3), by=BY, **case.cats(), **opts)
    assert isinstance(res, dd.DataFrame)
    return res.compute()


def cli_flags(opts: dict[str, Any]) -> list[str]:
    """The CLI flags of one option dict (only what the CLI offers: see NOT_OFFERED)."""
    flags: list[str] = []
    for key, value in opts.items():
        if key == "weights":
            assert isinstance(value, str), "the CLI takes named weights only (NOT_OFFERED)"
            flags += ["--weights", value]
        elif key == "ci":
            flags += ["--ci", repr(value)]
        elif key == "stats":
            flags += ["--stats", *([value] if isinstance(value, str) else value)]
        elif key == "reference":
            flags += ["--reference", str(value)]
        elif key == "min_overlap":
            flags += ["--min-overlap", str(value)]
        elif key == "min_items":
            flags += ["--min-items", str(value)]
        elif key in ("alternative", "ci_dist", "benchmark"):
            flags += [f"--{key.replace('_', '-')}", str(value)]
        elif key == "population":
            flags += ["--population", repr(value)]
        elif key in ("ci_method", "n_boot", "seed"):
            flags += [f"--{key.replace('_', '-')}", str(value)]
        elif key in ("time", "every", "period"):
            flags += [f"--{key}", str(value)]
        else:
            raise AssertionError(f"no CLI flag known for {key!r}")
    return flags


class CliRefused(Exception):
    """The command line refused the input (exit 2); the message is its stderr."""


def way_cli(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    path = case.tmp_path / "wide.csv"
    case.df.to_csv(path, index=False)
    argv = ["report", str(path), "--raters", *RATERS, "--by", BY, "--format", "csv"]
    if case.categories is not None:
        argv += ["--categories", *case.categories]
    argv += ["--no-progress", *cli_flags(opts)]
    case.capsys.readouterr()  # drop anything printed before
    code = cli_main(argv)
    out, err = case.capsys.readouterr()
    if code == 2:
        raise CliRefused(err)
    assert code == 0, f"exit code {code}; stderr: {err}"
    return pd.read_csv(io.StringIO(out), dtype={BY: str, "rater_a": str, "rater_b": str})


def way_duckdb(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    con = duckdb.connect()
    try:
        con.register("ratings", case.df)
        res = kf.pairwise(con.sql("SELECT * FROM ratings"), by=BY, **case.cats(), **opts)
    finally:
        con.close()
    assert isinstance(res, pd.DataFrame)
    return res


def way_spark(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    session = case.request.getfixturevalue("spark_session")
    rows = [
        tuple(
            None
            if isinstance(v, float) and np.isnan(v)
            else v.to_pydatetime()
            if isinstance(v, pd.Timestamp)
            else v
            for v in row
        )
        for row in case.df.itertuples(index=False)
    ]
    schema = ", ".join(f"{c} {'timestamp_ntz' if c == 't' else 'string'}" for c in case.df.columns)
    res = kf.pairwise(session.createDataFrame(rows, schema), by=BY, **case.cats(), **opts)
    assert isinstance(res, pd.DataFrame)
    return res


WAYS: dict[str, Callable[[Case, dict[str, Any]], pd.DataFrame]] = {
    "pandas": way_pandas,
    "polars": way_polars,
    "polars_lazy": way_polars_lazy,
    "long_pandas": way_long_pandas,
    "long_polars": way_long_polars,
    "crowd": way_crowd,
    "counts_parts": way_counts_parts,
    "counts_parquet": way_counts_parquet,
    "scan_parquet": way_scan_parquet,
    "scan_csv": way_scan_csv,
    "dask": way_dask,
    "cli": way_cli,
    "duckdb": way_duckdb,
    "spark": way_spark,
}

#: Cells a way in cannot express: excluded from the matrix (not skipped), and checked by
#: :func:`test_not_offered_cells_really_lack_the_option`.
NOT_OFFERED: dict[tuple[str, str], str] = {
    ("cli", "asymmetric"): "the CLI takes named weights only",
    ("cli", "distance_vector"): "the CLI takes named weights only",
}

#: Ways that also run without categories= (text labels with no declared order: the same
#: numbers where no order is needed, the same refusal where weights need one).
#: The Counts ways are built with categories= by design (parts must share one order).
WITHOUT_CATEGORIES = [
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
]


def cells(ways: list[str]) -> list[Any]:
    return [
        pytest.param(way, option, id=f"{way}-{option}")
        for way in ways
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


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    """One cheap in-process cluster for the whole module."""
    pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def make_case(
    categories: list[str] | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> Case:
    return Case(DF.copy(), categories, tmp_path, monkeypatch, capsys, request)


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


@pytest.mark.parametrize(("way", "option"), cells(list(WAYS)))
def test_parity(
    way: str,
    option: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """Every way in, every option, categories=CATS: the numbers of the pandas wide call."""
    opts = OPTIONS[option]
    want = kf.pairwise(DF, by=BY, categories=CATS, **opts)
    case = make_case(CATS, tmp_path, monkeypatch, capsys, request)
    got = WAYS[way](case, opts)
    assert_same(got, want)


@pytest.mark.parametrize(("way", "option"), cells(WITHOUT_CATEGORIES))
def test_parity_without_categories(
    way: str,
    option: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """No categories= anywhere: the same numbers where no order is needed, else one refusal.

    The labels are text with no declared order, so every option that weights
    disagreements is refused on every way in, naming the rater columns (the label column
    in the long layout) and the way out; sorting the labels would guess the order.
    """
    opts = OPTIONS[option]
    case = make_case(None, tmp_path, monkeypatch, capsys, request)
    if opts.get("weights") is not None:
        with pytest.raises((kf.KappaFrameError, CliRefused)) as refused:
            WAYS[way](case, opts)
        message = str(refused.value)
        assert "needs the order of the categories" in message
        assert "--categories" in message if way == "cli" else "categories=[...]" in message
        assert "'r0'" in message or "'label'" in message
        return
    want = kf.pairwise(DF, by=BY, **opts)
    got = WAYS[way](case, opts)
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
    # every other option has its flag (so nothing else belongs in the table)
    flags = ("--ci", "--stats", "--reference", "--min-overlap", "--categories", "--by")
    flags += ("--alternative", "--ci-dist", "--population", "--benchmark")
    flags += ("--ci-method", "--n-boot", "--seed", "--overall")
    for flag in flags:
        assert re.search(rf"(^|\s){re.escape(flag)}\s", text), flag
    for option, opts in OPTIONS.items():
        if ("cli", option) not in NOT_OFFERED:
            cli_flags(opts)  # raises if an option has no flag


def test_cli_csv_is_full_precision(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """The CSV on stdout carries every digit: floats round-trip exactly (repr)."""
    case = make_case(CATS, tmp_path, monkeypatch, capsys, request)
    got = normalise(way_cli(case, {"ci": 0.95}))
    want = normalise(kf.pairwise(DF, by=BY, categories=CATS, ci=0.95))
    for col in ["p_o", "p_e", "kappa", "se", "ci_low", "ci_high", "z", "p_value"]:
        np.testing.assert_array_equal(got[col].to_numpy(float), want[col].to_numpy(float), col)


# ----------------------------------------------------------------------------- windows


#: Agreement over time: overlapping six-week windows, a new one every two weeks.
WINDOWS: dict[str, Any] = {"time": "t", "every": "2w", "period": "6w"}
WINDOW_WAYS = [
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
]


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
def test_parity_windows(
    way: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """Windows over time: the same windows and numbers on every way in that reads rows."""
    want = kf.pairwise(with_time(DF), by=BY, categories=CATS, **WINDOWS)
    assert want["window_start"].nunique() > 4
    case = make_case(CATS, tmp_path, monkeypatch, capsys, request)
    case.df = with_time(case.df)
    got = WAYS[way](case, WINDOWS)
    assert list(got.columns[:3]) == [BY, "window_start", "window_end"]
    assert_same(_window_numbers(got), _window_numbers(want))


#: Windows an engine computes in its own query: one grid of whole cells (period = every).
GRID_WINDOWS: dict[str, Any] = {"time": "t", "every": "2w"}


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")  # an edge window
@pytest.mark.parametrize("way", ["duckdb", "spark", "polars_lazy", "dask", "cli"])
def test_parity_grid_windows(
    way: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """Calendar windows counted inside DuckDB and Spark: the windows and numbers of pandas."""
    want = kf.pairwise(with_time(DF), by=BY, categories=CATS, **GRID_WINDOWS)
    case = make_case(CATS, tmp_path, monkeypatch, capsys, request)
    case.df = with_time(case.df)
    got = WAYS[way](case, GRID_WINDOWS)
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


def item_cli_flags(opts: dict[str, Any]) -> list[str]:
    """The ``kappaframe items`` flags of one option dict."""
    flags: list[str] = []
    for key, value in opts.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            flags.append(flag)
        elif value is False:
            flags.append("--no-" + key)
        else:
            flags += [flag, str(value)]
    return flags


def _items_long(frame: Any, case: Case, opts: dict[str, Any]) -> Any:
    return kf.items(frame, item="item", rater="rater", label="label", by=BY, **case.cats(), **opts)


def _items_cli(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    path = case.tmp_path / "wide.csv"
    case.df.to_csv(path, index=False)
    argv = ["items", str(path), "--raters", *RATERS, "--by", BY, "--format", "csv"]
    if case.categories is not None:
        argv += ["--categories", *case.categories]
    argv += ["--no-progress", *item_cli_flags(opts)]
    case.capsys.readouterr()
    code = cli_main(argv)
    out, err = case.capsys.readouterr()
    assert code == 0, f"exit code {code}; stderr: {err}"
    return pd.read_csv(io.StringIO(out), keep_default_na=False, na_values=[""])


def _items_dask(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    dd = pytest.importorskip("dask.dataframe")
    case.request.getfixturevalue("dask_client")
    res = kf.items(dd.from_pandas(case.df, npartitions=3), by=BY, **case.cats(), **opts)
    assert isinstance(res, dd.DataFrame)
    return res.compute()


def _items_lazy(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    res = kf.items(pl.from_pandas(case.df).lazy(), by=BY, **case.cats(), **opts)
    assert isinstance(res, pl.LazyFrame)
    return res.collect().to_pandas()


def _items_polars(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    res = kf.items(pl.from_pandas(case.df), by=BY, **case.cats(), **opts)
    assert isinstance(res, pl.DataFrame)
    return res.to_pandas()


def _items_long_polars(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    res = _items_long(pl.from_pandas(to_long(case.df)), case, opts)
    assert isinstance(res, pl.DataFrame)
    return res.to_pandas()


def _items_scan(case: Case, opts: dict[str, Any], suffix: str) -> pd.DataFrame:
    path = case.tmp_path / f"wide.{suffix}"
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
        case.df.to_parquet(path, index=False)
    else:
        case.df.to_csv(path, index=False)
    return kf.items(kf.scan(path, batch_size=7), by=BY, **case.cats(), **opts)


ITEM_WAYS: dict[str, Callable[[Case, dict[str, Any]], pd.DataFrame]] = {
    "pandas": lambda case, opts: kf.items(case.df, by=BY, **case.cats(), **opts),
    "polars": _items_polars,
    "polars_lazy": _items_lazy,
    "long_pandas": lambda case, opts: _items_long(to_long(case.df), case, opts),
    "long_polars": _items_long_polars,
    "scan_parquet": lambda case, opts: _items_scan(case, opts, "parquet"),
    "scan_csv": lambda case, opts: _items_scan(case, opts, "csv"),
    "dask": _items_dask,
    "cli": _items_cli,
}


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
def test_items_parity(
    way: str,
    option: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """Every way in gives the items table of the pandas wide call: same rows, same order."""
    opts = ITEM_OPTIONS[option]
    want = kf.items(DF, by=BY, categories=CATS, **opts)
    assert len(want) > 0
    case = make_case(CATS, tmp_path, monkeypatch, capsys, request)
    assert_same_items(ITEM_WAYS[way](case, opts), want)


def test_items_data_is_as_designed() -> None:
    """Ties to break, contested items to queue, a reference that disagrees at times."""
    res = kf.items(DF, by=BY, categories=CATS, reference="r4")
    assert res["tied"].sum() > 5 and res["correct"].eq(False).sum() > 5
    assert 0 < len(kf.items(DF, by=BY, min_p=0.5, max_support=0.75)) < len(DF)
    assert (res["n_ratings"] < 2).sum() > 0  # some items with one rating (no p_i)


def _confusion_polars(case: Case, lazy: bool = False) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    frame = pl.from_pandas(case.df)
    res = kf.rater_confusion(frame.lazy() if lazy else frame, by=BY, **case.cats())
    return (res.collect() if lazy else res).to_pandas()


def _confusion_dask(case: Case) -> pd.DataFrame:
    dd = pytest.importorskip("dask.dataframe")
    case.request.getfixturevalue("dask_client")
    return kf.rater_confusion(
        dd.from_pandas(case.df, npartitions=3), by=BY, **case.cats()
    ).compute()


#: ``kf.rater_confusion`` through every way in that reads frames (it has no command).
CONFUSION_WAYS: dict[str, Callable[[Case], Any]] = {
    "polars": _confusion_polars,
    "polars_lazy": lambda case: _confusion_polars(case, lazy=True),
    "long_pandas": lambda case: kf.rater_confusion(
        to_long(case.df), item="item", rater="rater", label="label", by=BY, **case.cats()
    ),
    "scan_csv": lambda case: kf.rater_confusion(
        kf.scan(_written(case, "csv"), batch_size=7), by=BY, **case.cats()
    ),
    "dask": _confusion_dask,
}


def _written(case: Case, suffix: str) -> Path:
    path = case.tmp_path / f"wide.{suffix}"
    case.df.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("way", list(CONFUSION_WAYS))
def test_rater_confusion_parity(
    way: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """Every way in fits the same Dawid-Skene models: the same matrices, rows in order."""
    want = kf.rater_confusion(DF, by=BY, categories=CATS)
    case = make_case(CATS, tmp_path, monkeypatch, capsys, request)
    got = CONFUSION_WAYS[way](case).reset_index(drop=True)
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
            given = {x for x in labels if rng.random() < 0.8} or set(labels)
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


def sets_long(df: pd.DataFrame) -> pd.DataFrame:
    wide = df.assign(item=[f"i{i:03d}" for i in range(len(df))])
    long = wide.melt(id_vars=["item", BY], value_vars=SET_RATERS, var_name="rater")
    return long[long["value"].notna()].rename(columns={"value": "tags"}).reset_index(drop=True)


def _set_call(function: str, data: Any, opts: dict[str, Any], **layout: Any) -> Any:
    call = getattr(kf, function)
    return call(data, **({} if layout else {"raters": SET_RATERS}), by=BY, **layout, **opts)


def _sets_polars(function: str, opts: dict[str, Any], lazy: bool = False) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({BY: SETS[BY].tolist(), **{r: SETS[r].tolist() for r in SET_RATERS}})
    res = _set_call(function, frame.lazy() if lazy else frame, opts)
    assert isinstance(res, pl.LazyFrame if lazy else pl.DataFrame)
    return (res.collect() if lazy else res).to_pandas()


def _sets_long_polars(function: str, opts: dict[str, Any]) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    long = sets_long(SETS)
    frame = pl.DataFrame({c: long[c].tolist() for c in long.columns})
    layout = {"item": "item", "rater": "rater", "label": "tags"}
    return _set_call(function, frame, opts, **layout).to_pandas()


def _sets_dask(function: str, opts: dict[str, Any], request: pytest.FixtureRequest) -> Any:
    dd = pytest.importorskip("dask.dataframe")
    request.getfixturevalue("dask_client")
    res = _set_call(function, dd.from_pandas(sets_text(SETS), npartitions=3), opts, multi_sep="|")
    return res.compute() if isinstance(res, dd.DataFrame) else res


def _sets_file(function: str, opts: dict[str, Any], tmp_path: Path, suffix: str) -> Any:
    path = tmp_path / f"sets.{suffix}"
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
        SETS.to_parquet(path, index=False)
        return _set_call(function, kf.scan(path, batch_size=7), opts)
    sets_text(SETS).to_csv(path, index=False)
    return _set_call(function, str(path), opts, multi_sep="|")


def _sets_cli(
    function: str, opts: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> pd.DataFrame:
    path = tmp_path / "sets.csv"
    sets_text(SETS).to_csv(path, index=False)
    out = tmp_path / "out.csv"
    argv = ["report", str(path), "--raters", *SET_RATERS, "--by", BY, "--multi-sep", "|"]
    argv += ["--format", "csv", "-o", str(out), "--no-progress"]
    methods = opts["method"] if isinstance(opts["method"], list) else [opts["method"]]
    argv += ["--overall" if function == "overall" else "--per-label", *methods]
    if "distance" in opts:
        argv += ["--distance", opts["distance"]]
    if "ci" in opts:
        argv += ["--ci", str(opts["ci"])]
    code = cli_main(argv)
    assert code == 0, capsys.readouterr().err
    return pd.read_csv(tmp_path / f"out.{function}.csv", keep_default_na=False, na_values=[""])


SET_WAYS: dict[str, Callable[..., pd.DataFrame]] = {
    "pandas_text": lambda f, o, **_: _set_call(f, sets_text(SETS), o, multi_sep="|"),
    "long_pandas": lambda f, o, **_: _set_call(
        f, sets_long(SETS), o, item="item", rater="rater", label="tags"
    ),
    "polars": lambda f, o, **_: _sets_polars(f, o),
    "polars_lazy": lambda f, o, **_: _sets_polars(f, o, lazy=True),
    "long_polars": lambda f, o, **_: _sets_long_polars(f, o),
    "dask": lambda f, o, request, **_: _sets_dask(f, o, request),
    "csv_path": lambda f, o, tmp_path, **_: _sets_file(f, o, tmp_path, "csv"),
    "scan_parquet": lambda f, o, tmp_path, **_: _sets_file(f, o, tmp_path, "parquet"),
    "cli": lambda f, o, tmp_path, capsys, **_: _sets_cli(f, o, tmp_path, capsys),
}


@pytest.mark.parametrize("option", list(SET_OPTIONS))
@pytest.mark.parametrize("way", list(SET_WAYS))
def test_set_labels_parity(
    way: str,
    option: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """Every way in gives the numbers of the pandas call on Python sets, to 1e-12."""
    function, opts = SET_OPTIONS[option]
    want = _set_call(function, SETS, opts)
    assert len(want) > 0 and want.iloc[:, -1].notna().any()
    got = SET_WAYS[way](function, opts, tmp_path=tmp_path, capsys=capsys, request=request)
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


def numeric_long(df: pd.DataFrame) -> pd.DataFrame:
    wide = df.assign(item=[f"i{i:03d}" for i in range(len(df))])
    long = wide.melt(id_vars=["item", BY], value_vars=RATERS, var_name="rater", value_name="score")
    return long.dropna(subset=["score"]).reset_index(drop=True)


def _concordance_file(df: pd.DataFrame, tmp_path: Path, suffix: str) -> Any:
    path = tmp_path / f"numeric.{suffix}"
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
        df.to_parquet(path, index=False)
    else:
        df.to_csv(path, index=False)
    return kf.scan(path, batch_size=7)


def _concordance_polars(df: pd.DataFrame, lazy: bool = False) -> Any:
    pl = pytest.importorskip("polars")
    frame = pl.from_pandas(df)
    return frame.lazy() if lazy else frame


def _concordance_dask(df: pd.DataFrame, request: pytest.FixtureRequest) -> Any:
    dd = pytest.importorskip("dask.dataframe")
    request.getfixturevalue("dask_client")
    return dd.from_pandas(df, npartitions=3)


def _concordance_duckdb(df: pd.DataFrame, request: pytest.FixtureRequest) -> Any:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    con = duckdb.connect()
    request.addfinalizer(con.close)
    return con.from_df(df)


#: Each way in: the input made from the wide frame, and the long layout's options.
CONCORDANCE_WAYS: dict[str, Callable[[pd.DataFrame, Path, Any], tuple[Any, dict[str, Any]]]] = {
    "polars": lambda df, tmp, req: (_concordance_polars(df), {}),
    "polars_lazy": lambda df, tmp, req: (_concordance_polars(df, lazy=True), {}),
    "long_pandas": lambda df, tmp, req: (numeric_long(df), CONCORDANCE_LONG),
    "long_polars": lambda df, tmp, req: (_concordance_polars(numeric_long(df)), CONCORDANCE_LONG),
    "long_lazy": lambda df, tmp, req: (
        _concordance_polars(numeric_long(df), lazy=True),
        CONCORDANCE_LONG,
    ),
    "scan_parquet": lambda df, tmp, req: (_concordance_file(df, tmp, "parquet"), {}),
    "scan_csv": lambda df, tmp, req: (_concordance_file(df, tmp, "csv"), {}),
    "long_scan_csv": lambda df, tmp, req: (
        _concordance_file(numeric_long(df), tmp, "csv"),
        CONCORDANCE_LONG,
    ),
    "dask": lambda df, tmp, req: (_concordance_dask(df, req), {}),
    "long_dask": lambda df, tmp, req: (_concordance_dask(numeric_long(df), req), CONCORDANCE_LONG),
    "duckdb": lambda df, tmp, req: (_concordance_duckdb(df, req), {}),  # summed in the engine
    "long_duckdb": lambda df, tmp, req: (
        _concordance_duckdb(numeric_long(df), req),
        CONCORDANCE_LONG,
    ),
}


@pytest.mark.parametrize("option", list(CONCORDANCE_OPTIONS))
@pytest.mark.parametrize("way", list(CONCORDANCE_WAYS))
def test_concordance_parity(
    way: str, option: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """``ccc`` and ``bland_altman``: every way in gives the pandas wide call's numbers."""
    function, opts = CONCORDANCE_OPTIONS[option]
    want = function(CONCORDANCE, by=BY, **opts)
    assert want["n"].min() > 10 and want.iloc[:, 4].notna().all()
    data, layout = CONCORDANCE_WAYS[way](CONCORDANCE, tmp_path, request)
    got = function(data, by=BY, **layout, **opts)
    if hasattr(got, "collect"):
        got = got.collect()
    if hasattr(got, "compute"):
        got = got.compute()
    if not isinstance(got, pd.DataFrame):
        got = got.to_pandas()
    got = got.reset_index(drop=True)
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


def _compare_polars(case: Case, opts: dict[str, Any], lazy: bool = False) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    frame = pl.from_pandas(case.df, nan_to_null=True)
    res = kf.compare(frame.lazy() if lazy else frame, *COMPARE_PAIRS, by=BY, **case.cats(), **opts)
    assert isinstance(res, pl.LazyFrame if lazy else pl.DataFrame)
    return (res.collect() if lazy else res).to_pandas()


def _compare_long(frame: Any, case: Case, opts: dict[str, Any]) -> Any:
    return kf.compare(
        frame, *COMPARE_PAIRS, item="item", rater="rater", label="label", by=BY,
        **case.cats(), **opts,
    )  # fmt: skip


def _compare_long_polars(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    return _compare_long(pl.from_pandas(to_long(case.df)), case, opts).to_pandas()


def _compare_scan(case: Case, opts: dict[str, Any], suffix: str) -> pd.DataFrame:
    path = case.tmp_path / f"wide.{suffix}"
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
        case.df.to_parquet(path, index=False)
    else:
        case.df.to_csv(path, index=False)
    return kf.compare(kf.scan(path, batch_size=7), *COMPARE_PAIRS, by=BY, **case.cats(), **opts)


def _compare_dask(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    dd = pytest.importorskip("dask.dataframe")
    case.request.getfixturevalue("dask_client")
    frame = dd.from_pandas(case.df, npartitions=3)
    res = kf.compare(frame, *COMPARE_PAIRS, by=BY, **case.cats(), **opts)
    return res.compute() if hasattr(res, "compute") else res


COMPARE_WAYS: dict[str, Callable[[Case, dict[str, Any]], pd.DataFrame]] = {
    "accessor": lambda case, opts: case.df.kappa.compare(
        *COMPARE_PAIRS, by=BY, **case.cats(), **opts
    ),
    "polars": _compare_polars,
    "polars_lazy": lambda case, opts: _compare_polars(case, opts, lazy=True),
    "long_pandas": lambda case, opts: _compare_long(to_long(case.df), case, opts),
    "long_polars": _compare_long_polars,
    "scan_parquet": lambda case, opts: _compare_scan(case, opts, "parquet"),
    "scan_csv": lambda case, opts: _compare_scan(case, opts, "csv"),
    "dask": _compare_dask,
}


@pytest.mark.parametrize("option", list(COMPARE_OPTIONS))
@pytest.mark.parametrize("way", list(COMPARE_WAYS))
def test_compare_parity(
    way: str,
    option: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """Every way in compares the same pairs on the same items: the same rows and numbers."""
    opts = COMPARE_OPTIONS[option]
    want = kf.compare(DF, *COMPARE_PAIRS, by=BY, categories=CATS, **opts)
    case = make_case(CATS, tmp_path, monkeypatch, capsys, request)
    got = COMPARE_WAYS[way](case, opts).reset_index(drop=True)
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


def _size_polars(case: Case, lazy: bool = False) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    frame = pl.from_pandas(case.df)
    res = kf.sample_size(frame.lazy() if lazy else frame, by=BY, **case.cats(), **SIZE_OPTIONS)
    return (res.collect() if lazy else res).to_pandas()


def _size_dask(case: Case) -> pd.DataFrame:
    dd = pytest.importorskip("dask.dataframe")
    case.request.getfixturevalue("dask_client")
    res = kf.sample_size(
        dd.from_pandas(case.df, npartitions=3), by=BY, **case.cats(), **SIZE_OPTIONS
    )
    return res.compute() if hasattr(res, "compute") else res


def _size_cli(case: Case) -> pd.DataFrame:
    path = _written(case, "csv")
    out = case.tmp_path / "plan.csv"
    flags = ["--by", BY, "--categories", *CATS, "--kappa0", "0.2", "--power", "0.9"]
    assert cli_main(["plan", str(path), *flags, "--output", str(out)]) == 0
    return pd.read_csv(out)


#: ``kf.sample_size`` of a pilot through every way in that reads frames, and ``plan``.
SIZE_WAYS: dict[str, Callable[[Case], Any]] = {
    "polars": _size_polars,
    "polars_lazy": lambda case: _size_polars(case, lazy=True),
    "long_pandas": lambda case: kf.sample_size(
        to_long(case.df),
        item="item",
        rater="rater",
        label="label",
        by=BY,
        **case.cats(),
        **SIZE_OPTIONS,
    ),
    "scan_csv": lambda case: kf.sample_size(
        kf.scan(_written(case, "csv"), batch_size=7), by=BY, **case.cats(), **SIZE_OPTIONS
    ),
    "dask": _size_dask,
    "cli": _size_cli,
    "accessor": lambda case: case.df.kappa.sample_size(by=BY, **case.cats(), **SIZE_OPTIONS),
}


@pytest.mark.parametrize("way", list(SIZE_WAYS))
def test_sample_size_parity(
    way: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """Every way in reads the same pilot: the same shares, kappa and number of items."""
    want = kf.sample_size(DF, by=BY, categories=CATS, **SIZE_OPTIONS)
    assert list(want["n_raters"]) == [5, 5, 5] and len(set(want["n_items"])) == 3
    case = make_case(CATS, tmp_path, monkeypatch, capsys, request)
    got = SIZE_WAYS[way](case).reset_index(drop=True)
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
}

NUMERIC_LONG = {"item": "item", "rater": "rater", "value": "label"}


def _numeric(frame: Any, function: str, opts: dict[str, Any], long: bool = False) -> Any:
    layout = NUMERIC_LONG if long else {}
    return getattr(kf, function)(frame, by=BY, **layout, **opts)


def _numeric_scan(case: Case, function: str, opts: dict[str, Any], suffix: str) -> Any:
    path = case.tmp_path / f"scores.{suffix}"
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
        SCORES.to_parquet(path, index=False)
    else:
        SCORES.to_csv(path, index=False)
    return _numeric(kf.scan(path, batch_size=7), function, opts)


def _numeric_polars(case: Case, function: str, opts: dict[str, Any], how: str) -> Any:
    pl = pytest.importorskip("polars")
    frame = pl.from_pandas(to_long(SCORES) if how == "long" else SCORES)
    if how == "lazy":
        res = _numeric(frame.lazy(), function, opts)
        assert isinstance(res, pl.LazyFrame)
        return res.collect()
    res = _numeric(frame, function, opts, long=how == "long")
    assert isinstance(res, pl.DataFrame)
    return res


def _numeric_dask(case: Case, function: str, opts: dict[str, Any], long: bool) -> Any:
    dd = pytest.importorskip("dask.dataframe")
    case.request.getfixturevalue("dask_client")
    frame = to_long(SCORES) if long else SCORES
    res = _numeric(dd.from_pandas(frame, npartitions=3), function, opts, long=long)
    assert isinstance(res, dd.DataFrame)
    return res.compute()


def _numeric_duckdb(case: Case, function: str, opts: dict[str, Any], long: bool) -> Any:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    con = duckdb.connect()
    try:
        con.register("scores", to_long(SCORES) if long else SCORES)
        res = _numeric(con.sql("SELECT * FROM scores"), function, opts, long=long)
    finally:
        con.close()
    assert isinstance(res, pd.DataFrame)
    return res


def _numeric_spark(case: Case, function: str, opts: dict[str, Any]) -> Any:
    session = case.request.getfixturevalue("spark_session")
    rows = [
        tuple(None if isinstance(v, float) and np.isnan(v) else v for v in row)
        for row in SCORES.itertuples(index=False)
    ]
    schema = ", ".join(f"{c} {'string' if c == BY else 'double'}" for c in SCORES.columns)
    return _numeric(session.createDataFrame(rows, schema), function, opts)


NUMERIC_WAYS: dict[str, Callable[[Case, str, dict[str, Any]], Any]] = {
    "polars": lambda case, f, o: _numeric_polars(case, f, o, "eager"),
    "polars_lazy": lambda case, f, o: _numeric_polars(case, f, o, "lazy"),
    "long_pandas": lambda case, f, o: _numeric(to_long(SCORES), f, o, long=True),
    "long_polars": lambda case, f, o: _numeric_polars(case, f, o, "long"),
    "scan_parquet": lambda case, f, o: _numeric_scan(case, f, o, "parquet"),
    "scan_csv": lambda case, f, o: _numeric_scan(case, f, o, "csv"),
    "dask": lambda case, f, o: _numeric_dask(case, f, o, long=False),
    "long_dask": lambda case, f, o: _numeric_dask(case, f, o, long=True),
    "duckdb": lambda case, f, o: _numeric_duckdb(case, f, o, long=False),
    "long_duckdb": lambda case, f, o: _numeric_duckdb(case, f, o, long=True),
    "spark": _numeric_spark,
}

#: Engines compute the ICC's sums; Kendall's W ranks the scores and is refused there
#: (``tests/api/test_icc.py``).
ENGINE_WAYS = ("duckdb", "long_duckdb", "spark")
#: Each Spark query takes seconds: the options that change its query (the rest are the
#: same sums, finished in Python).
SPARK_OPTIONS = ("icc", "icc_raters")

#: Text columns of the numeric results; the others are compared as numbers.
NUMERIC_TEXT = (BY, "type", "description", "mcgraw_wong")


@pytest.mark.parametrize(
    ("way", "option"),
    [
        pytest.param(way, option, id=f"{way}-{option}")
        for way in NUMERIC_WAYS
        for option in NUMERIC_OPTIONS
        if way not in ENGINE_WAYS or NUMERIC_OPTIONS[option][0] == "icc"
        if way != "spark" or option in SPARK_OPTIONS
    ],
)
def test_numeric_parity(
    way: str,
    option: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """Every way in gives the ICC and Kendall's W of the pandas wide call, to 1e-12."""
    function, opts = NUMERIC_OPTIONS[option]
    want = _numeric(SCORES, function, opts)
    assert want.select_dtypes("number").notna().all().all()
    case = make_case(None, tmp_path, monkeypatch, capsys, request)
    got = NUMERIC_WAYS[way](case, function, opts)
    if not isinstance(got, pd.DataFrame):
        got = got.to_pandas()
    got = got.reset_index(drop=True)
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


def _overall_cli(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    path = case.tmp_path / "wide.csv"
    case.df.to_csv(path, index=False)
    out = case.tmp_path / "pairs.csv"
    methods = opts["method"]
    argv = ["report", str(path), "--raters", *RATERS, "--by", BY, "--output", str(out)]
    argv += ["--categories", *CATS, "--no-progress", "--min-items", "10"]
    argv += ["--overall", *([methods] if isinstance(methods, str) else methods)]
    assert "level" not in opts, "the command line has no --level (OVERALL_NOT_OFFERED)"
    argv += cli_flags({k: v for k, v in opts.items() if k != "method"})
    case.capsys.readouterr()
    code = cli_main(argv)
    _, err = case.capsys.readouterr()
    assert code == 0, f"exit code {code}; stderr: {err}"
    return pd.read_csv(case.tmp_path / "pairs.overall.csv", dtype={BY: str})


def _overall_polars(case: Case, opts: dict[str, Any], lazy: bool = False) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    frame = pl.from_pandas(case.df, nan_to_null=True)
    res = kf.overall(frame.lazy() if lazy else frame, by=BY, categories=CATS, **opts)
    assert isinstance(res, pl.LazyFrame if lazy else pl.DataFrame)
    return (res.collect() if lazy else res).to_pandas()


def _overall_long(frame: Any, opts: dict[str, Any]) -> Any:
    return kf.overall(
        frame, item="item", rater="rater", label="label", by=BY, categories=CATS, **opts
    )


def _overall_long_polars(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    pl = pytest.importorskip("polars")
    res = _overall_long(pl.from_pandas(to_long(case.df)), opts)
    assert isinstance(res, pl.DataFrame)
    return res.to_pandas()


def _overall_scan(case: Case, opts: dict[str, Any], suffix: str) -> pd.DataFrame:
    path = case.tmp_path / f"wide.{suffix}"
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
        case.df.to_parquet(path, index=False)
    else:
        case.df.to_csv(path, index=False)
    return kf.overall(kf.scan(path, batch_size=7), by=BY, categories=CATS, **opts)


def _overall_dask(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    dd = pytest.importorskip("dask.dataframe")
    case.request.getfixturevalue("dask_client")
    res = kf.overall(dd.from_pandas(case.df, npartitions=3), by=BY, categories=CATS, **opts)
    assert isinstance(res, dd.DataFrame)
    return res.compute()


def _overall_shuffled(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    """The same items in another row order: the same draws, the same intervals."""
    shuffled = case.df.sample(frac=1.0, random_state=11).reset_index(drop=True)
    return kf.overall(shuffled, by=BY, categories=CATS, **opts)


def _overall_counts(case: Case, opts: dict[str, Any]) -> pd.DataFrame:
    """The item x category counts table (layout="counts"): coefficients that read counts."""
    needs_raters = {"light", "conger"} & set(np.atleast_1d(opts["method"]))
    assert not needs_raters, "light and conger need the ratings (OVERALL_NOT_OFFERED)"
    counted = pd.DataFrame({c: (case.df[RATERS] == c).sum(axis=1) for c in CATS})
    counted[BY] = case.df[BY]
    return kf.overall(counted, layout="counts", by=BY, categories=CATS, **opts)


OVERALL_WAYS: dict[str, Callable[[Case, dict[str, Any]], pd.DataFrame]] = {
    "polars": _overall_polars,
    "polars_lazy": lambda case, opts: _overall_polars(case, opts, lazy=True),
    "long_pandas": lambda case, opts: _overall_long(to_long(case.df), opts),
    "long_polars": _overall_long_polars,
    "scan_parquet": lambda case, opts: _overall_scan(case, opts, "parquet"),
    "scan_csv": lambda case, opts: _overall_scan(case, opts, "csv"),
    "dask": _overall_dask,
    "shuffled": _overall_shuffled,
    "counts": _overall_counts,
    "cli": _overall_cli,
}

#: Cells a way in cannot express (excluded, not skipped).
OVERALL_NOT_OFFERED = {
    ("cli", "bootstrap_ordinal"): "the command line has no --level",
    ("counts", "analytic"): "light and conger need the ratings",
    ("counts", "bootstrap"): "light and conger need the ratings",
    ("counts", "bootstrap_weighted"): "light and conger need the ratings",
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
def test_overall_parity(
    way: str,
    option: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    """Every way in gives the overall table of the pandas wide call, intervals included."""
    opts = OVERALL_OPTIONS[option]
    want = kf.overall(DF, by=BY, categories=CATS, **opts)
    assert want["se"].notna().all()
    case = make_case(CATS, tmp_path, monkeypatch, capsys, request)
    assert_same_overall(OVERALL_WAYS[way](case, opts), want)


@pytest.mark.parametrize("option", list(OVERALL_OPTIONS))
def test_overall_accessor_is_identical(option: str) -> None:
    """``df.kappa.overall(...)`` is ``kf.overall(df, ...)``, bootstrap included."""
    opts = OVERALL_OPTIONS[option]
    want = kf.overall(DF, by=BY, categories=CATS, **opts)
    got = DF.kappa.overall(by=BY, categories=CATS, **opts)
    pd.testing.assert_frame_equal(got, want, check_exact=True)

"""Nothing guessed: an order for weights, which columns are raters, index columns of files.

Each rule runs through every way in (pandas, polars, LazyFrame, Dask, a CSV and a Parquet
path, ``kf.scan``, the command line whole and ``--stream``): the same numbers where the
input says what is needed, the same refusal (naming the columns and the way out) where it
does not.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli

GRADES = list(kf.datasets.GRADES)


class Refused(Exception):
    """The command line exited 2; the message is its stderr."""


def _flags(options: dict[str, Any]) -> list[str]:
    flags: list[str] = []
    for key, value in options.items():
        values = value if isinstance(value, list) else [value]
        flags += [f"--{key}", *map(str, values)]
    return flags


def _cli(
    frame: pd.DataFrame,
    tmp: Path,
    stream: bool,
    err: io.StringIO | None = None,
    command: str = "report",
    **options: Any,
) -> pd.DataFrame:
    path = tmp / "ratings.csv"
    frame.to_csv(path, index=False)
    out, err = io.StringIO(), err if err is not None else io.StringIO()
    argv = [command, str(path), "--format", "csv", "--no-progress", *_flags(options)]
    if stream:
        argv.append("--stream")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdout", out)
        mp.setattr("sys.stderr", err)
        code = cli.main(argv)
    if code == 2:
        raise Refused(err.getvalue())
    assert code == 0, err.getvalue()
    return pd.read_csv(io.StringIO(out.getvalue()), keep_default_na=False, na_values=[""])


def _csv(frame: pd.DataFrame, tmp: Path) -> str:
    frame.to_csv(tmp / "ratings.csv", index=False)
    return str(tmp / "ratings.csv")


def _parquet(frame: pd.DataFrame, tmp: Path) -> str:
    pytest.importorskip("pyarrow")
    frame.to_parquet(tmp / "ratings.parquet", index=False)
    return str(tmp / "ratings.parquet")


def _polars(frame: pd.DataFrame) -> Any:
    pl = pytest.importorskip("polars")
    return pl.from_pandas(frame)


def _dask(frame: pd.DataFrame) -> Any:
    dd = pytest.importorskip("dask.dataframe")
    return dd.from_pandas(frame, npartitions=2)


def _as_pandas(result: Any) -> pd.DataFrame:
    if isinstance(result, pd.DataFrame):
        return result
    if hasattr(result, "collect"):
        result = result.collect()
    if hasattr(result, "compute"):
        return result.compute()
    return result.to_pandas()


Way = Callable[..., pd.DataFrame]

#: Every way in: ``(frame, tmp_path, **pairwise options) -> pandas result``.
WAYS: dict[str, Way] = {
    "pandas": lambda f, tmp, **o: kf.pairwise(f, **o),
    "polars": lambda f, tmp, **o: _as_pandas(kf.pairwise(_polars(f), **o)),
    "polars_lazy": lambda f, tmp, **o: _as_pandas(kf.pairwise(_polars(f).lazy(), **o)),
    "dask": lambda f, tmp, **o: _as_pandas(kf.pairwise(_dask(f), **o)),
    "csv_path": lambda f, tmp, **o: kf.pairwise(_csv(f, tmp), **o),
    "parquet_path": lambda f, tmp, **o: kf.pairwise(_parquet(f, tmp), **o),
    "scan": lambda f, tmp, **o: kf.pairwise(kf.scan(_csv(f, tmp), batch_size=100), **o),
    "report": lambda f, tmp, **o: _cli(f, tmp, False, **o),
    "report_stream": lambda f, tmp, **o: _cli(f, tmp, True, **o),
}

#: Ways where the labels arrive as plain text (a file, or a frame that lost its dtype).
TEXT_WAYS = ["csv_path", "parquet_path", "scan", "report", "report_stream"]

#: Every way in of ``kf.items``: ``(frame, tmp_path, **items options) -> pandas result``.
ITEM_WAYS: dict[str, Way] = {
    "pandas": lambda f, tmp, **o: kf.items(f, **o),
    "polars": lambda f, tmp, **o: _as_pandas(kf.items(_polars(f), **o)),
    "polars_lazy": lambda f, tmp, **o: _as_pandas(kf.items(_polars(f).lazy(), **o)),
    "dask": lambda f, tmp, **o: _as_pandas(kf.items(_dask(f), **o)),
    "csv_path": lambda f, tmp, **o: kf.items(_csv(f, tmp), **o),
    "parquet_path": lambda f, tmp, **o: kf.items(_parquet(f, tmp), **o),
    "scan": lambda f, tmp, **o: kf.items(kf.scan(_csv(f, tmp), batch_size=100), **o),
    "items": lambda f, tmp, **o: _cli(f, tmp, False, command="items", **o),
}


def team_as_text() -> pd.DataFrame:
    """The bundled team with its grades as plain strings: no declared order."""
    team = kf.datasets.labeling_team()
    raters = [*kf.datasets.TEAM, "gold"]
    return team.astype({r: "string" for r in raters}).astype({r: object for r in raters})


# ------------------------------------------------------------------ an order for weights


@pytest.mark.parametrize("way", list(WAYS))
def test_weights_on_text_labels_ask_for_the_order(way: str, tmp_path: Path) -> None:
    text = team_as_text()
    with pytest.raises((kf.KappaFrameError, Refused)) as refused:
        WAYS[way](text, tmp_path, raters=["ana", "ben"], weights="linear")
    message = str(refused.value)
    assert "needs the order of the categories" in message
    assert "'ana', 'ben'" in message
    assert ("--categories" if way.startswith("report") else "categories=[...]") in message
    # Told the order, every way gives the number of the ordered Categorical.
    ordered = kf.pairwise(kf.datasets.labeling_team(), ["ana", "ben"], weights="linear")
    got = WAYS[way](text, tmp_path, raters=["ana", "ben"], weights="linear", categories=GRADES)
    assert got["kappa"].iloc[0] == pytest.approx(ordered["kappa"].iloc[0], abs=1e-12)
    assert ordered["kappa"].iloc[0] == pytest.approx(0.664986, abs=1e-6)  # not 0.426 (sorted)


@pytest.mark.parametrize("way", ["pandas", "polars", "polars_lazy", "dask", *TEXT_WAYS])
def test_number_labels_order_themselves(way: str, tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    a = rng.integers(1, 11, 200)
    frame = pd.DataFrame(
        {"a": a, "b": np.where(rng.random(200) < 0.6, a, rng.integers(1, 11, 200))}
    )
    got = WAYS[way](frame, tmp_path, weights="quadratic")
    sklearn = pytest.importorskip("sklearn.metrics")
    want = sklearn.cohen_kappa_score(frame["a"], frame["b"], weights="quadratic")
    assert got["kappa"].iloc[0] == pytest.approx(want, abs=1e-12)  # 1 < 2 < 10, not "10" < "2"


def test_polars_categorical_has_no_order_but_an_enum_has() -> None:
    pl = pytest.importorskip("polars")
    team = pl.from_pandas(kf.datasets.labeling_team().drop(columns=["item", "model_score"]))
    raters = ["ana", "ben"]
    assert team.schema["ana"] == pl.Categorical  # from_pandas keeps no order
    with pytest.raises(kf.KappaFrameError, match="needs the order of the categories"):
        team.kappa.pairwise(raters, weights="linear")
    with pytest.raises(kf.KappaFrameError, match="needs the order of the categories"):
        team.kappa.overall(raters, method="gwet_ac2", weights="linear")
    enum = team.with_columns(pl.col(raters).cast(pl.String).cast(pl.Enum(GRADES)))
    want = kf.datasets.labeling_team().kappa.overall(raters, method="gwet_ac2", weights="linear")
    got = enum.kappa.overall(raters, method="gwet_ac2", weights="linear").to_pandas()
    assert got["value"].iloc[0] == pytest.approx(want["value"].iloc[0], abs=1e-12)


@pytest.mark.parametrize(
    "call",
    [
        lambda f: kf.matrix(f, ["ana", "ben", "cai"], weights="quadratic"),
        lambda f: kf.score(f, "ana", "ben", weights=np.abs(np.subtract.outer(range(5), range(5)))),
        lambda f: kf.overall(f, ["ana", "ben", "cai"], weights="linear"),
        lambda f: kf.overall(f, ["ana", "ben"], method="krippendorff", level="ordinal"),
        lambda f: kf.raters(f, ["ana", "ben", "cai"], weights="linear"),
        lambda f: kf.counts(f, ["ana", "ben"]).pairwise(weights="quadratic"),
    ],
    ids=["matrix", "score_matrix", "overall", "ordinal_alpha", "raters", "counts"],
)
def test_every_statistic_that_needs_an_order_asks_for_it(call: Callable[[Any], Any]) -> None:
    with pytest.raises(kf.KappaFrameError, match="needs the order of the categories") as info:
        call(team_as_text())
    assert info.value.option == "categories"


def test_what_needs_no_order_still_runs_on_text() -> None:
    """Unweighted statistics, a frame of weights labelled by category, and two labels."""
    text = team_as_text()
    team = kf.datasets.labeling_team()
    plain = kf.pairwise(text, ["ana", "ben"])["kappa"].iloc[0]
    assert plain == pytest.approx(kf.pairwise(team, ["ana", "ben"])["kappa"].iloc[0], abs=1e-12)
    labelled = pd.DataFrame(
        np.abs(np.subtract.outer(range(5), range(5))), index=GRADES, columns=GRADES
    )
    got = kf.pairwise(text, ["ana", "ben"], weights=labelled)["kappa"].iloc[0]
    want = kf.pairwise(team, ["ana", "ben"], weights="linear")["kappa"].iloc[0]
    assert got == pytest.approx(want, abs=1e-12)
    yes_no = pd.DataFrame({"a": ["y", "n", "y", "n"], "b": ["y", "n", "n", "n"]})
    assert kf.score(yes_no, "a", "b", weights="quadratic") == pytest.approx(
        kf.score(yes_no, "a", "b"), abs=1e-12
    )


# ------------------------------------------------------------ which columns are raters


@pytest.mark.parametrize("way", list(WAYS))
def test_ids_and_scores_are_not_taken_as_raters(way: str, tmp_path: Path) -> None:
    team = kf.datasets.labeling_team()
    if way in TEXT_WAYS or way == "dask":
        team = team_as_text()
    with pytest.raises((kf.KappaFrameError, Refused)) as refused:
        WAYS[way](team, tmp_path, by="project")
    message = str(refused.value)
    # (per batch of a file read in batches: 100 ids in 100 rows)
    assert re.search(r"'item' \((\d+) distinct values in \1 labelled rows\)", message)
    assert "'model_score' (numbers that are not whole, such as" in message
    assert ("--raters" if way.startswith("report") else "raters=[...]") in message
    named = [*kf.datasets.TEAM, "gold"]
    got = WAYS[way](team, tmp_path, by="project", raters=named)
    want = kf.pairwise(kf.datasets.labeling_team(), named, by="project")
    assert len(got) == len(want) == 3 * 15
    np.testing.assert_allclose(got["kappa"], want["kappa"], rtol=0, atol=1e-12)


def test_label_columns_with_few_rows_or_declared_categories_are_raters() -> None:
    small = pd.DataFrame({"a": list("abcdefgh"), "b": list("abcdefgx")})  # 8 distinct of 8
    assert kf.pairwise(small)["n"].iloc[0] == 8
    many = [f"c{i}" for i in range(30)]
    declared = pd.DataFrame(
        {r: pd.Categorical(many, categories=many, ordered=True) for r in ("a", "b")}
    )
    assert kf.pairwise(declared)["kappa"].iloc[0] == 1.0
    whole = pd.DataFrame({"a": [1.0, 2.0, np.nan, 3.0], "b": [1.0, 2.0, 2.0, 3.0]})
    assert kf.pairwise(whole)["n"].iloc[0] == 3  # whole numbers in a float column are labels


# ----------------------------------------------------------- index columns of pandas


@pytest.mark.parametrize("way", ["parquet_path", "scan_parquet", "report", "report_stream"])
def test_an_index_written_by_pandas_is_never_a_rater(way: str, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    team = kf.datasets.labeling_team().drop(columns=["item", "model_score"])
    shuffled = team.sample(frac=1.0, random_state=1)  # not a RangeIndex: written as a column
    path = tmp_path / "team.parquet"
    shuffled.to_parquet(path)
    import pyarrow.parquet as pq

    assert "__index_level_0__" in pq.read_schema(path).names
    if way == "parquet_path":
        got = kf.pairwise(str(path), by="project")
    elif way == "scan_parquet":
        got = kf.pairwise(kf.scan(str(path), batch_size=100), by="project")
    else:
        argv = ["report", str(path), "--by", "project", "--format", "csv", "--no-progress"]
        out = io.StringIO()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr("sys.stdout", out)
            assert cli.main([*argv, *(["--stream"] if way == "report_stream" else [])]) == 0
        got = pd.read_csv(io.StringIO(out.getvalue()))
    want = kf.pairwise(team, by="project")
    assert "__index_level_0__" not in set(got["rater_a"]) | set(got["rater_b"])
    np.testing.assert_allclose(got["kappa"], want["kappa"], rtol=0, atol=1e-12)


# ------------------------------------------------------- tokens that often mean missing


@pytest.mark.parametrize("way", ["pandas", "polars", "csv_path", "scan", "report", "report_stream"])
def test_a_missing_token_is_a_label_said_once(way: str, tmp_path: Path) -> None:
    frame = pd.DataFrame(
        {"a": ["yes", "NA", "no", "yes", "no"], "b": ["yes", "no", "no", "NA", "no"]}
    )
    if way.startswith("report"):
        err = io.StringIO()
        got = _cli(frame, tmp_path, way == "report_stream", err=err)
        assert err.getvalue().count("warning:") == 1
        assert "'NA' in 'a', 'b'" in err.getvalue() and "--na-values NA" in err.getvalue()
    else:
        with pytest.warns(kf.MissingTokenWarning, match=r"'NA' in 'a', 'b'") as seen:
            got = WAYS[way](frame, tmp_path)
        assert len([w for w in seen if w.category is kf.MissingTokenWarning]) == 1
    assert got["n"].iloc[0] == 5  # counted as a label, as the rule says


def test_a_token_listed_in_categories_is_the_callers_label() -> None:
    frame = pd.DataFrame({"a": ["yes", "NA", "no"], "b": ["yes", "NA", "no"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kf.pairwise(frame, categories=["no", "NA", "yes"])["kappa"].iloc[0] == 1.0


# ------------------------------------------------------------------------- items


@pytest.mark.parametrize("way", list(ITEM_WAYS))
def test_items_first_category_asks_for_the_order(way: str, tmp_path: Path) -> None:
    """The first-category tie rule needs the order sorting text would guess."""
    text = team_as_text()
    with pytest.raises((kf.KappaFrameError, Refused)) as refused:
        ITEM_WAYS[way](text, tmp_path, raters=["ana", "ben"], ties="first-category")
    message = str(refused.value)
    assert "needs the order of the categories" in message and "'ana', 'ben'" in message
    assert ("--categories" if way == "items" else "categories=[...]") in message
    got = ITEM_WAYS[way](
        text, tmp_path, raters=["ana", "ben"], ties="first-category", categories=GRADES
    )
    want = kf.items(kf.datasets.labeling_team(), ["ana", "ben"], ties="first-category")
    assert got["consensus"].astype(str).tolist() == want["consensus"].astype(str).tolist()
    assert want["tied"].sum() > 10  # the rule decided many items


@pytest.mark.parametrize("way", list(ITEM_WAYS))
def test_items_take_no_ids_or_scores_as_raters(way: str, tmp_path: Path) -> None:
    team = kf.datasets.labeling_team()
    if way in TEXT_WAYS or way in ("dask", "items"):
        team = team_as_text()
    with pytest.raises((kf.KappaFrameError, Refused)) as refused:
        ITEM_WAYS[way](team, tmp_path, by="project")
    message = str(refused.value)
    assert re.search(r"'item' \((\d+) distinct values in \1 labelled rows\)", message)
    assert "'model_score' (numbers that are not whole, such as" in message
    assert ("--raters" if way == "items" else "raters=[...]") in message
    # Named as the item column, the ids name the items and are no rater.
    named = {"by": "project", "item": "item"}
    if way == "items":
        got = ITEM_WAYS[way](team, tmp_path, exclude="model_score", **named)
    else:
        got = ITEM_WAYS[way](team.drop(columns=["model_score"]), tmp_path, **named)
    want = kf.items(kf.datasets.labeling_team().drop(columns=["model_score"]), **named)
    assert len(got) == len(want) == 600
    assert got["item"].astype(str).tolist() == want["item"].astype(str).tolist()
    np.testing.assert_allclose(got["p_i"], want["p_i"], rtol=0, atol=1e-12)

"""``kappaframe report --baseline``: pairs in either order, and every option that must match.

Every test runs the real command line on files it wrote in ``tmp_path``: a baseline written
by ``kappaframe report --ci ... --output``, then this run against it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from kappaframe import cli
from kappaframe._cli.baseline import SAME_SETTINGS
from kappaframe._cli.parser import build_parser, option_flags

LABELS = np.array(["bad", "poor", "ok", "good"])


def ratings(n: int, share: float, seed: int, skip: float = 0.0) -> pd.DataFrame:
    """ana, ben, dee: ben and dee copy ana on ``share`` of the items, else guess.

    ``skip``: the share of ben's cells written "skip" (a token --na-values may make missing).
    """
    rng = np.random.default_rng(seed)
    ana = rng.integers(0, 4, n)
    out = {"ana": LABELS[ana]}
    for name in ("ben", "dee"):
        out[name] = LABELS[np.where(rng.random(n) < share, ana, rng.integers(0, 4, n))]
    out["ben"] = np.where(rng.random(n) < skip, "skip", out["ben"])
    return pd.DataFrame(out)


def write(frame: pd.DataFrame, path: Path) -> Path:
    frame.to_csv(path, index=False)
    return path


def run(argv: list[Any], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli.main([str(a) for a in argv])
    return code, capsys.readouterr().err


def report(
    source: Path, out: Path, capsys: pytest.CaptureFixture[str], *flags: Any
) -> tuple[int, pd.DataFrame | None, str]:
    """``kappaframe report SOURCE --ci 0.95 FLAGS -o OUT``: the code, the table, stderr."""
    code, err = run(["report", source, "--ci", "0.95", *flags, "-o", out], capsys)
    table = None
    if code != 2 and out.suffix == ".csv":
        table = pd.read_csv(out, keep_default_na=False, na_values=[""])
    return code, table, err


def gate(old: Path, *flags: Any) -> list[Any]:
    return ["--baseline", old, "--max-drop", 0.1, *flags]


def pairs(table: pd.DataFrame, columns: list[str]) -> dict[frozenset[str], tuple[Any, ...]]:
    return {
        frozenset((row["rater_a"], row["rater_b"])): tuple(row[columns])
        for _, row in table.iterrows()
    }


COMPARED = ["baseline", "change", "change_low", "change_high", "state"]


# ----------------------------------------------------------------- pairs in either order


def test_raters_in_another_order_are_ok_with_the_same_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = write(ratings(3000, 0.8, seed=1), tmp_path / "old.csv")
    new = write(ratings(3000, 0.8, seed=2), tmp_path / "new.csv")
    base = tmp_path / "base.parquet"
    assert report(old, base, capsys, "--raters", "ana", "ben", "dee")[0] == 0
    same_order = report(new, tmp_path / "same.csv", capsys, "--raters", "ana", "ben", "dee",
                        *gate(base))  # fmt: skip
    code, table, err = report(
        new, tmp_path / "turned.csv", capsys, "--raters", "ben", "dee", "ana", *gate(base)
    )
    assert code == 0 == same_order[0], err
    assert table is not None and same_order[1] is not None
    assert table["state"].tolist() == ["ok", "ok", "ok"]
    # This run's orientation is kept: the pairs as --raters ben dee ana writes them.
    assert list(zip(table["rater_a"], table["rater_b"], strict=True)) == [
        ("ben", "dee"), ("ben", "ana"), ("dee", "ana")
    ]  # fmt: skip
    got, expected = pairs(table, COMPARED), pairs(same_order[1], COMPARED)
    assert got.keys() == expected.keys()
    for key, values in expected.items():
        np.testing.assert_allclose(got[key][:4], values[:4], atol=1e-12)
        assert got[key][4] == values[4]
    # The baseline column is the baseline's kappa of the pair, whichever way round.
    written = pairs(pd.read_parquet(base), ["kappa"])
    assert {k: (v[0],) for k, v in got.items()} == written


def test_a_real_drop_written_the_other_way_round_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = write(ratings(3000, 0.8, seed=1), tmp_path / "old.csv")
    new = write(ratings(3000, 0.3, seed=2), tmp_path / "new.csv")
    base = tmp_path / "base.csv"
    assert report(old, base, capsys, "--raters", "ana", "ben")[0] == 0
    code, table, err = report(new, tmp_path / "now.csv", capsys, "--raters", "ben", "ana",
                              *gate(base))  # fmt: skip
    assert code == 1, err
    assert table is not None
    assert table[["rater_a", "rater_b", "state"]].values.tolist() == [["ben", "ana", "dropped"]]
    assert table["change_high"].iloc[0] < -0.1
    assert "1 of 1 rows dropped by more than 0.1" in err


# ----------------------------------------------------------------- --na-values


def test_the_identical_run_with_na_values_is_all_ok(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(ratings(4000, 0.9, seed=3, skip=0.3), tmp_path / "team.csv")
    flags = ["--raters", "ana", "ben", "dee", "--na-values", "skip"]
    for suffix in ("parquet", "csv"):
        base = tmp_path / f"base.{suffix}"
        assert report(source, base, capsys, *flags)[0] == 0
        code, table, err = report(source, tmp_path / "now.csv", capsys, *flags, *gate(base))
        assert code == 0, err
        assert table is not None and table["state"].tolist() == ["ok"] * 3
        assert (table["change"] == 0).all()
        assert "dropped" not in err and "cannot tell" not in err
    # The token matters: without it "skip" is a label of ben's and his pairs fall.
    code, table, _ = report(source, tmp_path / "plain.csv", capsys, *flags[:4])
    assert table is not None
    assert (table.loc[table["rater_a"] == "ana", "n"] == 4000).all()
    with_token = pd.read_csv(tmp_path / "base.csv")
    assert (with_token["n"] < 4000).sum() == 2


@pytest.mark.parametrize(
    ("then", "now", "said"),
    [
        (["--na-values", "skip"], [], "--na-values: skip then, none now"),
        ([], ["--na-values", "skip"], "--na-values: none then, skip now"),
        (["--na-values", "skip"], ["--na-values", "skip", "NA"], "--na-values: skip then"),
    ],
)
def test_other_na_values_are_refused_naming_the_flag(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    then: list[str],
    now: list[str],
    said: str,
) -> None:
    source = write(ratings(500, 0.8, seed=3, skip=0.3), tmp_path / "team.csv")
    for suffix in ("parquet", "csv"):  # the record in Parquet metadata, or in the sidecar
        base = tmp_path / f"base.{suffix}"
        assert report(source, base, capsys, *then)[0] == 0
        code, _, err = report(source, tmp_path / "now.csv", capsys, *now, *gate(base))
        assert code == 2, err
        assert "was made with other settings" in err and said in err


def test_na_values_in_another_order_are_the_same_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(ratings(3000, 0.8, seed=3, skip=0.3), tmp_path / "team.csv")
    base = tmp_path / "base.parquet"
    assert report(source, base, capsys, "--na-values", "NA", "skip")[0] == 0
    code, table, err = report(source, tmp_path / "now.csv", capsys, "--na-values", "skip",
                              "NA", *gate(base))  # fmt: skip
    assert code == 0, err
    assert table is not None and set(table["state"]) == {"ok"}


# ----------------------------------------------------------------- sets and --overall


def sets(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    tags = ["joy", "anger", "fear"]
    ann = ["|".join(t for t in tags if rng.random() < 0.4) for _ in range(n)]
    bob = [s if rng.random() < 0.8 else "|".join(tags[: rng.integers(0, 3)]) for s in ann]
    return pd.DataFrame({"ann": ann, "bob": bob})


@pytest.mark.parametrize(
    ("then", "now", "said"),
    [
        (["--distance", "masi"], [], "--distance: masi then, none now"),
        ([], ["--distance", "jaccard"], "--distance: none then, jaccard now"),
        (["--ddof", "0"], [], "--ddof: 0 then, 1 now"),
        (["--alpha-centre", "p_a"], [], "--alpha-centre: p_a then, p_a_prime now"),
    ],
)
def test_masi_alpha_and_overall_conventions_must_match(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    then: list[str],
    now: list[str],
    said: str,
) -> None:
    source = write(sets(400, seed=4), tmp_path / "tags.csv")
    flags = ["--multi-sep", "|", "--overall", "krippendorff"]
    for suffix in ("parquet", "csv"):
        out = tmp_path / f"base.{suffix}"
        assert report(source, out, capsys, *flags, *then)[0] == 0
        base = tmp_path / f"base.overall.{suffix}"
        code, _, err = report(source, tmp_path / "now.csv", capsys, *flags, *now, *gate(base))
        assert code == 2, err
        assert "was made with other settings" in err and said in err
    # Alike, the same sets compare: nothing changed.
    code, _, err = report(source, tmp_path / "again.csv", capsys, *flags, *then, *gate(base))
    assert code == 0, err
    again = pd.read_csv(tmp_path / "again.overall.csv")
    assert again["state"].tolist() == ["ok"] and again["change"].tolist() == [0.0]


def test_sets_against_text_labels_are_refused_naming_multi_sep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(sets(400, seed=4), tmp_path / "tags.csv")
    base = tmp_path / "base.parquet"
    assert report(source, base, capsys, "--multi-sep", "|")[0] == 0
    code, _, err = report(source, tmp_path / "now.csv", capsys, *gate(base))
    assert code == 2 and "--multi-sep: | then, none now" in err


# ----------------------------------------------------------------- the must-match table


def test_every_must_match_setting_is_a_flag_of_report_and_is_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commands = next(a for a in build_parser()._actions if a.dest == "command")
    flags = option_flags(commands.choices["report"])  # type: ignore[index]
    for option, flag in SAME_SETTINGS.items():
        assert flags.get(option) == flag, option
    source = write(ratings(200, 0.8, seed=5), tmp_path / "team.csv")
    out = tmp_path / "table.csv"
    assert report(source, out, capsys)[0] == 0
    record = json.loads((tmp_path / "table.csv.provenance.json").read_text(encoding="utf-8"))
    assert set(SAME_SETTINGS) <= set(record["options"])

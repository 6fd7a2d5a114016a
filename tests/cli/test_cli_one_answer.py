"""One answer per file: --stream reads a CSV file as the whole read does.

Decimal-comma labels on a semicolon file are numbers in numeric order (``10,0`` after
``2,5``) read whole or in batches, sniffed or given; an empty header name is one name on
every way in.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli
from kappaframe._io import scan as io_scan

RATERS = ["ana", "ben", "cai"]
LABELS = ["0,5", "1,5", "2,5", "10,0"]


def _table(path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> pd.DataFrame:
    capsys.readouterr()
    code = cli.main(["report", str(path), "--format", "csv", "--no-progress", *flags])
    out, err = capsys.readouterr()
    assert code == 0, err
    return pd.read_csv(io.StringIO(out))


def _same(got: pd.DataFrame, expected: pd.DataFrame) -> None:
    columns = ["rater_a", "rater_b", "n", "p_o", "p_e", "kappa"]
    pd.testing.assert_frame_equal(
        got[columns].reset_index(drop=True),
        expected[columns].reset_index(drop=True),
        check_dtype=False,
        check_exact=False,
        rtol=0,
        atol=1e-12,
    )


@pytest.fixture
def decimal_commas(tmp_path: Path) -> tuple[Path, pd.DataFrame]:
    """A semicolon file of decimal-comma labels, and the same ratings as numbers."""
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 4, 400)
    codes = {r: np.clip(truth + rng.integers(-1, 2, 400), 0, 3) for r in RATERS}
    lines = ["id;" + ";".join(RATERS)]
    lines += [f"{i};" + ";".join(LABELS[codes[r][i]] for r in RATERS) for i in range(len(truth))]
    path = tmp_path / "grades.csv"
    path.write_text("\n".join(lines) + "\n")
    numbers = pd.DataFrame({r: np.array([0.5, 1.5, 2.5, 10.0])[codes[r]] for r in RATERS})
    return path, numbers


@pytest.mark.parametrize(
    "flags",
    [[], ["--delimiter", ";"], ["--decimal", ","], ["--delimiter", ";", "--decimal", ","]],
    ids=["sniffed", "delimiter", "decimal", "both"],
)
def test_decimal_comma_labels_are_numbers_in_numeric_order_whole_and_streamed(
    flags: list[str],
    decimal_commas: tuple[Path, pd.DataFrame],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path, numbers = decimal_commas
    # Linear weights need the order: text labels would be refused (no declared order).
    expected = kf.pairwise(numbers, RATERS, weights="linear")
    named = ["--raters", *RATERS, "--weights", "linear", *flags]
    _same(_table(path, capsys, *named), expected)
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 64)  # many batches of a few lines
    _same(_table(path, capsys, *named, "--stream"), expected)


def test_an_empty_header_name_is_one_name_whole_and_streamed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(9)
    rows = rng.choice(["x", "y"], size=(300, 3))
    path = tmp_path / "gap.csv"
    path.write_text("a,,c\n" + "".join(",".join(r) + "\n" for r in rows))
    whole = _table(path, capsys)
    assert whole["rater_b"].tolist()[:2] == ["Unnamed: 1", "c"]
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 32)
    streamed = _table(path, capsys, "--stream")
    assert streamed.equals(whole)
    _same(kf.pairwise(str(path)), whole)
    _same(_table(path, capsys, "--stream", "--raters", "a", "Unnamed: 1"), whole.iloc[:1])

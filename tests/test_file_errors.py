"""Awkward files through Python (``kf.pairwise(path)``, ``kf.scan``) and the command line.

Damaged or missing files fail with a :class:`kappaframe.KappaFrameError` that names the file
and the way out (never a raw pyarrow, decompressor or OS error), and the files both ways in
read (folders, header-only files, quoted line breaks, empty header names, labels as
written) give the same numbers.
"""

from __future__ import annotations

import gzip
import io
import lzma
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli
from kappaframe._frames import files

pytest.importorskip("pyarrow")

#: The two Python ways a path comes in.
WAYS: dict[str, Callable[..., Any]] = {
    "path": lambda path, **kw: kf.pairwise(str(path), **kw),
    "scan": lambda path, **kw: kf.pairwise(kf.scan(path), **kw),
}


def ratings_csv(rows: int = 3000, seed: int = 1) -> bytes:
    rng = np.random.default_rng(seed)
    a = rng.choice(["yes", "no"], rows)
    b = np.where(rng.random(rows) < 0.8, a, rng.choice(["yes", "no"], rows))
    return ("a,b\n" + "".join(f"{x},{y}\n" for x, y in zip(a, b, strict=True))).encode()


def by_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def cli_table(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> pd.DataFrame:
    code, out, err = by_cli(["report", str(path), "--format", "csv", *extra], capsys)
    assert code == 0, err
    return pd.read_csv(io.StringIO(out))


def same_numbers(got: pd.DataFrame, expected: pd.DataFrame) -> None:
    columns = ["rater_a", "rater_b", "n", "p_o", "p_e", "kappa"]
    left = got[columns].reset_index(drop=True)
    right = expected[columns].reset_index(drop=True)
    pd.testing.assert_frame_equal(
        left, right, check_dtype=False, check_exact=False, rtol=0, atol=1e-12
    )


# --------------------------------------------------------------------------- 1. damaged files


def damaged_xz(path: Path) -> None:
    path.write_bytes(lzma.compress(ratings_csv())[:-40])


def truncated_gz(path: Path) -> None:
    path.write_bytes(gzip.compress(ratings_csv())[:-40])


def random_parquet(path: Path) -> None:
    path.write_bytes(np.random.default_rng(2).bytes(600))


def ragged_csv(path: Path) -> None:
    path.write_text("a,b\nyes,no\nyes,no,maybe\nno,no\n")


DAMAGED = {
    "labels.csv.xz": (damaged_xz, "could not decompress", "truncated or damaged"),
    "labels.csv.gz": (truncated_gz, "could not decompress", "truncated or damaged"),
    "labels.parquet": (random_parquet, "as parquet", "check the file is complete"),
    "ragged.csv": (ragged_csv, "as csv", "as many cells as the header"),
}


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", DAMAGED)
def test_a_damaged_file_is_a_clear_error(name: str, way: str, tmp_path: Path) -> None:
    make, what, hint = DAMAGED[name]
    path = tmp_path / name
    make(path)
    with pytest.raises(kf.KappaFrameError) as caught:
        WAYS[way](path)
    message = str(caught.value)
    assert name in message and what in message and hint in message


@pytest.mark.parametrize("suffix", [".gz", ".xz"])
def test_damage_found_while_counting_is_a_clear_error(
    suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first blocks decompress; the end of the file is missing.
    monkeypatch.setattr(files, "CSV_BLOCK_BYTES", 1024)
    data = ratings_csv(20_000)
    packed = gzip.compress(data) if suffix == ".gz" else lzma.compress(data)
    path = tmp_path / f"labels.csv{suffix}"
    path.write_bytes(packed[: len(packed) // 2])
    for way in WAYS.values():
        with pytest.raises(kf.KappaFrameError, match=r"could not decompress .*labels\.csv"):
            way(path)


def test_a_ragged_row_after_the_first_block_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "CSV_BLOCK_BYTES", 256)
    path = tmp_path / "ragged.csv"
    path.write_bytes(ratings_csv(500) + b"yes,no,maybe\n")
    for way in WAYS.values():
        with pytest.raises(kf.KappaFrameError, match=r"ragged\.csv.*as many cells as the header"):
            way(path)


def test_missing_paths_name_the_path(tmp_path: Path) -> None:
    for source in (tmp_path / "nowhere.csv", tmp_path / "none-*.csv"):
        for way in WAYS.values():
            with pytest.raises(kf.KappaFrameError, match=source.name.replace("*", r"\*")):
                way(source)


def test_a_folder_without_data_files_is_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    (folder / "notes.md").write_text("nothing here\n")
    for way in WAYS.values():
        with pytest.raises(kf.KappaFrameError, match=r"holds no data file"):
            way(folder)


def test_a_folder_is_read_as_the_command_line_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "exports"
    (folder / "later").mkdir(parents=True)
    (folder / "monday.csv").write_bytes(ratings_csv(40, seed=3))
    (folder / "later" / "tuesday.csv.gz").write_bytes(gzip.compress(ratings_csv(50, seed=4)))
    (folder / "README.md").write_text("two days of ratings\n")
    (folder / ".hidden.csv").write_text("a,b\nno,yes\n")
    expected = cli_table(folder, capsys)
    assert expected["n"].item() == 90
    for way in WAYS.values():
        same_numbers(way(folder), expected)

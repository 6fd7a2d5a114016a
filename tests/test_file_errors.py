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


# ----------------------------------------------------------------- 2. header-only files


@pytest.mark.parametrize("ending", ["\n", ""])
def test_a_header_only_file_gives_what_the_command_line_gives(
    ending: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "header.csv"
    path.write_text("a,b" + ending)
    code, out, err = by_cli(["report", str(path), "--format", "csv"], capsys)
    assert code == 0 and "undefined" in err
    expected = pd.read_csv(io.StringIO(out))
    assert expected["n"].tolist() == [0]
    for way in WAYS.values():
        with pytest.warns(kf.UndefinedKappaWarning, match="no item rated by both"):
            same_numbers(way(path), expected)
    stream = tmp_path / "header.csv.gz"
    stream.write_bytes(gzip.compress(path.read_bytes()))
    assert by_cli(["report", str(stream), "--format", "csv", "--stream"], capsys)[1] == out


def test_a_header_only_long_file_is_the_same_error_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.csv"
    path.write_text("item,rater,label")
    long = {"item": "item", "rater": "rater", "label": "label"}
    code, _, err = by_cli(
        ["report", str(path), "--item", "item", "--rater", "rater", "--label", "label"], capsys
    )
    assert code == 2 and "at least 2 raters" in err
    for way in WAYS.values():
        with pytest.raises(kf.KappaFrameError, match="at least 2 raters; column 'rater' has 0"):
            way(path, **long)


def test_an_empty_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_text("")
    for way in WAYS.values():
        with pytest.raises(kf.KappaFrameError, match=r"empty\.csv.*empty"):
            way(path)


# ------------------------------------------------------------------ 5. empty header names


UNNAMED = ",a,b\nno,yes,yes\nno,no,yes\nyes,no,no\nyes,yes,yes\nno,,no\n"


def test_an_empty_header_name_is_unnamed_as_pandas_names_it_on_every_way_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "unnamed.csv"
    path.write_text(UNNAMED)
    expected = cli_table(path, capsys)
    assert expected["rater_a"].tolist()[:2] == ["Unnamed: 0", "Unnamed: 0"]
    assert cli_table(path, capsys, "--stream").equals(expected)
    monkeypatch.setattr(files, "CSV_BLOCK_BYTES", 16)  # and in blocks of a line or two
    for way in WAYS.values():
        same_numbers(way(path), expected)
    named = cli_table(path, capsys, "--raters", "Unnamed: 0", "b")
    assert named["n"].item() == 5
    same_numbers(kf.pairwise(str(path), ["Unnamed: 0", "b"]), named)
    without = cli_table(path, capsys, "--exclude", "Unnamed: 0")
    same_numbers(kf.pairwise(str(path), ["a", "b"]), without)
    assert kf.scan(path).dataset.schema.names == ["Unnamed: 0", "a", "b"]


def test_empty_header_names_are_numbered_by_their_position(tmp_path: Path) -> None:
    path = tmp_path / "gaps.csv"
    path.write_text("a,,b,\nyes,1,yes,\nno,2,no,\n")
    assert kf.scan(path).dataset.schema.names == ["a", "Unnamed: 1", "b", "Unnamed: 3"]
    assert list(pd.read_csv(path).columns) == ["a", "Unnamed: 1", "b", "Unnamed: 3"]
    got = kf.pairwise(str(path), ["a", "b"])
    assert got["n"].item() == 2


# ------------------------------------------------------------------ separators


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("tabs.tsv", "a\tb\nyes\tno\nno\tno\nyes\tyes\n"),
        ("tabs.tab", "a\tb\nyes\tno\nno\tno\nyes\tyes\n"),
        ("semicolons.csv", "a;b\nyes;no\nno;no\nyes;yes\n"),
    ],
)
def test_the_separator_is_found_as_the_command_line_finds_it(
    name: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_text(text)
    expected = cli_table(path, capsys)
    assert expected["n"].item() == 3
    for way in WAYS.values():
        same_numbers(way(path), expected)


# ------------------------------------------------------- 3. quoted line breaks in blocks


def quoted_notes(rows: int = 60) -> str:
    """Ratings with a free-text note; some notes hold line breaks that look like rows."""
    rng = np.random.default_rng(7)
    lines = ["a,b,note"]
    for i in range(rows):
        a, b = rng.choice(["yes", "no"], 2)
        note = '"seen twice\nyes,no,then ""fixed"""' if i % 4 == 1 else "plain"
        lines.append(f"{a},{b},{note}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_a_quoted_line_break_on_a_block_boundary_is_no_new_item(
    suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = quoted_notes()
    path = tmp_path / f"notes.csv{suffix}"
    path.write_bytes(gzip.compress(text.encode()) if suffix else text.encode())
    whole = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, na_values=[""])
    assert len(whole) == 60
    expected = kf.pairwise(whole, ["a", "b"])
    for size in range(24, 200, 7):  # boundaries fall inside the notes, one after another
        monkeypatch.setattr(files, "CSV_BLOCK_BYTES", size)
        for way in WAYS.values():
            same_numbers(way(path, raters=["a", "b"]), expected)


def test_csv_blocks_cut_between_rows_not_inside_quotes(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.csv as pacsv

    path = tmp_path / "notes.csv"
    path.write_text(quoted_notes())
    read = pacsv.ReadOptions(block_size=40)
    convert = pacsv.ConvertOptions(column_types=dict.fromkeys(["a", "b", "note"], pa.string()))
    batches = list(files.csv_blocks(str(path), read, pacsv.ParseOptions(), convert))
    assert len(batches) > 10
    notes = [v for batch in batches for v in batch.column("note").to_pylist()]
    assert len(notes) == 60
    assert notes[1] == 'seen twice\nyes,no,then "fixed"'

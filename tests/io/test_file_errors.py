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
from kappaframe._io import scan as io_scan

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
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 1024)
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
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 256)
    path = tmp_path / "ragged.csv"
    path.write_bytes(ratings_csv(500) + b"yes,no,maybe\n")
    for way in WAYS.values():
        with pytest.raises(kf.KappaFrameError, match=r"ragged\.csv.*as many cells as the header"):
            way(path)


def test_missing_paths_name_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for source in (tmp_path / "nowhere.csv", tmp_path / "none-*.csv"):
        for way in WAYS.values():
            with pytest.raises(kf.KappaFrameError, match=source.name.replace("*", r"\*")):
                way(source)
    pattern = str(tmp_path / "none-*.csv")
    code, _, err = by_cli(["report", pattern], capsys)
    assert code == 2 and "no file matches" in err
    for way in WAYS.values():  # as the command line says it
        with pytest.raises(kf.KappaFrameError, match="no file matches"):
            way(pattern)


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
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 16)  # and in blocks of a line or two
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
        monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", size)
        for way in WAYS.values():
            same_numbers(way(path, raters=["a", "b"]), expected)


def test_csv_blocks_cut_between_rows_not_inside_quotes(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.csv as pacsv

    path = tmp_path / "notes.csv"
    path.write_text(quoted_notes())
    read = pacsv.ReadOptions(block_size=40)
    convert = pacsv.ConvertOptions(column_types=dict.fromkeys(["a", "b", "note"], pa.string()))
    batches = list(io_scan.csv_blocks(str(path), read, pacsv.ParseOptions(), convert))
    assert len(batches) > 10
    notes = [v for batch in batches for v in batch.column("note").to_pylist()]
    assert len(notes) == 60
    assert notes[1] == 'seen twice\nyes,no,then "fixed"'


# ------------------------------------------- 4. a rater whose first label comes late


def late_labels(rows: int = 400, late: int = 300) -> str:
    rng = np.random.default_rng(11)
    lines = ["a,b,c,d"]
    for i in range(rows):
        a, b = rng.choice(["yes", "no"], 2)
        c, d = rng.choice(["1", "2", "10"], 2)
        if i < late:  # b and d rate nothing in the first blocks
            b, d = "", ""
        lines.append(f"{a},{b},{c},{d}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("raters", [["a", "b"], ["c", "d"]])
def test_a_rater_whose_first_label_comes_late_is_read(
    raters: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "late.csv"
    path.write_text(late_labels())
    flags = ["--raters", *raters, "--weights", "linear"]
    expected = cli_table(path, capsys, *flags)
    assert cli_table(path, capsys, *flags, "--stream").equals(expected)
    assert expected["n"].item() == 100
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 256)  # the first blocks: b and d empty
    for way in WAYS.values():
        same_numbers(way(path, raters=raters, weights="linear"), expected)
    small = kf.scan(path, batch_size=16, csv_options={"read": {"block_size": 128}})
    same_numbers(kf.pairwise(small, raters, weights="linear"), expected)


# ------------------------------------- 6. labels as written; numbers by the command line's rule


def write_columns(path: Path, columns: dict[str, list[str]]) -> Path:
    names = list(columns)
    rows = zip(*columns.values(), strict=True)
    path.write_text(",".join(names) + "\n" + "".join(",".join(r) + "\n" for r in rows))
    return path


def every_way(
    path: Path,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    **options: Any,
) -> pd.DataFrame:
    """The command line's table (whole and --stream), checked against every Python way in."""
    expected = cli_table(path, capsys, *flags)
    assert cli_table(path, capsys, *flags, "--stream").equals(expected)
    for way in WAYS.values():
        same_numbers(way(path, **options), expected)
    same_numbers(kf.pairwise(kf.scan(path, batch_size=5), **options), expected)
    return expected


def test_labels_are_compared_as_written_on_every_way_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = ["01", "1", "1.0", "2", "1", "01"] * 10
    b = ["1", "1", "1.0", "2", "01", "1.0"] * 10
    c = ["true", "TRUE", "false", "true", "FALSE", "true"] * 10
    d = ["true", "true", "false", "TRUE", "false", "TRUE"] * 10
    written = {"a": a, "b": b, "c": c, "d": d}
    path = write_columns(tmp_path / "codes.csv", written)
    for x, y in (("a", "b"), ("c", "d")):
        got = every_way(path, capsys, ["--raters", x, y], raters=[x, y])
        assert got["n"].item() == 60
        as_written = kf.cohen_kappa(written[x], written[y])
        assert got["kappa"].item() == pytest.approx(as_written, abs=1e-12)


def test_plain_numbers_are_numbers_in_their_order_on_every_way_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    a = ["1", "2", "10", "2", "10", "1", "", "2"] * 5
    b = ["2", "2", "10", "1", "2", "1", "10", ""] * 5
    path = write_columns(tmp_path / "numbers.csv", {"a": a, "b": b})
    got = every_way(path, capsys, ["--weights", "linear"], weights="linear")
    pairs = [(float(x), float(y)) for x, y in zip(a, b, strict=True) if x and y]
    numbers = kf.cohen_kappa(*zip(*pairs, strict=True), weights="linear")
    as_text = kf.cohen_kappa(  # the order sorting them as text would have guessed
        *([str(v) for v in p] for p in zip(*pairs, strict=True)),
        weights="linear",
        labels=sorted({"1.0", "2.0", "10.0"}),
    )
    assert numbers != pytest.approx(as_text)  # the order 1 < 2 < 10 matters here
    assert got["kappa"].item() == pytest.approx(numbers, abs=1e-12)
    for source in (str(path), kf.scan(path)):
        assert kf.confusion(source, "a", "b").index.tolist() == [1, 2, 10]
    passes = second_passes(monkeypatch)
    kf.pairwise(str(path))
    assert passes == []  # the first block's guess held: the file is read once


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (["1", "2", "10", "2", "1"], ["1", "NA", "10", "2", "2"]),  # a word in one rater
        (["1", "2", "1", "2", "2"], ["1.0", "2.0", "2.0", "2.0", "1.0"]),  # 1 and 1.0
        (["1", "2", "1", "2", "2"], ["1", "2", "02", "2", "1"]),  # a leading zero
    ],
)
@pytest.mark.filterwarnings("ignore::kappaframe.MissingTokenWarning")  # "NA" is a label here
def test_raters_decide_together_whether_labels_are_numbers(
    a: list[str], b: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One rater's labels can keep the other's text: they share one category index.
    path = write_columns(tmp_path / "mixed.csv", {"a": a * 4, "b": b * 4})
    got = every_way(path, capsys, [])
    as_written = kf.cohen_kappa(a * 4, b * 4)
    assert got["kappa"].item() == pytest.approx(as_written, abs=1e-12)
    # Text has no order for weights: refused on every way in, not sorted.
    assert cli.main(["report", str(path), "--weights", "linear"]) == 2
    assert "needs the order of the categories" in capsys.readouterr().err
    with pytest.raises(kf.KappaFrameError, match="needs the order of the categories"):
        kf.pairwise(str(path), weights="linear")


def test_group_keys_decide_apart_from_the_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # pandas writes numbers with a missing value as 1.0; the weeks stay whole numbers.
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"week": rng.integers(1, 12, 200)})
    for name in ("a", "b"):
        frame[name] = rng.integers(1, 4, 200).astype(float)
        frame.loc[rng.random(200) < 0.1, name] = np.nan
    path = tmp_path / "weeks.csv"
    frame.to_csv(path, index=False)
    got = every_way(
        path, capsys, ["--by", "week", "--weights", "linear"], by="week", weights="linear"
    )
    assert got["week"].tolist() == sorted(set(frame["week"]))
    expected = kf.pairwise(frame, ["a", "b"], by="week", weights="linear")
    same_numbers(got, expected)
    assert kf.pairwise(str(path), by="week")["week"].tolist() == got["week"].tolist()


def test_the_index_pandas_writes_is_a_rater_as_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "indexed.csv"
    pd.DataFrame({"a": ["yes", "no", "no", "yes"], "b": ["yes", "yes", "no", "yes"]}).to_csv(path)
    got = every_way(path, capsys, [])
    assert got["rater_a"].tolist() == ["Unnamed: 0", "Unnamed: 0", "a"]


def test_long_layout_labels_and_rater_ids_decide_each_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(9)
    rows = [
        (f"{item:03d}", str(rater), str(rng.choice([1, 2, 10])))
        for item in range(40)
        for rater in (1, 2, 10)
    ]
    path = tmp_path / "long.csv"
    path.write_text("item,rater,label\n" + "".join(",".join(r) + "\n" for r in rows))
    flags = ["--item", "item", "--rater", "rater", "--label", "label", "--weights", "linear"]
    long = {"item": "item", "rater": "rater", "label": "label", "weights": "linear"}
    got = every_way(path, capsys, flags, **long)
    assert got["rater_a"].tolist() == [1, 1, 2]  # ids as numbers, in their order


LATE_CHANGES = {
    "decimals": (["1", "2", "3"], ["2.5"]),  # whole numbers, then numbers with decimals
    "leading zero": (["1", "2", "3"], ["02"]),  # numbers, then text
    "one number twice": (["1.5", "1", "2"], ["1.0"]),  # 1 and 1.0: text
    "nothing first": (["", "", ""], ["1", "2", "10"]),  # no label early, then numbers
}


@pytest.mark.parametrize("case", LATE_CHANGES)
def test_a_late_value_that_changes_a_kind_is_counted_once(
    case: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    early, late = LATE_CHANGES[case]
    rng = np.random.default_rng(13)
    a = [str(v) for v in rng.choice(early, 300)] + [str(v) for v in rng.choice(late, 40)]
    b = [str(v) for v in rng.choice(early, 300)] + [str(v) for v in rng.choice(late, 40)]
    b[-40:-20] = a[-40:-20]  # some agreement late
    path = write_columns(tmp_path / "late.csv", {"a": a, "b": b})
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 256)  # the late values come blocks later
    # Weights where the labels end up numbers; text (02, 1 and 1.0) has no order for them.
    numbers = case in ("decimals", "nothing first")
    weights = {"weights": "linear"} if numbers else {}
    flags = ["--raters", "a", "b", *(["--weights", "linear"] if numbers else [])]
    got = every_way(path, capsys, flags, raters=["a", "b"], **weights)
    assert got["n"].item() == sum(1 for x, y in zip(a, b, strict=True) if x and y)
    passes = second_passes(monkeypatch)
    kf.pairwise(str(path), ["a", "b"])
    assert passes == [("a", "b")]  # the guess from the first block is read again, once


def second_passes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Record the columns of every pass over all values (a guessed kind that changed)."""
    seen: list[tuple[str, ...]] = []
    real = files.csv_kinds

    def csv_kinds(scan: Any, sets: Any) -> Any:
        seen.extend(tuple(s) for s in sets)
        return real(scan, sets)

    monkeypatch.setattr(files, "csv_kinds", csv_kinds)
    return seen


# --------------------------------------------------------------------------- decimal commas


def semicolon_columns(path: Path, columns: dict[str, list[str]]) -> Path:
    """A semicolon file; a cell holding a comma is quoted unless it is a number."""

    def cell(v: str) -> str:
        return f'"{v}"' if "," in v and not v.replace(",", "").lstrip("-").isdigit() else v

    rows = zip(*columns.values(), strict=True)
    text = ";".join(columns) + "\n" + "".join(";".join(map(cell, r)) + "\n" for r in rows)
    path.write_text(text)
    return path


def test_decimal_commas_are_numbers_on_every_way_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "comma.csv"
    path.write_text("a;b\n0,5;0,5\n1,5;0,5\n2,5;2,5\n10,5;1,5\n")
    flags = ["--raters", "a", "b", "--weights", "linear"]
    got = every_way(path, capsys, flags, raters=["a", "b"], weights="linear")
    numbers = kf.cohen_kappa([0.5, 1.5, 2.5, 10.5], [0.5, 0.5, 2.5, 1.5], weights="linear")
    assert got["n"].item() == 4
    assert got["kappa"].item() == pytest.approx(numbers, abs=1e-12)
    assert kf.confusion(str(path), "a", "b").index.tolist() == [0.5, 1.5, 2.5, 10.5]
    passes = second_passes(monkeypatch)
    kf.pairwise(str(path), ["a", "b"], weights="linear")
    assert passes == []  # the first block's guess held: the file is read once


def test_the_decimal_mark_can_be_given_to_the_scan_and_to_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Integers only in the first lines: nothing to sniff a decimal comma from.
    a = ["1", "2", "3", "2"] * 15 + ["2,5", "1"]
    b = ["1", "2", "2", "3"] * 15 + ["2,5", "2,5"]
    path = semicolon_columns(tmp_path / "given.csv", {"a": a, "b": b})
    flags = ["--raters", "a", "b", "--weights", "linear", "--decimal", ","]
    expected = cli_table(path, capsys, *flags)
    assert cli_table(path, capsys, *flags, "--stream").equals(expected)
    given = kf.scan(path, csv_options={"convert": {"decimal_point": ","}})
    same_numbers(kf.pairwise(given, ["a", "b"], weights="linear"), expected)
    numbers = [float(v.replace(",", ".")) for v in a], [float(v.replace(",", ".")) for v in b]
    assert expected["kappa"].item() == pytest.approx(
        kf.cohen_kappa(*numbers, weights="linear"), abs=1e-12
    )
    with pytest.raises(kf.KappaFrameError, match="are text"):  # sniffed: '.', so text
        kf.pairwise(str(path), ["a", "b"], weights="linear")


@pytest.mark.parametrize("late", [False, True])
def test_labels_with_commas_are_kept_as_written(
    late: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A decimal comma sniffed from "score"; the raters hold text with commas, and in "b"
    # the comma numbers of the first blocks meet a word only later.
    rows = 200
    a = ["a,b", "c,d", "1,5", "a,b"] * (rows // 4)
    b = ["1,5", "2,5", "1,5", "3,5"] * (rows // 4)
    b[-1] = "a,b"
    score = ["0,5", "1,25"] * (rows // 2)
    path = semicolon_columns(tmp_path / "text.csv", {"a": a, "b": b, "score": score})
    if late:
        monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 256)
    got = every_way(path, capsys, ["--raters", "a", "b"], raters=["a", "b"])
    assert got["kappa"].item() == pytest.approx(kf.cohen_kappa(a, b), abs=1e-12)
    for source in (str(path), kf.scan(path)):
        table = kf.confusion(source, "a", "b")
        assert table.index.tolist() == ["1,5", "2,5", "3,5", "a,b", "c,d"]
        assert table.columns.tolist() == table.index.tolist()


def test_a_decimal_comma_in_a_later_block_is_a_number_on_every_way_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(17)
    a = [str(v) for v in rng.choice(["1", "2", "3"], 300)] + ["2,5", "1,5"] * 20
    b = [str(v) for v in rng.choice(["1", "2", "3"], 300)] + ["2,5", "3"] * 20
    score = ["0,5"] * len(a)  # the decimal comma the whole read sniffs from the first lines
    path = semicolon_columns(tmp_path / "late.csv", {"score": score, "a": a, "b": b})
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 256)  # the late values come blocks later
    flags = ["--raters", "a", "b", "--weights", "linear"]
    got = every_way(path, capsys, flags, raters=["a", "b"], weights="linear")
    numbers = [float(v.replace(",", ".")) for v in a], [float(v.replace(",", ".")) for v in b]
    assert got["n"].item() == len(a)
    assert got["kappa"].item() == pytest.approx(
        kf.cohen_kappa(*numbers, weights="linear"), abs=1e-12
    )
    for source in (str(path), kf.scan(path)):
        assert kf.confusion(source, "a", "b").index.tolist() == [1.0, 1.5, 2.0, 2.5, 3.0]


def test_every_output_format_has_its_writer_or_renderer() -> None:
    from kappaframe._io.formats import OUTPUT_FORMATS, OUTPUTS, TABLE_FORMATS, output_format
    from kappaframe._io.write import TABLE_WRITERS

    assert set(TABLE_WRITERS) == set(TABLE_FORMATS)
    assert set(OUTPUT_FORMATS) - set(TABLE_FORMATS) == {"text", "markdown", "html"}
    for fmt in OUTPUTS:  # each suffix names its format, and each format one suffix at least
        assert fmt.suffixes
        assert all(output_format(f"out{suffix}") == fmt.name for suffix in fmt.suffixes)

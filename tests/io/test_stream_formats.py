"""Compressed CSV and JSON lines read in batches: the same numbers as the whole-file read."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli
from kappaframe._io import scan as io_scan
from kappaframe._io.read import read_input

pytest.importorskip("pyarrow")

RATERS = ["ann1", "ann2", "ann3"]
OPENERS = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}


@pytest.fixture
def labels(rng: np.random.Generator) -> pd.DataFrame:
    n = 600
    truth = rng.integers(1, 6, n)
    data: dict[str, Any] = {"project": rng.choice(["beta", "alpha"], n)}
    for name, skill in zip(RATERS, [0.9, 0.6, 0.3], strict=True):
        values = np.where(rng.random(n) < skill, truth, rng.integers(1, 6, n))
        data[name] = pd.array(values, dtype="Int64")
        data[name][rng.random(n) < 0.1] = pd.NA
    df = pd.DataFrame(data)
    df.loc[:49, RATERS] = df.loc[:49, RATERS].clip(upper=2)  # early batches lack labels
    return df


def write(df: pd.DataFrame, path: Path) -> Path:
    """``df`` as CSV or JSON lines, compressed by the last suffix."""
    if ".jsonl" in path.name or ".ndjson" in path.name:
        text = df.to_json(orient="records", lines=True)
    else:
        text = df.to_csv(index=False)
    if path.suffix == ".zst":
        import pyarrow as pa

        if not pa.Codec.is_available("zstd"):
            pytest.skip("pyarrow without zstd")
        with pa.CompressedOutputStream(str(path), "zstd") as out:
            out.write(text.encode())
    elif path.suffix in OPENERS:
        with OPENERS[path.suffix](path, "wt") as out:
            out.write(text)
    else:
        path.write_text(text)
    return path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def counting_batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the rows of every batch the file reader yields."""
    seen: list[int] = []
    real = io_scan.FileScan.batches

    def batches(self: io_scan.FileScan, columns: Any) -> Any:
        for batch in real(self, columns):
            seen.append(len(batch))
            yield batch

    monkeypatch.setattr(io_scan.FileScan, "batches", batches)
    return seen


NAMES = ["labels.csv.gz", "labels.csv.bz2", "labels.csv.xz", "labels.csv.zst"]
JSON_NAMES = ["labels.jsonl", "labels.ndjson", "labels.jsonl.gz", "labels.jsonl.xz"]


@pytest.mark.parametrize("name", NAMES + JSON_NAMES)
def test_a_path_streams_like_the_whole_read(
    labels: pd.DataFrame, tmp_path: Path, name: str
) -> None:
    path = write(labels, tmp_path / name)
    plain = write(labels, tmp_path / ("plain.jsonl" if "json" in name else "plain.csv"))
    options = {"by": "project", "weights": "linear", "ci": 0.95}
    whole = read_input(plain, labels=RATERS, text=["project"])  # the command line's read
    expected = kf.pairwise(whole, RATERS, **options)
    pd.testing.assert_frame_equal(
        kf.pairwise(labels, RATERS, **options), expected, check_exact=False, rtol=0, atol=1e-12
    )
    for source in (str(path), kf.scan(path, batch_size=37)):
        got = kf.pairwise(source, RATERS, **options)
        pd.testing.assert_frame_equal(got, expected, check_exact=False, rtol=0, atol=1e-12)
    every = kf.pairwise(kf.scan(path, batch_size=50), by="project")  # raters: every column
    pd.testing.assert_frame_equal(every, kf.pairwise(labels, by="project"))


def test_compressed_csv_is_read_a_block_at_a_time(
    labels: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 1024)
    seen = counting_batches(monkeypatch)
    for name in ("labels.csv.gz", "labels.csv.xz"):
        seen.clear()
        path = write(labels, tmp_path / name)
        got = kf.pairwise(path, RATERS, by="project")
        assert len(seen) > 1 and sum(seen) == len(labels)
        assert max(seen) < len(labels) // 4
        pd.testing.assert_frame_equal(got, kf.pairwise(labels, RATERS, by="project"))


def test_json_lines_are_read_in_chunks_of_lines(
    labels: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(io_scan, "JSON_BATCH_LINES", 64)
    seen = counting_batches(monkeypatch)
    path = write(labels, tmp_path / "labels.jsonl.gz")
    got = kf.pairwise(path, RATERS, by="project")
    assert seen == [64] * 9 + [24]
    pd.testing.assert_frame_equal(got, kf.pairwise(labels, RATERS, by="project"))


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")  # b-c: one pair left
def test_json_lines_keys_types_and_missing_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key first seen late is a rater; null, an absent key and "" are missing."""
    monkeypatch.setattr(io_scan, "JSON_BATCH_LINES", 3)
    path = tmp_path / "odd.jsonl"
    path.write_text(
        '{"a": "yes", "b": "yes"}\n{"a": "no", "b": ""}\n\n{"a": null, "b": "no"}\n'
        '{"a": "yes", "b": "no"}\n{"b": "yes", "a": "yes"}\n{"a": "no", "b": "no", "c": "no"}\n'
        '{"a": "yes", "c": "yes"}\n{"a": "N/A", "b": "N/A", "c": "yes"}\n'
    )
    whole = read_input(path)
    assert list(whole.columns) == ["a", "b", "c"]
    with pytest.warns(kf.MissingTokenWarning, match=r"'N/A' in 'a', 'b'"):
        got = kf.pairwise(path)
    with pytest.warns(kf.MissingTokenWarning):
        pd.testing.assert_frame_equal(got, kf.pairwise(whole))
    assert got["n"].tolist() == [5, 3, 2]  # N/A is a label, "" and null are not
    tokens = {"null_values": ["", "N/A"]}
    dropped = kf.pairwise(kf.scan(path, json_options=tokens))
    assert dropped["n"].tolist() == [4, 2, 1]


def test_nested_json_values_are_refused_with_their_row(tmp_path: Path) -> None:
    path = tmp_path / "nested.jsonl"
    path.write_text('{"a": 1, "b": 1}\n' * 5 + '{"a": {"x": 1}, "b": 2}\n')
    with pytest.raises(kf.KappaFrameError, match=r"column 'a' holds a nested value in row 6"):
        kf.pairwise(kf.scan(path, batch_size=2))
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"a": 1, "b": 1}\n{"a": 2, "b": \n')
    with pytest.raises(kf.KappaFrameError, match=r"broken\.jsonl.*as jsonl"):
        kf.pairwise(broken)


@pytest.mark.parametrize(
    "name", ["team.csv.gz", "team.csv.xz", "team.jsonl", "team.jsonl.gz", "team.ndjson"]
)
def test_cli_stream_gives_the_whole_read_table(
    labels: pd.DataFrame,
    tmp_path: Path,
    name: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 1024)
    monkeypatch.setattr(io_scan, "JSON_BATCH_LINES", 64)
    path = write(labels, tmp_path / name)
    seen = counting_batches(monkeypatch)
    args = ["report", str(path), "--by", "project", "--weights", "quadratic", "--format", "csv"]
    outs = []
    for extra in ([], ["--stream"]):
        code, out, err = run([*args, *extra], capsys)
        assert code == 0, err
        outs.append(out)
    assert outs[1] == outs[0]
    assert len(seen) > 1 and sum(seen) == len(labels)  # only the streamed read batches
    got = pd.read_csv(io.StringIO(outs[1]))
    expected = kf.pairwise(labels, by="project", weights="quadratic")
    np.testing.assert_allclose(got["kappa"], expected["kappa"], rtol=0, atol=1e-12)


def test_cli_stream_reads_labels_as_written_in_compressed_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """01, 1 and 1.0 are three labels; N/A is one unless named; a late 2.5 makes numbers."""
    monkeypatch.setattr(io_scan, "CSV_BLOCK_BYTES", 256)
    codes = tmp_path / "codes.csv.gz"
    with gzip.open(codes, "wt") as out:
        out.write("a,b\n" + "01,1\n1,1.0\n1.0,01\n2,2\nN/A,2\n,01\n" * 40)
    late = tmp_path / "late.csv.bz2"
    rng = np.random.default_rng(3)
    a = rng.integers(1, 4, 400).astype(object)
    b = np.where(rng.random(400) < 0.7, a, rng.integers(1, 4, 400)).astype(object)
    a[-2:] = ["2.5", "1.5"]  # the first blocks hold integers only
    with bz2.open(late, "wt") as out:
        out.write("a,b\n" + "".join(f"{x},{y}\n" for x, y in zip(a, b, strict=True)))
    for path, extra in [(codes, []), (codes, ["--na-values", "N/A"]), (late, [])]:
        args = ["report", str(path), "--raters", "a", "b", "--weights", "linear"]
        args += ["--format", "csv", *extra]
        outs = []
        for stream in ([], ["--stream"]):
            code, out, err = run([*args, *stream], capsys)
            # Text labels (01, 1, 1.0 are three) have no order for weights: one refusal.
            assert code == (2 if path == codes else 0), err
            outs.append(out or err)
        assert outs[1] == outs[0]
        if path == codes:
            assert "needs the order of the categories" in outs[0]
            assert "--categories" in outs[0]
    late_args = ["report", str(late), "--raters", "a", "b", "--weights", "linear"]
    code, out, _ = run([*late_args, "--format", "csv"], capsys)
    expected = kf.cohen_kappa([float(x) for x in a], [float(y) for y in b], weights="linear")
    assert pd.read_csv(io.StringIO(out))["kappa"].item() == pytest.approx(expected, abs=1e-12)
    code, out, _ = run(["report", str(codes), "--format", "csv", "--stream"], capsys)
    kappa = kf.cohen_kappa(["01", "1", "1.0", "2", "N/A"] * 40, ["1", "1.0", "01", "2", "2"] * 40)
    assert pd.read_csv(io.StringIO(out))["kappa"].item() == pytest.approx(kappa, abs=1e-12)


def test_cli_stream_json_lines_with_na_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(io_scan, "JSON_BATCH_LINES", 2)
    path = tmp_path / "tokens.jsonl"
    path.write_text(
        '{"a": "N/A", "b": "N/A"}\n{"a": "yes", "b": "yes"}\n{"a": "no", "b": "no"}\n'
        '{"a": "N/A", "b": "yes"}\n{"a": "", "b": "yes"}\n{"a": null, "b": "no"}\n'
        '{"a": "no", "b": "yes"}\n'
    )
    for extra, n in (([], 5), (["--na-values", "N/A"], 3)):
        outs = []
        for stream in ([], ["--stream"]):
            code, out, err = run(["report", str(path), "--format", "csv", *extra, *stream], capsys)
            assert code == 0, err
            outs.append(out)
        assert outs[1] == outs[0]
        assert pd.read_csv(io.StringIO(outs[0]))["n"].item() == n


CSV_CASES = {
    "plain": ({}, {}, {}),
    "quotes_crlf_bom": ({}, {}, {}),
    "skip_rows": ({"skip_rows": 2}, {}, {}),
    "no_header": ({"column_names": ["project", "ann1", "ann2", "ann3"]}, {}, {}),
    "some_columns": (
        {},
        {},
        {"include_columns": ["ann2", "late"], "include_missing_columns": True},
    ),
    "null_tokens": ({}, {}, {"null_values": ["N/A"], "strings_can_be_null": True}),
    "semicolons_latin1": ({"encoding": "latin-1"}, {"delimiter": ";"}, {}),
}


def csv_text(case: str, n: int = 500) -> bytes:
    rng = np.random.default_rng(len(case))
    sep = ";" if "semicolons" in case else ","
    lines = [sep.join(["project", "ann1", "ann2", "ann3"])]
    if case == "skip_rows":
        lines = ["# exported", "# by a tool", *lines]
    if case == "no_header":
        lines = []
    for i in range(n):
        project = '"beta, the second"' if case == "quotes_crlf_bom" and i % 3 else "alpha"
        if "latin1" in case:
            project = "Müller" if i % 2 else "Straße"
        cells = [str(v) for v in rng.integers(1, 6, 3)]
        if i % 7 == 0:
            cells[1] = "N/A" if case == "null_tokens" else ""
        lines.append(sep.join([project, *cells]))
    newline = "\r\n" if case == "quotes_crlf_bom" else "\n"
    text = newline.join(lines) + newline
    data = text.encode("latin-1" if "latin1" in case else "utf-8")
    return (b"\xef\xbb\xbf" + data) if case == "quotes_crlf_bom" else data


@pytest.mark.parametrize("case", CSV_CASES)
@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_csv_blocks_parse_as_the_streaming_reader(case: str, suffix: str, tmp_path: Path) -> None:
    # Each block of whole lines is parsed on its own, the header put back and the first
    # block's types kept: the same table as pyarrow's own streaming reader, in many batches.
    import pyarrow as pa
    import pyarrow.csv as pacsv

    read_kw, parse_kw, convert_kw = CSV_CASES[case]
    path = tmp_path / f"labels.csv{suffix}"
    data = csv_text(case)
    path.write_bytes(gzip.compress(data) if suffix else data)
    read = pacsv.ReadOptions(block_size=512, **read_kw)
    parse = pacsv.ParseOptions(**parse_kw)
    convert = pacsv.ConvertOptions(**convert_kw)
    got = list(io_scan.csv_blocks(str(path), read, parse, convert))
    with pacsv.open_csv(
        io_scan.csv_source(str(path)),
        read_options=read,
        parse_options=parse,
        convert_options=convert,
    ) as reader:
        want = reader.read_all()
    assert len(got) > 5
    table = pa.Table.from_batches(got)
    assert table.schema == want.schema
    assert table.equals(want.combine_chunks() if table.num_rows else want)
    assert table.num_rows == 500


def test_csv_blocks_keep_line_breaks_in_quoted_values(tmp_path: Path) -> None:
    import pyarrow.csv as pacsv

    path = tmp_path / "notes.csv"
    path.write_text('ann1,note\n1,"two\nlines"\n2,plain\n')
    read = pacsv.ReadOptions(block_size=16)
    parse = pacsv.ParseOptions(newlines_in_values=True)
    got = list(io_scan.csv_blocks(str(path), read, parse, pacsv.ConvertOptions()))
    assert sum(b.num_rows for b in got) == 2
    assert got[0].column("note")[0].as_py() == "two\nlines"


def test_a_late_value_of_another_type_is_read_as_the_command_line_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The column's type comes from every value, not from the first block: a late 2.5
    # makes the column numbers with decimals, on every way in.
    rows = ["a,b", *[f"{i % 3 + 1},{i % 2 + 1}" for i in range(400)], "2.5,1"]
    path = tmp_path / "late.csv"
    path.write_text("\n".join(rows) + "\n")
    small = kf.scan(str(path), csv_options={"read": {"block_size": 256}})
    got = kf.pairwise(small, ["a", "b"], weights="linear")  # 2.5: named raters, not a score
    args = ["report", str(path), "--raters", "a", "b", "--format", "csv", "--weights", "linear"]
    code, out, err = run(args, capsys)
    assert code == 0, err
    by_cli = pd.read_csv(io.StringIO(out))
    assert got["n"].item() == by_cli["n"].item() == 401
    assert got["kappa"].item() == pytest.approx(by_cli["kappa"].item(), abs=1e-12)
    typed = kf.scan(
        str(path),
        csv_options={"read": {"block_size": 256}, "convert": {"column_types": {"a": "float64"}}},
    )
    assert kf.pairwise(typed, ["a", "b"], weights="linear")["kappa"].item() == pytest.approx(
        got["kappa"].item(), abs=1e-12
    )
    # A type given that a value does not fit names the column, the value and the way out.
    wrong = {"read": {"block_size": 256}, "convert": {"column_types": {"a": "int64"}}}
    with pytest.raises(kf.KappaFrameError, match=r"column 'a' is read as int64") as caught:
        kf.pairwise(kf.scan(str(path), csv_options=wrong), ["a", "b"])
    assert "2.5" in str(caught.value) and "'string'" in str(caught.value)
    assert "first block" not in str(caught.value)


@pytest.mark.filterwarnings("ignore::kappaframe.UndefinedKappaWarning")
@pytest.mark.parametrize(
    "text", ["yes,yes\nNA,no\nno,no\nyes,NA\nno,yes\nNA,NA\n", "1,1\nNA,2\n2,2\n1,NA\n2,1\nNA,NA\n"]
)
def test_files_read_missing_tokens_as_the_command_line_does(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Only an empty cell is missing; NA is a label on every way a file comes in, unless named.
    path = tmp_path / "tokens.csv"
    path.write_text("a,b\n" + text)
    assert cli.main(["report", str(path), "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    by_cli = pd.read_csv(io.StringIO(out))
    assert err.count("warning:") == 1  # said once, with the flag that names it missing
    assert "'NA' in 'a', 'b'" in err and "--na-values NA" in err
    with pytest.warns(kf.MissingTokenWarning, match=r"null_values=\['NA'\]"):
        by_path = kf.pairwise(str(path))
    assert by_path["n"].item() == by_cli["n"].item() == 6
    assert by_path["kappa"].item() == pytest.approx(by_cli["kappa"].item(), abs=1e-12)
    named = kf.scan(str(path), csv_options={"convert": {"null_values": ["", "NA"]}})
    assert cli.main(["report", str(path), "--format", "csv", "--na-values", "NA"]) == 0
    by_cli = pd.read_csv(io.StringIO(capsys.readouterr().out))
    by_path = kf.pairwise(named)
    assert by_path["n"].item() == by_cli["n"].item() == 3
    assert by_path["kappa"].item() == pytest.approx(by_cli["kappa"].item(), abs=1e-12)

"""``report --stream`` parses each block of a CSV file once: no type pass, no pandas read.

The labels' type is decided by the counting, over every value it read; the result is the
one the whole read gives.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.csv as pacsv
import pytest

from kappaframe import cli
from kappaframe._io import scan as scan_module

RATERS = ["ana", "ben", "cy"]
BLOCK = 512  # bytes: a file of a few hundred rows is many blocks


def _labels(kind: str, n: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 4, n)
    words = {
        "numbers": np.array(["1", "2", "5", "10"]),
        "words": np.array(["bad", "fair", "good", "great"]),
        "commas": np.array(["0,5", "1,5", "2,5", "10,0"]),
    }[kind]
    frame = {}
    for r in RATERS:
        codes = np.where(rng.random(n) < 0.3, rng.integers(0, 4, n), truth)
        frame[r] = np.where(rng.random(n) < 0.1, "", words[codes])
    # A later block only: a label the first block does not show.
    frame["ana"][-1] = words[3]
    return pd.DataFrame({"team": np.where(np.arange(n) % 2, "x", "y"), **frame})


def _write(tmp_path: Path, kind: str, gz: bool) -> tuple[Path, list[str]]:
    frame = _labels(kind)
    sep = ";" if kind == "commas" else ","
    text = frame.to_csv(index=False, sep=sep).encode()
    path = tmp_path / (f"{kind}.csv.gz" if gz else f"{kind}.csv")
    path.write_bytes(gzip.compress(text) if gz else text)
    flags = ["--delimiter", ";", "--decimal", ","] if kind == "commas" else []
    return path, flags


class _Counted:
    def __init__(self, func):
        self.func, self.calls = func, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.func(*args, **kwargs)


def _run(path: Path, flags: list[str], capsys, *more: str) -> str:
    weights = [] if "words" in path.name else ["--weights", "linear"]  # numbers: in order
    argv = [str(path), "--raters", *RATERS, "--by", "team", *weights, "--format", "csv", *flags]
    code = cli.main(["report", *argv, *more])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _report(path: Path, flags: list[str], capsys, *more: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(_run(path, flags, capsys, *more)))


def _blocks(path: Path, flags: list[str]) -> int:
    """The blocks of the file, as the block reader cuts it (counted on a scan already open)."""
    options = {"parse": {"delimiter": ";" if flags else ","}}
    files = scan_module.scan(path, format="csv", csv_options=options)
    parser = _Counted(pacsv.read_csv)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pacsv, "read_csv", parser)
        for _ in files.batches(["team", *RATERS]):
            pass
    return parser.calls


@pytest.mark.parametrize(
    ("kind", "gz"), [("numbers", False), ("words", False), ("commas", False), ("numbers", True)]
)
def test_each_block_is_parsed_once(tmp_path, monkeypatch, capsys, kind, gz) -> None:
    monkeypatch.setattr(scan_module, "CSV_BLOCK_BYTES", BLOCK)
    path, flags = _write(tmp_path, kind, gz)
    whole = _report(path, flags, capsys)
    blocks = _blocks(path, flags)
    assert blocks > 5
    parser, pandas_reads = _Counted(pacsv.read_csv), _Counted(pd.read_csv)
    monkeypatch.setattr(pacsv, "read_csv", parser)
    monkeypatch.setattr(pd, "read_csv", pandas_reads)
    out = _run(path, flags, capsys, "--stream")
    monkeypatch.undo()
    streamed = pd.read_csv(io.StringIO(out))
    # The counting parses every block once; opening the file reads its first block (its
    # header, separator and decimal mark). No type pass, no pandas read of the rows.
    assert parser.calls == blocks + 1
    assert pandas_reads.calls == 0
    pd.testing.assert_frame_equal(streamed, whole, check_exact=False, atol=1e-12, rtol=0)
    assert streamed["kappa"].notna().all() and len(streamed) == 6


def test_categories_given_are_typed_before_the_count(tmp_path, monkeypatch, capsys) -> None:
    """--categories takes the labels' type: decided in a pass of its own, then counted."""
    monkeypatch.setattr(scan_module, "CSV_BLOCK_BYTES", BLOCK)
    path, flags = _write(tmp_path, "numbers", False)
    more = ["--categories", "1", "2", "5", "10"]
    whole = _report(path, flags, capsys, *more)
    streamed = _report(path, flags, capsys, *more, "--stream")
    pd.testing.assert_frame_equal(streamed, whole, check_exact=False, atol=1e-12, rtol=0)

"""The one loop over parts: every input kind is read by ``kappaframe._api.plan.each_part``."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

import kappaframe as kf
from kappaframe._api.plan import adapt, each_part

API = Path(kf.__file__).parent / "_api"


def _rows(part, wrap):
    return len(wrap(part).frame)


def _add(results):
    return sum(results)


def test_an_eager_frame_is_one_part():
    frame = adapt(pd.DataFrame({"a": [1, 2, 3], "b": [1, 2, 2]}))
    assert each_part(frame, ["a", "b"], _rows) == [3]
    assert each_part(frame, ["a", "b"], _rows, add=_add) == 3


def test_file_batches_are_added_one_part_at_a_time(tmp_path):
    path = tmp_path / "r.csv"
    pd.DataFrame({"a": np.arange(10) % 3, "b": np.arange(10) % 2}).to_csv(path, index=False)
    reader = adapt(kf.scan(path, batch_size=4))
    assert each_part(reader, ["a", "b"], _rows) == [4, 4, 2]
    assert each_part(reader, ["a", "b"], _rows, add=_add) == 10
    assert each_part(reader, ["a", "b"], _rows, together="a") == [10]  # one part holds all


def test_counts_and_sums_read_parts_only_through_the_one_loop():
    """No public function's module calls a reader's ``map`` or ``reduce`` itself."""
    calls = re.compile(r"\.(map|reduce)\(")
    found = [
        p.name
        for p in sorted(API.rglob("*.py"))
        if p.name != "plan.py" and calls.search(p.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_pairwise_counts_only_pairs_of_two_raters_in_each_part(tmp_path, monkeypatch):
    """pairwise asks the kernel for R (R - 1) / 2 tables per part; matrix, which shows each
    rater with themself, for R (R + 1) / 2; the numbers are those of the whole frame."""
    from kappaframe._api import prepare as prepare_module

    rng = np.random.default_rng(5)
    df = pd.DataFrame({r: rng.integers(0, 3, 30) for r in ("a", "b", "c", "d")})
    path = tmp_path / "r.parquet"
    df.to_parquet(path, index=False)
    asked = []
    counter = prepare_module.pair_counts

    def spy(codes, pairs, *args, **kwargs):
        asked.append(np.asarray(pairs).tolist())
        return counter(codes, pairs, *args, **kwargs)

    monkeypatch.setattr(prepare_module, "pair_counts", spy)
    got = kf.pairwise(kf.scan(path, batch_size=7))
    assert len(asked) == 5  # 30 rows in parts of 7
    assert all(len(p) == 6 and all(a != b for a, b in p) for p in asked)
    pd.testing.assert_frame_equal(got, kf.pairwise(df))
    asked.clear()
    shown = kf.matrix(kf.scan(path, batch_size=7))
    assert all(len(p) == 10 and sum(a == b for a, b in p) == 4 for p in asked[:5])
    pd.testing.assert_frame_equal(shown, kf.matrix(df))

"""The bincount kernel against a plain count, across block boundaries and groups."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kappaframe._count import kernel as _kernel


def naive_counts(codes, pairs, k, groups, n_groups, weights=None):
    out = np.zeros((len(pairs), n_groups, k, k))
    for p, (a, b) in enumerate(pairs):
        for i in range(codes.shape[1]):
            if codes[a, i] >= 0 and codes[b, i] >= 0:
                w = 1.0 if weights is None else weights[i]
                out[p, groups[i], codes[a, i], codes[b, i]] += w
    return out


@settings(max_examples=60, deadline=None)
@given(
    n_raters=st.integers(2, 4),
    n_items=st.integers(0, 40),
    k=st.integers(1, 5),
    n_groups=st.integers(1, 3),
    block=st.sampled_from([1, 3, 7, 1 << 17]),
    chunk_items=st.sampled_from([0, 1 << 10]),  # 0: pair by pair in blocks; else chunks
    weighted=st.booleans(),
    seed=st.integers(0, 2**31),
)
def test_pair_counts_equal_a_plain_count(
    n_raters: int,
    n_items: int,
    k: int,
    n_groups: int,
    block: int,
    chunk_items: int,
    weighted: bool,
    seed: int,
) -> None:
    rng = np.random.default_rng(seed)
    codes = rng.integers(-1, k, (n_raters, n_items)).astype(np.int8)
    groups = rng.integers(0, n_groups, n_items)
    weights = rng.random(n_items) if weighted else None
    pairs = [(i, i) for i in range(n_raters)] + list(combinations(range(n_raters), 2))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_kernel, "BLOCK_ITEMS", block)
        mp.setattr(_kernel, "PAIR_CHUNK_ITEMS", chunk_items)
        got = _kernel.pair_counts(codes, pairs, k, groups, n_groups, sample_weight=weights)
    want = naive_counts(codes, pairs, k, groups, n_groups, weights)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    assert got.dtype == (np.float64 if weighted else np.int64)


def test_counts_are_additive_over_partitions() -> None:
    rng = np.random.default_rng(5)
    codes = rng.integers(-1, 4, (3, 1000)).astype(np.int8)
    groups = rng.integers(0, 5, 1000)
    pairs = list(combinations(range(3), 2))
    whole = _kernel.pair_counts(codes, pairs, 4, groups, 5)
    parts = sum(
        _kernel.pair_counts(codes[:, s : s + 300], pairs, 4, groups[s : s + 300], 5)
        for s in range(0, 1000, 300)
    )
    np.testing.assert_array_equal(whole, parts)


def test_codes_wider_than_int8_do_not_overflow() -> None:
    k = 200  # codes need int16, and code * (k + 1) needs more than 16 bits per item
    codes = np.array([[199, 0, 150], [199, 1, 150]], dtype=np.int16)
    got = _kernel.pair_counts(codes, [(0, 1)], k)
    assert got[0, 0, 199, 199] == 1 and got[0, 0, 0, 1] == 1 and got[0, 0, 150, 150] == 1
    assert got.sum() == 3


def test_size_guard_names_the_way_out() -> None:
    with pytest.raises(ValueError, match=r"571.9 GiB.*fewer raters or groups"):
        _kernel.check_count_size(190, 10_000, 200, limit=1024**3)

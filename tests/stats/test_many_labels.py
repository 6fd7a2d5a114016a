"""Many distinct labels (real-valued scores) are merged and coded as arrays.

The array path (``MANY_LABELS`` or more labels of one Python type) gives what the label
by label path gives: the same categories in the same order, the same codes, the same
refusals, and the same record of a result.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe._encode import codes as codes_module
from kappaframe._encode.codes import Factorized, encode_labels, shared_categories
from kappaframe._stats.compare import options_record


def _column(values: list[float]) -> Factorized:
    codes, uniques = pd.factorize(pd.Series(values, dtype=float))
    return Factorized(codes.astype(np.int32), uniques.tolist())


def _both(monkeypatch: pytest.MonkeyPatch, call):  # type: ignore[no-untyped-def]
    fast = call()
    monkeypatch.setattr(codes_module, "MANY_LABELS", 10**12)  # label by label
    slow = call()
    monkeypatch.undo()
    return fast, slow


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_merged_categories_and_codes_equal_the_label_by_label_path(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(seed)
    shared = rng.normal(0, 1, 3000).round(2).tolist()  # ties across columns
    columns = {
        f"r{i}": _column([*rng.choice(shared, 2500).tolist(), *rng.normal(0, 1, 500).tolist()])
        for i in range(3)
    }

    def call():  # type: ignore[no-untyped-def]
        cats = shared_categories(columns)
        return cats, encode_labels(list(columns.values()), cats)

    (fast_cats, fast_codes), (slow_cats, slow_codes) = _both(monkeypatch, call)
    assert len(fast_cats) >= codes_module.MANY_LABELS
    assert fast_cats == slow_cats and all(type(c) is float for c in fast_cats)
    np.testing.assert_array_equal(fast_codes, slow_codes)


def test_of_zero_and_minus_zero_the_first_seen_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    rest = [float(v) for v in range(1, 2000)]
    columns = {"a": _column([-0.0, *rest]), "b": _column([0.0, *rest])}
    fast, slow = _both(monkeypatch, lambda: shared_categories(columns))
    assert fast == slow
    zero = fast[fast.index(0.0)]
    assert np.signbit(zero)  # column a's -0.0 came first


def test_declared_categories_in_any_order_code_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    cats = rng.permutation(np.arange(3000) / 7).tolist()
    column = _column(rng.choice(cats, 5000).tolist())

    def call():  # type: ignore[no-untyped-def]
        return encode_labels([column], cats)

    fast, slow = _both(monkeypatch, call)
    np.testing.assert_array_equal(fast, slow)


def test_a_label_outside_declared_float_categories_is_still_refused() -> None:
    cats = (np.arange(2000) / 3).tolist()
    df = pd.DataFrame({"a": [*cats[:1500], 1e9], "b": [*cats[:1500], cats[0]]})
    with pytest.raises(kf.KappaFrameError, match=r"label 1000000000.0, which is not in"):
        kf.pairwise(df, ["a", "b"], categories=cats)


def test_mixed_types_are_refused_with_the_same_message(monkeypatch: pytest.MonkeyPatch) -> None:
    values = [float(v) + 0.5 for v in range(2000)] + ["x"]
    columns = {"a": Factorized(np.arange(len(values)), values)}

    def message() -> str:
        with pytest.raises(kf.KappaFrameError) as refused:
            shared_categories(columns)
        return str(refused.value)

    fast, slow = _both(monkeypatch, message)
    assert fast == slow and "mixes label types" in fast


def test_a_results_record_of_many_float_categories_is_unchanged() -> None:
    cats = (np.arange(5000) / 9).tolist()
    record = options_record(None, cats)
    import hashlib

    digest = hashlib.sha256(repr(cats).encode()).hexdigest()[:16]
    assert record["categories"] == f"5000 categories, sha256:{digest}"


def test_alpha_on_real_valued_scores_is_the_label_by_label_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(4)
    truth = rng.normal(50, 10, 1500)
    df = pd.DataFrame({f"r{i}": truth + rng.normal(0, 3, 1500) for i in range(3)})

    def call():  # type: ignore[no-untyped-def]
        return kf.overall(df, list(df.columns), method="krippendorff", level="interval")

    fast, slow = _both(monkeypatch, call)
    pd.testing.assert_frame_equal(fast, slow)
    assert fast.attrs == slow.attrs

"""kf.swap_consistency and kf.resolve_swaps: preference verdicts in both orders."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.proportion import proportion_confint

import kappaframe as kf
from kappaframe import KappaFrameError

from ..conftest import native_type_matches, to_pandas

#: Eight questions, one of each kind: (A, B) and (B, A) consistent, (tie, tie) consistent,
#: (A, A) first-position bias, (B, B) second-position bias, and three with one tie.
FIRST = ["A", "B", "tie", "A", "B", "A", "tie", "B"]
SECOND = ["B", "A", "tie", "A", "B", "tie", "A", "tie"]


def verdicts(**extra: list) -> dict:
    return {"q": list(range(len(FIRST))), "ab": FIRST, "ba": SECOND, **extra}


def share(frame: pd.DataFrame, name: str) -> float:
    return float(frame[name].iloc[0])


def test_each_share_counts_its_questions(constructor) -> None:
    data = constructor(verdicts())
    res = kf.swap_consistency(data, question="q", first="ab", second="ba")
    assert native_type_matches(res, data)
    out = to_pandas(res)
    assert len(out) == 1
    assert int(out["n"].iloc[0]) == 8 and int(out["n_missing"].iloc[0]) == 0
    assert share(out, "consistency") == 3 / 8  # (A, B), (B, A), (tie, tie)
    assert share(out, "first_bias") == 1 / 8  # (A, A)
    assert share(out, "second_bias") == 1 / 8  # (B, B)
    assert share(out, "ties") == 4 / 8  # a tie in either order
    assert list(out.columns[:5]) == ["n", "n_missing", "consistency", "consistency_low",
                                     "consistency_high"]  # fmt: skip


@pytest.mark.parametrize("level", [0.95, 0.8])
def test_intervals_are_statsmodels_wilson(level: float) -> None:
    out = kf.swap_consistency(pd.DataFrame(verdicts()), question="q", first="ab", second="ba",
                              ci=level)  # fmt: skip
    for name, hits in (("consistency", 3), ("first_bias", 1), ("second_bias", 1), ("ties", 4)):
        low, high = proportion_confint(hits, 8, alpha=1 - level, method="wilson")
        assert share(out, f"{name}_low") == pytest.approx(low, abs=1e-12)
        assert share(out, f"{name}_high") == pytest.approx(high, abs=1e-12)


def test_without_ci_no_interval_columns() -> None:
    out = kf.swap_consistency(pd.DataFrame(verdicts()), question="q", first="ab", second="ba",
                              ci=None)  # fmt: skip
    assert list(out.columns) == ["n", "n_missing", "consistency", "first_bias", "second_bias",
                                 "ties"]  # fmt: skip


def test_per_group_and_judge_each_is_its_own_questions(constructor) -> None:
    rng = np.random.default_rng(3)
    n = 60
    choices = np.array(["A", "B", "tie"])
    frame = pd.DataFrame({
        "topic": np.repeat(["code", "math"], n // 2),
        "model": np.tile(["gpt", "llama", "gpt", "llama"], n // 4),
        "q": np.repeat(np.arange(n // 2), 2),
        "ab": choices[rng.integers(3, size=n)],
        "ba": choices[rng.integers(3, size=n)],
    })  # fmt: skip
    res = to_pandas(kf.swap_consistency(constructor(frame), question="q", first="ab",
                                        second="ba", by="topic", judge="model"))  # fmt: skip
    assert res[["topic", "model"]].values.tolist() == [
        ["code", "gpt"], ["code", "llama"], ["math", "gpt"], ["math", "llama"]]  # fmt: skip
    for _, row in res.iterrows():
        part = frame[(frame["topic"] == row["topic"]) & (frame["model"] == row["model"])]
        pair = list(zip(part["ab"], part["ba"], strict=True))
        kept = sum(p in {("A", "B"), ("B", "A"), ("tie", "tie")} for p in pair)
        tied = sum("tie" in p for p in pair)
        assert row["n"] == len(part)
        assert row["consistency"] == pytest.approx(kept / len(part))
        assert row["first_bias"] == pytest.approx(pair.count(("A", "A")) / len(part))
        assert row["second_bias"] == pytest.approx(pair.count(("B", "B")) / len(part))
        assert row["ties"] == pytest.approx(tied / len(part))
        low, high = proportion_confint(kept, len(part), method="wilson")
        assert row["consistency_low"] == pytest.approx(low)
        assert row["consistency_high"] == pytest.approx(high)


def test_a_question_missing_an_order_is_dropped_and_counted(constructor) -> None:
    data = verdicts(judge=["j1"] * 6 + ["j2"] * 2)
    data["ab"] = ["A", None, "tie", "A", "B", "A", None, None]
    data["ba"] = ["B", "A", None, "A", "B", "tie", "A", None]
    res = to_pandas(kf.swap_consistency(constructor(data), question="q", first="ab",
                                        second="ba", judge="judge"))  # fmt: skip
    j1, j2 = res.iloc[0], res.iloc[1]
    assert (j1["n"], j1["n_missing"]) == (4, 2)
    assert j1["consistency"] == 1 / 4 and j1["first_bias"] == 1 / 4
    assert j1["second_bias"] == 1 / 4 and j1["ties"] == 1 / 4
    assert (j2["n"], j2["n_missing"]) == (0, 2)  # nothing read: shares undefined
    assert np.isnan([j2["consistency"], j2["consistency_low"], j2["ties_high"]]).all()
    resolved = to_pandas(kf.resolve_swaps(constructor(data), question="q", first="ab",
                                          second="ba", judge="judge"))  # fmt: skip
    assert resolved["verdict"].isna().tolist() == [False, True, True] + [False] * 3 + [True] * 2
    assert resolved["verdict"].dropna().tolist() == ["A", "tie", "tie", "tie"]


def test_resolved_as_mt_bench_and_kappa_against_people(constructor) -> None:
    data = verdicts(human=["A", "B", "tie", "A", "tie", "tie", "B", "B"])
    res = kf.resolve_swaps(constructor(data), question="q", first="ab", second="ba")
    assert native_type_matches(res, constructor(data))
    out = to_pandas(res)
    # consistent verdicts kept (by answer), every inconsistent one a tie
    assert out["verdict"].tolist() == ["A", "B", "tie", "tie", "tie", "tie", "tie", "tie"]
    assert out["q"].tolist() == data["q"]
    both = pd.DataFrame({"judge": out["verdict"], "human": data["human"]})
    kappa = kf.pairwise(both, ["judge", "human"], reference="human")["kappa"].iloc[0]
    assert kappa == pytest.approx(cohen_kappa_score(both["judge"], both["human"]), abs=1e-12)


def test_labels_are_the_callers_and_the_verdict_speaks_them() -> None:
    frame = pd.DataFrame({"q": [1, 2, 3], "ab": [1, 2, 1], "ba": [2, 1, 1]})
    res = kf.resolve_swaps(frame, question="q", first="ab", second="ba", labels=(1, 2, 0))
    assert res["verdict"].tolist() == [1, 2, 0]
    out = kf.swap_consistency(frame, question="q", first="ab", second="ba", labels=(1, 2, 0))
    assert share(out, "consistency") == 2 / 3 and share(out, "first_bias") == 1 / 3


def test_an_unknown_verdict_is_refused_naming_column_and_value() -> None:
    frame = pd.DataFrame({"q": [1, 2], "ab": ["A", "B"], "ba": ["B", "model_a"]})
    with pytest.raises(KappaFrameError, match=r"'ba' holds 'model_a'.*labels=") as err:
        kf.swap_consistency(frame, question="q", first="ab", second="ba")
    assert err.value.option == "labels"
    with pytest.raises(KappaFrameError, match="three distinct"):
        kf.swap_consistency(frame, question="q", first="ab", second="ba", labels=("A", "A", "t"))


def test_a_question_twice_or_without_id_is_refused() -> None:
    frame = pd.DataFrame({"q": [1, 1], "ab": ["A", "B"], "ba": ["B", "A"]})
    with pytest.raises(KappaFrameError, match=r"question 1 \(column 'q'\).*judge="):
        kf.swap_consistency(frame, question="q", first="ab", second="ba")
    frame["m"] = ["x", "y"]  # two judges: each asked once
    assert kf.swap_consistency(frame, question="q", first="ab", second="ba",
                               judge="m")["n"].tolist() == [1, 1]  # fmt: skip
    frame.loc[1, "q"] = None
    with pytest.raises(KappaFrameError, match="question column 'q' is missing on row 1"):
        kf.swap_consistency(frame, question="q", first="ab", second="ba", judge="m")


def test_unknown_columns_and_clashing_names_are_refused() -> None:
    frame = pd.DataFrame(verdicts(n=[0] * 8))
    with pytest.raises(KappaFrameError, match="zz"):
        kf.swap_consistency(frame, question="q", first="zz", second="ba")
    with pytest.raises(KappaFrameError, match="by column 'n'"):
        kf.swap_consistency(frame, question="q", first="ab", second="ba", by="n")


def test_the_callers_frame_is_not_modified_and_the_accessor_agrees() -> None:
    frame = pd.DataFrame(verdicts(judge=["j"] * 8))
    before = frame.copy()
    res = frame.kappa.swap_consistency(question="q", first="ab", second="ba", judge="judge")
    pd.testing.assert_frame_equal(frame, before)
    pd.testing.assert_frame_equal(res, kf.swap_consistency(frame, question="q", first="ab",
                                                           second="ba", judge="judge"))  # fmt: skip

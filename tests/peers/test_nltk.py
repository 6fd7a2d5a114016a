"""NLTK (``nltk/metrics/agreement.py`` module doctest): frozen values.

NLTK's ``AnnotationTask`` reads (coder, item, label) triples: kappaframe's long layout.
Its doctest loads ``nltk/metrics/artstein_poesio_example.txt`` (Artstein & Poesio 2008's
two coders, 100 utterances, labels stat / ireq / chck) and prints ``avg_Ao()`` 0.88,
``round(pi(), 5)`` 0.79953 and ``round(S(), 2)`` 0.82. NLTK's ``pi`` is Scott's pi
(kappaframe's Fleiss kappa, which is Scott's pi for two raters) and ``S`` is Bennett et
al.'s S (kappaframe's Brennan-Prediger).
"""

from __future__ import annotations

import pandas as pd
import pytest

import kappaframe as kf


def artstein_poesio() -> pd.DataFrame:
    """The triples of artstein_poesio_example.txt, as (coder, item, label) rows."""
    pairs = (
        [("stat", "stat")] * 46
        + [("ireq", "stat")] * 6
        + [("ireq", "ireq")] * 32
        + [("ireq", "chck")] * 6
        + [("chck", "chck")] * 10
    )
    rows = []
    for item, (a, b) in enumerate(pairs, start=1):
        rows += [("a", str(item), a), ("b", str(item), b)]
    return pd.DataFrame(rows, columns=["coder", "item", "label"])


def test_artstein_poesio_doctest() -> None:
    long = artstein_poesio()
    res = kf.overall(
        long,
        item="item",
        rater="coder",
        label="label",
        method=["percent", "fleiss", "brennan_prediger"],
    )
    values = dict(zip(res["method"], res["value"], strict=True))
    assert values["percent"] == pytest.approx(0.88, abs=1e-12)  # avg_Ao() 0.88
    assert round(values["fleiss"], 5) == 0.79953  # round(pi(), 5)
    assert round(values["brennan_prediger"], 2) == 0.82  # round(S(), 2)


def test_two_coders_in_either_order() -> None:
    # The doctest's t2 / t3: one item both coders labelled alike, coders in either
    # order: observed agreement 1.0.
    for rows in (
        [("b", "1", "stat"), ("a", "1", "stat")],
        [("a", "1", "othr"), ("b", "1", "othr")],
    ):
        long = pd.DataFrame(rows, columns=["coder", "item", "label"])
        res = kf.overall(long, item="item", rater="coder", label="label", method="percent")
        assert float(res["p_o"].iloc[0]) == 1.0


def test_cohen_kappa_of_the_same_data() -> None:
    # Artstein & Poesio (2008) Table 4's kappa 0.8013, as scikit-learn's test_cohen_kappa
    # asserts it for the same table.
    res = kf.pairwise(artstein_poesio(), item="item", rater="coder", label="label")
    assert round(float(res["kappa"].iloc[0]), 4) == 0.8013

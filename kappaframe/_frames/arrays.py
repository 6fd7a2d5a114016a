"""Plain arrays, lists and Series in: labels to ``Factorized`` codes, scores to floats.

What ``kappaframe.cohen_kappa`` and ``kappaframe.threshold_sweep`` take without a
frame. pandas' hash factorization serves every backend; polars Series go through the
polars adapter.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pandas as pd

from .._encode.codes import Factorized
from .._errors import KappaFrameError, KappaFrameTypeError
from .pandas import factorize_array, factorize_labels

__all__ = ["factorize_any", "factorize_scores", "scores_array"]


def factorize_any(values: Any, name: str) -> Factorized:
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(values, (pd.Series, pd.Index, pd.Categorical)):
        return factorize_labels(pd.Series(values) if not isinstance(values, pd.Series) else values)
    pl = sys.modules.get("polars")
    if pl is not None and isinstance(values, pl.Series):
        from .polars import factorize_labels as pl_factorize

        return pl_factorize(values)
    array = np.asarray(values)
    # NumPy turns [1, "2"] into strings: keep each label's own type, so mixed types are
    # refused as in a frame column instead of compared as text.
    if (
        array.dtype.kind in "US"
        and not isinstance(values, np.ndarray)
        and not all(isinstance(v, (str, bytes)) for v in values)
    ):
        array = np.asarray(values, dtype=object)
    if array.ndim == 2 and array.shape[1] == 1:  # a column vector, as scikit-learn takes it
        array = array[:, 0]
    if array.ndim != 1:
        raise KappaFrameError(f"{name} must be 1-D (or one column); got shape {array.shape}.")
    return factorize_array(array)


def scores_array(scores: Any) -> np.ndarray:
    pl = sys.modules.get("polars")
    if pl is not None and isinstance(scores, pl.Series):
        scores = scores.cast(pl.Float64).fill_null(float("nan")).to_numpy()
    try:
        array = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise KappaFrameTypeError(
            "scores must be numbers (probabilities, logits, ...); got values that are not."
        ) from None
    if array.ndim != 1:
        raise KappaFrameError(f"scores must be 1-D; got shape {array.shape}.")
    return array


def factorize_scores(scores: np.ndarray) -> Factorized:
    """Distinct scores (NaN missing) and each score's code."""
    codes, uniques = pd.factorize(scores, use_na_sentinel=True)
    return Factorized(np.asarray(codes, dtype=np.intp), list(uniques))

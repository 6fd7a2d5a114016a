"""A judge against gold labels, from its K x K tables: NumPy only.

``tables[g, j, i]`` counts the items of group ``g`` the judge labelled ``j`` and the gold
labelled ``i`` (rows the judge, columns the gold, as ``kappaframe.confusion(data, judge,
gold)``). Every number below is a ratio of these counts; a ratio of zero counts is NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .inference import normal_quantile

__all__ = ["class_scores", "corrected_prevalence", "summary_scores", "wilson_interval"]


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den``, NaN where ``den`` is 0."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    out = np.full(np.broadcast_shapes(num.shape, den.shape), np.nan)
    np.divide(num, den, out=out, where=den > 0)
    return out


def class_scores(tables: np.ndarray) -> dict[str, np.ndarray]:
    """Per group and class ``(G, K)``: support, predicted, rates, precision, recall, F1.

    F1 is ``2 tp / (2 tp + fp + fn)`` (scikit-learn's form since 1.3): 0 where the judge
    never predicts a class the gold holds, NaN where neither holds it.
    """
    tp = np.diagonal(tables, axis1=1, axis2=2).astype(float)
    support = tables.sum(axis=1)
    predicted = tables.sum(axis=2)
    n = tables.sum(axis=(1, 2))[:, None]
    return {
        "support": support,
        "predicted": predicted,
        "gold_rate": _ratio(support, n),
        "judge_rate": _ratio(predicted, n),
        "precision": _ratio(tp, predicted),
        "recall": _ratio(tp, support),
        "f1": _ratio(2 * tp, support + predicted),
    }


def _nan_average(values: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """The mean over classes of the defined values (scikit-learn's ``_nanaverage``)."""
    defined = ~np.isnan(values)
    w = defined.astype(float) if weights is None else np.where(defined, weights, 0.0)
    return _ratio((np.where(defined, values, 0.0) * w).sum(axis=1), w.sum(axis=1))


def wilson_interval(x: np.ndarray, n: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's (1927) score interval of ``x`` successes in ``n`` trials (statsmodels' form)."""
    z2 = normal_quantile(level) ** 2
    n = np.asarray(n, dtype=float)
    q = _ratio(x, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = 1 + z2 / n
        centre = (q + z2 / (2 * n)) / denom
        half = np.sqrt(z2) * np.sqrt(q * (1.0 - q) / n + z2 / (4.0 * n**2)) / denom
    return centre - half, centre + half


def summary_scores(
    tables: np.ndarray, scores: dict[str, np.ndarray], level: float
) -> dict[str, Any]:
    """Per group ``(G,)``: n, accuracy and its Wilson interval, balanced accuracy, averages."""
    n = tables.sum(axis=(1, 2))
    correct = np.trace(tables, axis1=1, axis2=2)
    low, high = wilson_interval(correct, n, level)
    out: dict[str, Any] = {
        "n": n,
        "accuracy": _ratio(correct, n),
        "accuracy_ci_low": low,
        "accuracy_ci_high": high,
        "balanced_accuracy": _nan_average(scores["recall"]),
    }
    support = scores["support"].astype(float)
    for name in ("precision", "recall", "f1"):
        out[f"{name}_macro"] = _nan_average(scores[name])
        out[f"{name}_micro"] = out["accuracy"]
        out[f"{name}_weighted"] = _nan_average(scores[name], support)
    return out


def corrected_prevalence(
    scores: dict[str, np.ndarray], judged: np.ndarray, level: float, positive: int = 1
) -> dict[str, np.ndarray]:
    """Rogan & Gladen's (1978) prevalence of the ``positive`` class, per group ``(G,)``.

    ``judged`` ``(G, K)``: every label the judge gave, gold or not. ``pi = (p + Sp - 1) / J``
    with ``J = Se + Sp - 1``, ``p`` the judge's share of the class among all its labels,
    ``Se``/``Sp`` its recall of the class and of the other one (on the items with gold).
    Its delta-method variance treats the three as independent binomial shares:
    ``(p(1-p)/n + pi^2 Se(1-Se)/n_pos + (1-pi)^2 Sp(1-Sp)/n_neg) / J^2``. The estimate
    and the interval are clipped to [0, 1] (``clipped`` says where the estimate was);
    all is NaN where ``J <= 0`` or a class is missing from the gold (``undefined``).
    """
    negative = 1 - positive
    n = judged.sum(axis=1)
    p = _ratio(judged[:, positive], n)
    se, sp = scores["recall"][:, positive], scores["recall"][:, negative]
    n_pos, n_neg = scores["support"][:, positive], scores["support"][:, negative]
    j = se + sp - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        j = np.where(j > 0, j, np.nan)
        pi = (p + sp - 1) / j
        var = p * (1 - p) / n + pi**2 * se * (1 - se) / n_pos
        var = var + (1 - pi) ** 2 * sp * (1 - sp) / n_neg
        half = normal_quantile(level) * np.sqrt(var / j**2)
    clipped = np.where(np.isnan(pi), -1, (pi < 0) | (pi > 1)).astype(np.int8)
    return {
        "n_judged": n,
        "prevalence_observed": p,
        "prevalence_corrected": np.clip(pi, 0.0, 1.0),
        "prevalence_ci_low": np.clip(pi - half, 0.0, 1.0),
        "prevalence_ci_high": np.clip(pi + half, 0.0, 1.0),
        "prevalence_clipped": clipped,
        "undefined": np.isnan(pi),
    }

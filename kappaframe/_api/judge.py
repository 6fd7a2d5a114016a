"""A judge (an LLM judge, a classifier) against gold labels: judge_report().

Frame -> the judge and gold columns read as ``pairwise(data, [judge], reference=gold)``
reads them -> one K x K table per group (rows the judge, columns the gold) -> per class
and per group numbers (``kappaframe._stats.judge``), kappa and its interval from the
same tidy table ``pairwise`` builds -> two ``Table``s in the caller's frame type.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np

from .._errors import KappaFrameError, warn_undefined
from .._schema import Column, Table
from .._stats.judge import class_scores, corrected_prevalence, summary_scores
from .._stats.scales import MIN_ITEMS
from .._types import Scale
from .assemble import key_columns, tidy
from .options import check_settings
from .plan import adapt, prepare_input
from .prepare import Prepared
from .settings.bind import declared
from .settings.reading import ReadSpec

__all__ = ["CLASS_COLUMNS", "SUMMARY_COLUMNS", "JudgeReport", "judge_report"]

FrameT = TypeVar("FrameT")

#: The per class frame's columns after the ``by`` columns.
CLASS_COLUMNS = (
    "class", "support", "predicted", "gold_rate", "judge_rate", "precision", "recall", "f1",
)  # fmt: skip
_AVERAGED = tuple(f"{s}_{a}" for a in ("macro", "micro", "weighted") for s in CLASS_COLUMNS[5:])
_PREVALENCE = (
    "positive", "n_judged", "prevalence_observed", "prevalence_corrected", "prevalence_ci_low",
    "prevalence_ci_high", "prevalence_clipped",
)  # fmt: skip
#: The summary frame's columns after the ``by`` columns.
SUMMARY_COLUMNS = (
    "n", "accuracy", "accuracy_ci_low", "accuracy_ci_high", "balanced_accuracy", *_AVERAGED,
    "kappa", "kappa_se", "kappa_ci_low", "kappa_ci_high", "interpretation", *_PREVALENCE,
)  # fmt: skip


class JudgeReport(NamedTuple, Generic[FrameT]):
    """The two frames of ``judge_report``: one row per group and class, one per group."""

    classes: FrameT
    summary: FrameT


def _check_pair(judge: Hashable, gold: Hashable) -> None:
    if judge == gold:
        raise KappaFrameError(
            f"judge and gold name the same column ({judge!r}); name the judge's column as "
            "judge and the gold labels' column as gold."
        )


def _kappa_columns(prep: Prepared, gold: Hashable, scale: Any, ci: float) -> list[Column]:
    """kappa, its standard error, interval and band: ``pairwise(reference=gold, ci=ci)``'s.

    Its band too: fewer than ``MIN_ITEMS`` items (pairwise's default) are "too few items".
    """
    table = tidy(prep, scale=scale, ci=ci, reference=gold, min_items=MIN_ITEMS)
    named = {c.name: c for c in table.columns}
    renamed = {"kappa": "kappa", "se": "kappa_se", "ci_low": "kappa_ci_low"}
    renamed |= {"ci_high": "kappa_ci_high", "interpretation": "interpretation"}
    return [Column(new, named[old].kind, named[old].values, categories=named[old].categories)
            for old, new in renamed.items()]  # fmt: skip


def _class_table(prep: Prepared, scores: dict[str, np.ndarray]) -> Table:
    n_groups, k = scores["support"].shape
    group_of_row = np.repeat(np.arange(n_groups), k)
    labels = np.empty(k, dtype=object)
    labels[:] = prep.categories
    columns = key_columns(prep, group_of_row, CLASS_COLUMNS, "judge_report")
    columns.append(Column("class", "label", np.tile(labels, n_groups)))
    columns += [
        Column(name, "int", scores[name].reshape(-1).astype(np.int64))
        for name in CLASS_COLUMNS[1:3]
    ]
    columns += [Column(name, "float", scores[name].reshape(-1)) for name in CLASS_COLUMNS[3:]]
    return Table(columns)


def _prevalence(prep: Prepared, scores: dict[str, Any], ci: float) -> list[Column]:
    """Rogan-Gladen's corrected prevalence of the second category (two categories only)."""
    n_groups, k = scores["support"].shape
    judged = np.diagonal(np.asarray(prep.tables(np.array([[0, 0]]), full=True))[0], 0, 1, 2)
    if k == 2:
        values = corrected_prevalence(scores, judged, ci)
        warn_undefined(
            values.pop("undefined"),
            scores["support"].sum(axis=1),
            what="groups",
            too_few="with no item both labelled",
            subject="the corrected prevalence",
            otherwise=(
                "where the judge's sensitivity + specificity <= 1, or the gold holds one class only"
            ),
        )
    else:
        nan = np.full(n_groups, np.nan)
        values = dict.fromkeys(_PREVALENCE[2:6], nan)
        values["prevalence_clipped"] = np.full(n_groups, -1, dtype=np.int8)
    positive = np.empty(n_groups, dtype=object)
    positive[:] = prep.categories[1] if k == 2 else None
    columns = [Column("positive", "label", positive)]
    columns.append(Column("n_judged", "int", judged.sum(axis=1).astype(np.int64)))
    columns += [Column(name, "float", values[name]) for name in _PREVALENCE[2:6]]
    return [*columns, Column("prevalence_clipped", "flag", values["prevalence_clipped"])]


def _summary_table(
    prep: Prepared,
    gold: Hashable,
    tables: np.ndarray,
    scores: dict[str, Any],
    ci: float,
    scale: Any,
) -> Table:
    summary = summary_scores(tables, scores, ci)
    n_groups = tables.shape[0]
    columns = key_columns(prep, np.arange(n_groups), SUMMARY_COLUMNS, "judge_report")
    columns.append(Column("n", "int", summary["n"].astype(np.int64)))
    columns += [Column(name, "float", summary[name]) for name in SUMMARY_COLUMNS[1:14]]
    columns += _kappa_columns(prep, gold, scale, ci)
    return Table(columns + _prevalence(prep, scores, ci))


@declared
def judge_report(
    data: FrameT,
    judge: Hashable,
    gold: Hashable,
    *,
    by: Hashable | Sequence[Hashable] | None = None,
    categories: Sequence[Any] | None = None,
    ci: float = 0.95,
    scale: Scale = "landis_koch",
) -> JudgeReport[FrameT]:
    """How well a judge (an LLM judge, a classifier) matches gold labels, per group.

    The judge's column and the gold column are read as
    ``pairwise(data, [judge], reference=gold)`` reads them: items either left missing
    are dropped pair by pair, the categories are ordered as there. Per group, with
    ``tp`` the items both label ``c``, ``support`` those the gold labels ``c`` and
    ``predicted`` those the judge labels ``c``:

        precision = tp / predicted,  recall = tp / support,
        F1 = 2 tp / (support + predicted),

    scikit-learn's ``precision_recall_fscore_support(gold, judge, labels=categories,
    zero_division=np.nan)``: a ratio of zero counts is NaN (one ``UndefinedKappaWarning``
    per call says how many). Its averages are summary columns: ``_macro`` (the mean over
    the classes where defined), ``_micro`` (over all items: the accuracy) and
    ``_weighted`` (weighted by support). ``gold_rate`` and ``judge_rate`` are the base
    rates, ``support / n`` and ``predicted / n``.

    ``accuracy`` is ``sum(tp) / n``, with Wilson's (1927) score interval (statsmodels'
    ``proportion_confint(method="wilson")``): with ``z`` the normal quantile,

        (q + z^2/2n) / (1 + z^2/n) +- z sqrt(q(1-q)/n + z^2/4n^2) / (1 + z^2/n).

    ``balanced_accuracy`` is the mean recall over the classes the gold holds
    (``sklearn.metrics.balanced_accuracy_score``). ``kappa``, ``kappa_se``,
    ``kappa_ci_low``, ``kappa_ci_high`` and ``interpretation`` are the ``kappa``, ``se``,
    ``ci_low``, ``ci_high`` and ``interpretation`` of
    ``pairwise(data, [judge], reference=gold, ci=ci, scale=scale)``.

    With two categories, the second one (``positive``; choose it with ``categories=``)
    gets Rogan & Gladen's (1978) prevalence corrected for the judge's sensitivity ``Se``
    (its recall) and specificity ``Sp`` (the other class's recall), both measured on the
    items with gold: with ``p`` the share of positive labels among all ``n_judged`` items
    the judge labelled (gold or not) and ``J = Se + Sp - 1``,

        pi = (p + Sp - 1) / J,
        Var(pi) = (p(1-p)/n_judged + pi^2 Se(1-Se)/n_pos + (1-pi)^2 Sp(1-Sp)/n_neg) / J^2

    (the delta method, the three shares taken as independent), the interval
    ``pi +- z sqrt(Var)``. Where the gold labels every item the judge labelled, ``pi`` is
    the gold's own rate of the class (an identity); the correction tells something new
    for the items the judge labelled and the gold did not (rows with the gold missing).
    The estimate and the interval are clipped to [0, 1]; ``prevalence_clipped`` says where
    the estimate was. It is undefined (NaN, said once) where ``J <= 0``. With other than
    two categories these columns are empty (NaN).

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    JudgeReport
        A named pair of frames of the input's library. ``classes``: the ``by`` columns,
        ``class``, ``support``, ``predicted``, ``gold_rate``, ``judge_rate``,
        ``precision``, ``recall``, ``f1``; one row per group and category, groups
        sorted. ``summary``: the ``by`` columns, ``n``, ``accuracy``,
        ``accuracy_ci_low``, ``accuracy_ci_high``, ``balanced_accuracy``, precision,
        recall and F1 averaged (``precision_macro``, ... ``f1_weighted``), ``kappa``,
        ``kappa_se``, ``kappa_ci_low``, ``kappa_ci_high``, ``interpretation``,
        ``positive``, ``n_judged``, ``prevalence_observed``, ``prevalence_corrected``,
        ``prevalence_ci_low``, ``prevalence_ci_high``, ``prevalence_clipped``; one row
        per group.

    See Also
    --------
    pairwise : kappa of the judge against the gold (``reference=``), with other raters.
    confusion : the judge's K x K table against the gold.

    References
    ----------
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
    inference. JASA 22(158), 209-212.
    Rogan, W. J., & Gladen, B. (1978). Estimating prevalence from the results of a
    screening test. American Journal of Epidemiology 107(1), 71-76.

    Examples
    --------
    >>> import pandas as pd
    >>> import kappaframe as kf
    >>> df = pd.DataFrame({"llm": [1, 1, 0, 0, 1, 0], "human": [1, 0, 0, 0, 1, 1]})
    >>> classes, summary = kf.judge_report(df, "llm", "human")
    >>> classes["precision"].round(4).tolist()
    [0.6667, 0.6667]
    >>> float(summary["accuracy"].iloc[0])
    0.6666666666666666
    """
    _check_pair(judge, gold)
    check_settings(scale=scale, by=by, output=(*CLASS_COLUMNS, *SUMMARY_COLUMNS))
    read = ReadSpec([judge, gold], by=by, categories=categories)
    prep = prepare_input(adapt(data), read, from_counts=True)
    tables = np.asarray(prep.tables(np.array([[0, 1]]), full=True))[0]
    scores = class_scores(tables)
    warn_undefined(
        np.isnan(scores["precision"]) | np.isnan(scores["recall"]),
        np.broadcast_to(tables.sum(axis=(1, 2))[:, None], scores["support"].shape),
        what="class x group cells",
        too_few="in a group with no item both labelled",
        subject="precision or recall",
        otherwise="where the judge never gives the class, or the gold never holds it",
    )
    classes = prep.frame.render(_class_table(prep, scores))
    summary = prep.frame.render(_summary_table(prep, gold, tables, scores, ci, scale))
    return JudgeReport(classes, summary)

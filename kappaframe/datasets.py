"""Bundled data sets: a simulated labeling team and a classic table of the literature.

Both return a pandas DataFrame built in memory (nothing is downloaded). Labels are ordered
pandas Categoricals, so weighted kappa uses the grades in their natural order.

- ``labeling_team``: five annotators grading items of three projects on an ordinal
  scale, with known skills and biases (one of them passes everything), a gold grade and a
  model score. Seeded, so every call with the same seed gives the same frame.
- ``multiple_sclerosis``: Westlund & Kurland (1953)'s two neurologists diagnosing
  multiple sclerosis in two patient samples, as tabulated by Landis & Koch (1977).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ._errors import KappaFrameError, bad_option

__all__ = [
    "GRADES",
    "MS_CLASSES",
    "TEAM",
    "labeling_team",
    "multiple_sclerosis",
]

GRADES: tuple[str, ...] = ("bad", "poor", "ok", "good", "great")
"""The ordinal grades of ``labeling_team``, worst first."""

TEAM: tuple[str, ...] = ("ana", "ben", "cai", "dee", "eli")
"""The annotator columns of ``labeling_team``, in the order pairs are formed."""

MS_CLASSES: tuple[str, ...] = ("certain", "probable", "possible", "doubtful")
"""The diagnostic classes of ``multiple_sclerosis``, most certain first."""


def _ordered(codes: Any, categories: Sequence[str]) -> pd.Categorical:
    """Build an ordered Categorical from integer codes (-1 missing)."""
    dtype = pd.CategoricalDtype(list(categories), ordered=True)
    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int64), dtype=dtype)


# How each project's items are spread over GRADES (gold grades).
_PROJECTS: dict[str, tuple[float, ...]] = {
    "alpha": (0.15, 0.20, 0.30, 0.20, 0.15),  # balanced
    "beta": (0.30, 0.30, 0.20, 0.15, 0.05),  # mostly weak items
    "gamma": (0.02, 0.03, 0.10, 0.75, 0.10),  # nearly everything is "good": prevalence paradox
}


def labeling_team(
    seed: int = 0,
    *,
    n_items: int = 600,
    layout: Literal["wide", "long"] = "wide",
) -> pd.DataFrame:
    """Simulate an annotation team: five annotators grade items of three projects.

    Every item has a hidden gold grade on the ordinal scale ``GRADES``
    (``bad < poor < ok < good < great``), drawn with a project-specific spread: ``alpha`` is
    balanced, ``beta`` mostly weak, ``gamma`` nearly all ``good`` (high observed agreement,
    low kappa: the prevalence paradox). The annotators (``TEAM``) are:

    - ``ana``, expert: exact 88% of the time, else one grade off; skips 3%;
    - ``ben``, solid but coarse: gold plus rounded normal noise (sd 0.7), so his misses
      are near misses and weighted kappa rewards him;
    - ``cai``, strict: half the time one grade lower than gold, else exact;
    - ``dee``, passes everything: ``good`` for 85% of items whatever they are;
    - ``eli``, new and noisy: exact 50% of the time, else a random grade; skips 25%.

    Parameters
    ----------
    seed : int, default 0
        Seed of ``numpy.random.default_rng``; the same seed gives the same frame.
    n_items : int, default 600
        Number of items, split evenly (round robin) over the three projects.
    layout : {"wide", "long"}, default "wide"
        ``"wide"``: one row per item. ``"long"``: one row per rating (what labeling tools
        export), missing ratings left out.

    Returns
    -------
    pandas.DataFrame
        Wide: ``item`` (int), ``project`` (``"alpha"``, ``"beta"``, ``"gamma"``), one
        column per annotator in ``TEAM`` (ordered categorical over ``GRADES``,
        NaN where skipped), ``gold`` (the true grade, same dtype) and ``model_score``
        (float in [0, 1]: a model's probability that the item is acceptable, i.e. graded
        ``ok`` or better; rounded to 2 decimals, so scores tie). Long: ``item``,
        ``project``, ``annotator``, ``grade``.

    Examples
    --------
    >>> import kappaframe as kf
    >>> team = kf.datasets.labeling_team(seed=0)
    >>> team.shape
    (600, 9)
    >>> res = team.kappa.pairwise(list(kf.datasets.TEAM), by="project")
    >>> worst = res.sort_values("kappa").iloc[0]
    >>> str(worst["project"]), str(worst["rater_b"])
    ('gamma', 'dee')
    """
    if layout not in ("wide", "long"):
        raise bad_option("layout", layout, ["wide", "long"])
    if n_items < 3:
        raise KappaFrameError(f"n_items must be at least 3 (one per project); got {n_items}.")
    rng = np.random.default_rng(seed)
    k = len(GRADES)
    names = list(_PROJECTS)
    project_code = np.arange(n_items) % len(names)
    gold = np.empty(n_items, dtype=np.intp)
    for p, spread in enumerate(_PROJECTS.values()):
        rows = np.flatnonzero(project_code == p)
        gold[rows] = rng.choice(k, size=len(rows), p=spread)

    def clip(values: np.ndarray) -> np.ndarray:
        return np.clip(values, 0, k - 1)

    def skip(codes: np.ndarray, rate: float) -> np.ndarray:
        out = codes.copy()
        out[rng.random(n_items) < rate] = -1
        return out

    off_by_one = rng.choice([-1, 1], n_items)
    ana = np.where(rng.random(n_items) < 0.88, gold, clip(gold + off_by_one))
    ben = clip(np.rint(gold + rng.normal(0.0, 0.7, n_items)).astype(np.intp))
    cai = np.where(rng.random(n_items) < 0.5, clip(gold - 1), gold)
    dee = np.where(rng.random(n_items) < 0.85, GRADES.index("good"), gold)
    eli = np.where(rng.random(n_items) < 0.5, gold, rng.integers(0, k, n_items))
    codes = {
        "ana": skip(ana, 0.03),
        "ben": ben,
        "cai": cai,
        "dee": dee,
        "eli": skip(eli, 0.25),
    }
    latent = 1.6 * (gold - 1.5) + rng.normal(0.0, 1.3, n_items)
    score = np.round(1.0 / (1.0 + np.exp(-latent)), 2)

    frame = pd.DataFrame(
        {
            "item": np.arange(1, n_items + 1),
            "project": [names[p] for p in project_code],
            **{name: _ordered(c, GRADES) for name, c in codes.items()},
            "gold": _ordered(gold, GRADES),
            "model_score": score,
        }
    )
    if layout == "wide":
        return frame
    long = frame.melt(
        id_vars=["item", "project"],
        value_vars=list(TEAM),
        var_name="annotator",
        value_name="grade",
    )
    long = long[long["grade"].notna()].sort_values(["item", "annotator"], kind="stable")
    long["grade"] = long["grade"].astype(pd.CategoricalDtype(list(GRADES), ordered=True))
    return long.reset_index(drop=True)


# Landis & Koch (1977), Table 1: rows are the New Orleans neurologist, columns the
# Winnipeg neurologist, classes 1-4 = certain, probable, possible, doubtful.
_MS_TABLES: dict[str, list[list[int]]] = {
    "Winnipeg": [[38, 5, 0, 1], [33, 11, 3, 0], [10, 14, 5, 6], [3, 7, 3, 10]],
    "New Orleans": [[5, 3, 0, 0], [3, 11, 4, 0], [2, 13, 3, 4], [1, 2, 4, 14]],
}


def multiple_sclerosis() -> pd.DataFrame:
    """Two neurologists diagnose multiple sclerosis in two patient samples (218 patients).

    Westlund & Kurland (1953) had a Winnipeg and a New Orleans neurologist each review
    the records of 149 Winnipeg and 69 New Orleans patients and classify them as
    certain, probable, possible or doubtful multiple sclerosis (``MS_CLASSES``,
    an ordinal scale). Landis & Koch (1977) tabulated the diagnoses (their Table 1,
    typed in here cell by cell) and report Cohen's kappa 0.208 (Winnipeg patients) and
    0.297 (New Orleans patients), the example behind their agreement bands.

    Returns
    -------
    pandas.DataFrame
        One row per patient: ``patient`` (int), ``patients`` (the sample, ``"Winnipeg"``
        or ``"New Orleans"``), ``new_orleans`` and ``winnipeg`` (each neurologist's
        diagnosis, ordered categorical over ``MS_CLASSES``).

    References
    ----------
    Westlund, K. B., & Kurland, L. T. (1953). Studies on multiple sclerosis in Winnipeg,
    Manitoba and New Orleans, Louisiana. *American Journal of Hygiene* 57, 380-396.

    Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement for
    categorical data. *Biometrics* 33(1), 159-174, Table 1 and equation (4.6).

    Examples
    --------
    >>> import kappaframe as kf
    >>> ms = kf.datasets.multiple_sclerosis()
    >>> res = ms.kappa.pairwise(["new_orleans", "winnipeg"], by="patients")
    >>> [round(float(k), 3) for k in res["kappa"]]  # New Orleans, Winnipeg (sorted)
    [0.297, 0.208]
    """
    samples, new_orleans, winnipeg = [], [], []
    for sample, table in _MS_TABLES.items():
        for i, row in enumerate(table):
            for j, count in enumerate(row):
                samples += [sample] * count
                new_orleans += [i] * count
                winnipeg += [j] * count
    return pd.DataFrame(
        {
            "patient": np.arange(1, len(samples) + 1),
            "patients": samples,
            "new_orleans": _ordered(new_orleans, MS_CLASSES),
            "winnipeg": _ordered(winnipeg, MS_CLASSES),
        }
    )

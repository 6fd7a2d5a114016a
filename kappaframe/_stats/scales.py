"""Interpretation bands: kappa value -> plain words.

Each published table is printed at two decimals and leaves gaps between its rows
(".00-.20 slight", ".21-.40 fair"). kappaframe closes every gap so the bands are
contiguous, and keeps every two-decimal value where the published table puts it.
A band is described by its lower edge and whether that edge is included.

A value that rests on fewer than ``min_items`` items gets no band: its interpretation is
``TOO_FEW_ITEMS``, the lowest category (``with_min_items``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .._errors import KappaFrameError, arg, bad_option, ways
from .inference import normal_sf

__all__ = ["MIN_ITEMS", "SCALES", "TOO_FEW_ITEMS", "Scale", "resolve_scale", "with_min_items"]


@dataclass(frozen=True)
class Scale:
    """Contiguous interpretation bands, lowest first.

    ``edges[i]`` is the lower edge of band ``i`` (``-inf`` for the first band) and
    ``closed[i]`` says whether a kappa equal to that edge belongs to band ``i``
    (``True``) or to the band below (``False``).
    """

    name: str
    labels: tuple[str, ...]
    edges: tuple[float, ...]
    closed: tuple[bool, ...]

    def classify(self, kappa: np.ndarray) -> np.ndarray:
        """Band index of each kappa, ``-1`` where kappa is NaN or below the lowest edge.

        The smallest signed integer type that holds every band: int8 up to 128 bands.
        """
        kappa = np.asarray(kappa, dtype=float)
        index = np.full(kappa.shape, -1, dtype=np.min_scalar_type(-len(self.labels)))
        rising = all(a < b for a, b in zip(self.edges, self.edges[1:], strict=False))
        for i, (edge, closed) in enumerate(zip(self.edges, self.closed, strict=True)):
            inside = (kappa >= edge) if closed else (kappa > edge)
            if rising:  # the bands a kappa reaches are the first ones: count them
                index += inside
            else:
                index[inside] = i
        return index

    def limits(self) -> tuple[np.ndarray, np.ndarray]:
        """Lower and upper limits of each band within [-1, 1] (the range of a coefficient)."""
        lower = np.clip(np.array(self.edges, dtype=float), -1.0, 1.0)
        upper = np.append(lower[1:], 1.0)
        return lower, upper

    def membership(self, kappa: np.ndarray, se: np.ndarray) -> np.ndarray:
        """Probability that the true coefficient lies in each band, shape ``(..., bands)``.

        Gwet (2014, ch. 6), as irrCAC's ``landis.koch.bf`` computes it: with the normal
        approximation ``N(k, se^2)`` truncated to [-1, 1] (``k`` the estimate, ``Phi``
        the normal distribution function), band ``[a, b]`` has probability
        ``(Phi((b - k) / se) - Phi((a - k) / se)) / T`` with
        ``T = Phi((1 - k) / se) - Phi((-1 - k) / se)``. NaN where
        the coefficient or its standard error is NaN.
        """
        k = np.asarray(kappa, dtype=float)[..., None]
        s = np.asarray(se, dtype=float)[..., None]
        lower, upper = self.limits()
        with np.errstate(divide="ignore", invalid="ignore"):
            inside = normal_sf((lower - k) / s) - normal_sf((upper - k) / s)
            total = normal_sf((-1.0 - k) / s) - normal_sf((1.0 - k) / s)
            out = inside / total
        # A zero standard error: all the probability in the band kappa is classified in.
        zero = np.broadcast_to(s == 0, (*out.shape[:-1], 1))[..., 0]
        exact = zero & np.isfinite(k[..., 0])
        if exact.any():
            band = self.classify(k[..., 0][exact])
            hit = np.zeros((int(exact.sum()), len(self.labels)))
            hit[np.arange(len(band)), band] = 1.0
            out[exact] = hit
        return out

    def benchmark(
        self, kappa: np.ndarray, se: np.ndarray, level: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """Gwet's probabilistic benchmark: the band, and its cumulative probability.

        Going down from the highest band, the first band whose cumulative membership
        probability (``membership`` of it and every band above it) reaches
        ``level``. Band ``-1`` and probability NaN where the coefficient or its standard
        error is NaN.
        """
        p = self.membership(kappa, se)
        cum = np.cumsum(p[..., ::-1], axis=-1)[..., ::-1]  # this band and every band above
        reached = cum >= level - 1e-12
        n = len(self.labels)
        top_first = np.argmax(reached[..., ::-1], axis=-1)  # first reached, from the top
        band = (n - 1 - top_first).astype(np.min_scalar_type(-n))
        chosen = np.take_along_axis(cum, band[..., None].astype(np.intp), axis=-1)[..., 0]
        missing = ~reached.any(axis=-1)
        band[missing] = -1
        chosen = np.where(missing, np.nan, chosen)
        return band, chosen

    def bands(self) -> list[str]:
        """Each band in words, e.g. ``['poor: kappa < 0', 'slight: 0 <= kappa <= 0.2', ...]``."""
        out = []
        n = len(self.labels)
        for i, label in enumerate(self.labels):
            low = "" if i == 0 else f"{self.edges[i]:g} {'<=' if self.closed[i] else '<'} "
            high = ""
            if i + 1 < n:
                high = f" {'<' if self.closed[i + 1] else '<='} {self.edges[i + 1]:g}"
            out.append(f"{label}: {low}kappa{high}")
        return out


_INF = float("-inf")

# Built-in scales. Edges: see each entry; the tables are those of the references below.
SCALES: dict[str, Scale] = {
    # Landis & Koch (1977): <0 poor, .00-.20 slight, .21-.40 fair, .41-.60 moderate,
    # .61-.80 substantial, .81-1.00 almost perfect. Upper edges are inclusive: 0.20 is slight.
    "landis_koch": Scale(
        "landis_koch",
        ("poor", "slight", "fair", "moderate", "substantial", "almost perfect"),
        (_INF, 0.0, 0.2, 0.4, 0.6, 0.8),
        (True, True, False, False, False, False),
    ),
    # Fleiss (1981): <.40 poor, .40-.75 fair to good, >.75 excellent.
    "fleiss": Scale(
        "fleiss",
        ("poor", "fair to good", "excellent"),
        (_INF, 0.4, 0.75),
        (True, True, False),
    ),
    # Altman (1991): <=.20 poor, .21-.40 fair, .41-.60 moderate, .61-.80 good, .81-1.00 very good.
    "altman": Scale(
        "altman",
        ("poor", "fair", "moderate", "good", "very good"),
        (_INF, 0.2, 0.4, 0.6, 0.8),
        (True, False, False, False, False),
    ),
    # Cicchetti & Sparrow (1981), Cicchetti (1994): <.40 poor, .40-.59 fair, .60-.74 good,
    # .75-1.00 excellent. Lower edges are inclusive: 0.40 is fair.
    "cicchetti": Scale(
        "cicchetti",
        ("poor", "fair", "good", "excellent"),
        (_INF, 0.4, 0.6, 0.75),
        (True, True, True, True),
    ),
    # McHugh (2012): 0-.20 none, .21-.39 minimal, .40-.59 weak, .60-.79 moderate,
    # .80-.90 strong, above .90 almost perfect. Negative kappa is "none".
    "mchugh": Scale(
        "mchugh",
        ("none", "minimal", "weak", "moderate", "strong", "almost perfect"),
        (_INF, 0.2, 0.4, 0.6, 0.8, 0.9),
        (True, False, True, True, True, False),
    ),
    # Regier et al. (2013), the DSM-5 field trials: <.20 unacceptable, .20-.39
    # questionable, .40-.59 good, .60-.79 very good, .80-1.00 excellent (irrCAC's
    # ``regier``). Lower edges are inclusive: 0.60 is very good.
    "regier": Scale(
        "regier",
        ("unacceptable", "questionable", "good", "very good", "excellent"),
        (_INF, 0.2, 0.4, 0.6, 0.8),
        (True, True, True, True, True),
    ),
}
"""The built-in interpretation scales, by the name ``scale=`` takes.

``"landis_koch"`` (Landis & Koch 1977, the default), ``"fleiss"`` (Fleiss 1981),
``"altman"`` (Altman 1991), ``"cicchetti"`` (Cicchetti & Sparrow 1981), ``"mchugh"``
(McHugh 2012) and ``"regier"`` (Regier et al. 2013). The published tables leave gaps at
two decimals (".00-.20 slight, .21-.40 fair"); each scale closes them so that every
two-decimal value lands in the band its table names. ``SCALES["landis_koch"].bands()``
lists a scale's bands in words.
"""


def resolve_scale(scale: str | Mapping[float, str] | Scale) -> Scale:
    """Turn a scale name or a ``{lower_bound: label}`` mapping into a ``Scale``.

    In a user mapping each bound is inclusive (``kappa >= bound``); a kappa below the
    lowest bound gets a missing interpretation.
    """
    if isinstance(scale, Scale):
        return scale
    if isinstance(scale, str):
        try:
            return SCALES[scale]
        except KeyError:
            raise bad_option("scale", scale, [*SCALES, "a {lower_bound: label} mapping"]) from None
    if isinstance(scale, Mapping):
        if not scale:
            raise KappaFrameError("scale mapping is empty; give at least one {lower_bound: label}.")
        items = []
        for bound, label in scale.items():
            try:
                value = float(bound)
            except (TypeError, ValueError):
                raise KappaFrameError(
                    f"scale mapping keys must be numbers (lower bounds of kappa); got {bound!r}."
                ) from None
            if np.isnan(value):
                raise KappaFrameError("scale mapping has a NaN lower bound.")
            items.append((value, str(label)))
        items.sort()
        labels = tuple(label for _, label in items)
        if len(set(labels)) != len(labels):
            raise KappaFrameError(f"scale mapping repeats a label: {list(labels)}.")
        return Scale(
            "custom",
            labels,
            tuple(bound for bound, _ in items),
            tuple(True for _ in items),
        )
    raise bad_option("scale", scale, [*SCALES, "a {lower_bound: label} mapping"])


#: Below this many items a value gets no band (the default of ``min_items=``).
MIN_ITEMS = 10

#: The interpretation of a value that rests on fewer than ``min_items`` items. It is the
#: first (lowest) category, so ``interpretation >= "moderate"`` never passes it.
TOO_FEW_ITEMS = "too few items"


def with_min_items(
    band: np.ndarray, n: np.ndarray, min_items: int | None, labels: tuple[str, ...]
) -> tuple[np.ndarray, tuple[str, ...]]:
    """Codes and categories of ``interpretation``: no band below ``min_items`` items.

    Parameters
    ----------
    band : numpy.ndarray
        Band index of each value into ``labels`` (-1 missing).
    n : numpy.ndarray
        The items each value rests on (same shape).
    min_items : int or None
        ``None`` or 0: ``band`` and ``labels`` as they are. Else ``labels`` with
        ``TOO_FEW_ITEMS`` put first, every band moved up one, and the values with a
        band but fewer than ``min_items`` items coded 0 (an undefined value stays missing).

    Returns
    -------
    codes : numpy.ndarray
        Signed integer codes into the categories (-1 missing).
    categories : tuple of str

    Raises
    ------
    KappaFrameError
        A scale has a band named ``TOO_FEW_ITEMS``.
    """
    if not min_items:
        return band, labels
    if TOO_FEW_ITEMS in labels:
        raise KappaFrameError(
            f"the scale has a band named {TOO_FEW_ITEMS!r}, the interpretation of values "
            f"on fewer than {arg('min_items')} items; rename that band, or pass "
            f"{ways('min_items=None', arg('min_items', 0))}."
        )
    # Arithmetic on whole arrays (no boolean indexing or masked copies: a crowd has
    # millions of rows): band + 1, times "enough items", and -1 where there is no band.
    codes = band.astype(np.min_scalar_type(-len(labels) - 1))
    codes += 1
    codes *= ~(np.asarray(n) < min_items)
    codes -= band < 0  # an undefined value stays missing
    return codes, (TOO_FEW_ITEMS, *labels)

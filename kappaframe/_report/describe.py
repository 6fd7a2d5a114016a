"""Results written for papers: a sentence per row in APA style, a methods paragraph, a table.

``describe`` reads a result of ``pairwise`` or ``overall`` and its record (the options the
call recorded in ``attrs``, see ``settings/bind.py``) and writes what a paper says of it.
Nothing is computed here and nothing is guessed: an option the record does not hold is
written "not recorded". Values bounded by 1 (coefficients, interval limits) are written
without a leading zero, as APA style asks (``.52``, ``-.05``); counts as integers.

The scale of the ``interpretation`` column is not recorded either; it is named (and cited)
only when the column's categories are exactly the bands of one built-in scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .._api.settings.bind import declared
from .._errors import KappaFrameError, KappaFrameTypeError
from .._schema import MARK
from .._stats.scales import SCALES, TOO_FEW_ITEMS
from .._types import Style
from .._version import __version__

__all__ = ["CITATIONS", "COEFFICIENTS", "Description", "apa_number", "describe"]

#: Each built-in scale's citation, as a sentence cites it (APA), and its reference.
CITATIONS: dict[str, tuple[str, str]] = {
    "landis_koch": (
        "Landis & Koch, 1977",
        "Landis, J. R., & Koch, G. G. (1977). The measurement of observer agreement for "
        "categorical data. Biometrics, 33(1), 159-174.",
    ),
    "fleiss": (
        "Fleiss, 1981",
        "Fleiss, J. L. (1981). Statistical methods for rates and proportions (2nd ed.). Wiley.",
    ),
    "altman": (
        "Altman, 1991",
        "Altman, D. G. (1991). Practical statistics for medical research. Chapman and Hall.",
    ),
    "cicchetti": (
        "Cicchetti & Sparrow, 1981",
        "Cicchetti, D. V., & Sparrow, S. A. (1981). Developing criteria for establishing "
        "interrater reliability of specific items. American Journal of Mental Deficiency, "
        "86(2), 127-137.",
    ),
    "mchugh": (
        "McHugh, 2012",
        "McHugh, M. L. (2012). Interrater reliability: the kappa statistic. Biochemia "
        "Medica, 22(3), 276-282.",
    ),
    "regier": (
        "Regier et al., 2013",
        "Regier, D. A., et al. (2013). DSM-5 field trials in the United States and Canada, "
        "part II. American Journal of Psychiatry, 170(1), 59-70.",
    ),
}

#: Each coefficient's symbol and name, by ``overall``'s method (``cohen``: ``pairwise``).
COEFFICIENTS: dict[str, tuple[str, str]] = {
    "cohen": ("κ", "Cohen's kappa"),
    "cohen_weighted": ("κw", "weighted kappa"),
    "fleiss": ("Fleiss' κ", "Fleiss' kappa"),
    "light": ("Light's κ", "Light's kappa"),
    "conger": ("Conger's κ", "Conger's kappa"),
    "krippendorff": ("\N{GREEK SMALL LETTER ALPHA}", "Krippendorff's alpha"),
    "gwet_ac1": ("AC1", "Gwet's AC1"),
    "gwet_ac2": ("AC2", "Gwet's AC2"),
    "brennan_prediger": ("κBP", "Brennan and Prediger's kappa"),
    "percent": ("PA", "percent agreement"),
}

#: What is written for an option the record does not hold.
NOT_RECORDED = "not recorded"


def _in_text(citation: str) -> str:
    """A parenthetical citation as the text cites it: ``Landis & Koch (1977)``."""
    authors, _, year = citation.rpartition(", ")
    return f"{authors} ({year})"


def apa_number(value: Any) -> str:
    """A value bounded by 1 at two decimals without its leading zero: ``.52``, ``-.05``.

    >>> apa_number(0.5234), apa_number(-0.049), apa_number(1.0)
    ('.52', '-.05', '1.00')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    text = f"{float(value):.2f}"
    if text == "-0.00":
        text = "0.00"
    return text.replace("0.", ".", 1) if text.lstrip("-").startswith("0.") else text


@dataclass(frozen=True)
class Description:
    """A result written for a paper: ``sentences`` (one per row), ``methods`` and ``table``.

    ``str()`` gives the methods paragraph and the sentences; ``to_latex()`` the table
    through pandas' ``Styler.to_latex``.
    """

    sentences: list[str]
    methods: str
    table: Any = field(repr=False)
    references: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n\n".join([self.methods, " ".join(self.sentences)])

    def to_latex(self, **kwargs: Any) -> str:
        """The table as LaTeX (``pandas.io.formats.style.Styler.to_latex``; its options)."""
        styler = self.table.style.hide(axis="index").format(escape="latex")
        return str(styler.to_latex(**kwargs))


@declared
def describe(data: Any, *, style: Style = "apa") -> Description:
    """Write a result of ``pairwise`` or ``overall`` as a paper reports it (APA style).

    One sentence per row: the coefficient's symbol, its value and interval (two
    decimals, no leading zero: APA's style for values bounded by 1), the items it rests
    on, the band of the ``interpretation`` column and the scale's citation, e.g.
    "Agreement between ana and ben was moderate, κ = .42, 95% CI [.37, .47], n = 587
    (Landis & Koch, 1977)." A methods paragraph names the coefficient, the weights, the
    categories, how missing ratings were handled, the interval's method and level, the
    bootstrap's replicates and seed and the kappaframe version, each as the result's
    record (``attrs``) holds it, and "not recorded" where it does not (a result read back
    from a file, or an option the call does not record). The interval's level is
    written (``95% CI``) only when recorded. The scale is named and cited only when the
    ``interpretation`` column's categories are exactly those of one built-in scale.

    Parameters
    ----------
    %(parameters)s

    Not pandas' ``Series.describe``: ``res.kappa.describe()`` describes the result; the
    summary statistics of its ``kappa`` column are ``res["kappa"].describe()``.

    Returns
    -------
    Description
        ``sentences`` (list of str, one per row), ``methods`` (str), ``table`` (a pandas
        frame: the rows, with the coefficient, value, interval, n and band as text),
        ``references`` (the scale's reference, when named) and ``to_latex()``.

    Raises
    ------
    KappaFrameError
        ``data`` is not a result of ``pairwise`` or ``overall``.

    See Also
    --------
    forest_plot : the same rows as a picture.

    Examples
    --------
    >>> import kappaframe as kf
    >>> team = kf.datasets.labeling_team(seed=0)
    >>> res = kf.pairwise(team, ["ana", "ben"], ci=0.95)
    >>> print(kf.describe(res).sentences[0])  # doctest: +NORMALIZE_WHITESPACE
    Agreement between ana and ben was moderate, κ = .42, 95% CI [.37, .47], n = 587
    (Landis & Koch, 1977).
    """
    frame = pandas_result(data, "describe() takes a result frame of pairwise or overall")
    rows = _Rows.of(frame)
    return Description(rows.sentences(), rows.methods(), rows.table(), rows.references())


def pandas_result(result: Any, takes: str) -> Any:
    """A result as a pandas frame (a polars one converted, a LazyFrame collected).

    Anything else is refused: "``takes`` (pandas or polars); got <type>."
    """
    import pandas as pd

    if isinstance(result, pd.DataFrame):
        return result
    if hasattr(result, "collect"):
        result = result.collect()
    if hasattr(result, "to_pandas"):
        return result.to_pandas()
    raise KappaFrameTypeError(f"{takes} (pandas or polars); got {type(result).__name__}.")


#: The columns that say which function made a result.
_KINDS = {"pairwise": ("rater_a", "rater_b", "kappa", "n"), "overall": ("method", "value")}


def result_kind(frame: Any) -> str:
    """``"pairwise"`` or ``"overall"``, by the result's columns; else a clear error."""
    for kind, needed in _KINDS.items():
        if all(c in frame.columns for c in needed):
            return kind
    shown = ", ".join(map(str, frame.columns))
    raise KappaFrameError(
        f"describe() and forest_plot() take a result of pairwise or overall; this frame has "
        f"the columns {shown}. Pass the result of kf.pairwise(...) or kf.overall(...).",
        option="data",
    )


def identified_scale(frame: Any) -> str | None:
    """The built-in scale whose bands are exactly the ``interpretation`` categories."""
    column = frame.get("interpretation")
    categories = (
        getattr(getattr(column, "cat", None), "categories", None) if column is not None else None
    )
    if categories is None:
        return None
    bands = [str(c) for c in categories if str(c) != TOO_FEW_ITEMS]
    found = [name for name, scale in SCALES.items() if list(scale.labels) == bands]
    return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class _Rows:
    """A result's rows and record, as ``describe`` writes them."""

    frame: Any
    kind: str
    record: dict[str, Any]
    keys: list[str]
    scale: str | None

    @classmethod
    def of(cls, frame: Any) -> _Rows:
        kind = result_kind(frame)
        mark = frame.attrs.get(MARK) if isinstance(frame.attrs, dict) else None
        record = dict(mark) if isinstance(mark, dict) and mark.get("kind") == kind else {}
        before = "rater_a" if kind == "pairwise" else "method"
        keys = [str(c) for c in frame.columns[: list(frame.columns).index(before)]]
        keys = [k for k in keys if k not in ("window_start", "window_end")] + [
            k for k in ("window_start", "window_end") if k in frame.columns
        ]
        return cls(frame, kind, record, keys, identified_scale(frame))

    # -- per row ---------------------------------------------------------------------------

    def value_column(self) -> str:
        return "kappa" if self.kind == "pairwise" else "value"

    def n_column(self) -> str:
        return "n" if self.kind == "pairwise" else "n_items"

    def symbol(self, row: Any) -> str:
        if self.kind == "overall":
            return COEFFICIENTS.get(str(row["method"]), (str(row["method"]), ""))[0]
        weights = self.record.get("weights", NOT_RECORDED)
        return COEFFICIENTS["cohen" if weights in (None, NOT_RECORDED) else "cohen_weighted"][0]

    def who(self, row: Any) -> str:
        if self.kind == "pairwise":
            return f"between {row['rater_a']} and {row['rater_b']}"
        raters = row.get("n_raters")
        return "among the raters" if raters is None else f"among the {int(raters)} raters"

    def group(self, row: Any) -> str:
        if not self.keys:
            return ""
        return " (" + ", ".join(f"{k} = {row[k]}" for k in self.keys) + ")"

    def interval(self, row: Any) -> str:
        if "ci_low" not in self.frame.columns:
            return ""
        level = self.record.get("ci")
        name = f"{100 * float(level):g}% CI" if isinstance(level, (int, float)) else "CI"
        low, high = apa_number(row["ci_low"]), apa_number(row["ci_high"])
        return f", {name} undefined" if "n/a" in (low, high) else f", {name} [{low}, {high}]"

    def band(self, row: Any) -> str:
        band = row.get("interpretation")
        if band is None or (isinstance(band, float) and math.isnan(band)):
            return ""
        return f" was {band}" if str(band) != TOO_FEW_ITEMS else " (too few items to interpret)"

    def sentence(self, row: Any) -> str:
        value = row[self.value_column()]
        n = row[self.n_column()]
        banded = self.band(row).startswith(" was ")
        cite = f" ({CITATIONS[self.scale][0]})" if self.scale and banded else ""
        head = f"Agreement {self.who(row)}{self.group(row)}{self.band(row)}"
        if value is None or math.isnan(float(value)):
            return f"{head}: {self.symbol(row)} undefined, n = {int(n)}."
        numbers = f"{self.symbol(row)} = {apa_number(value)}{self.interval(row)}"
        return f"{head}, {numbers}, n = {int(n)}{cite}."

    def sentences(self) -> list[str]:
        return [self.sentence(row) for _, row in self.frame.iterrows()]

    # -- the paragraph and the table ----------------------------------------------------------

    def said(self, name: str) -> str:
        if name not in self.record:
            return NOT_RECORDED
        value = self.record[name]
        if value is None:
            return "none"
        if isinstance(value, list):
            return ", ".join(map(str, value))
        return str(value)

    def coefficient(self) -> str:
        if self.kind == "overall":
            methods = dict.fromkeys(str(m) for m in self.frame["method"])
            return ", ".join(COEFFICIENTS.get(m, (m, m))[1] for m in methods)
        return "Cohen's kappa, for each pair of raters"

    def missing(self) -> str:
        if self.kind == "pairwise":
            return (
                "Missing ratings were handled by pair-wise deletion (each pair's "
                "coefficient uses the items both raters labelled)"
            )
        return (
            "Missing ratings were handled as each coefficient's author defined it for "
            "incomplete data (every rating used)"
        )

    def methods(self) -> str:
        weights = self.said("weights")
        weighting = "unweighted" if weights == "none" else f"weights: {weights}"
        scale = (
            f"Values were interpreted with the bands of {_in_text(CITATIONS[self.scale][0])}."
            if self.scale
            else f"Interpretation scale: {NOT_RECORDED}."
        )
        interval = (
            f"Confidence intervals: level {self.said('ci')}, method {self.said('ci_method')}"
            + (
                "."
                if self.record.get("ci_method") == "analytic"
                else f", bootstrap replicates {self.said('n_boot')}, seed {self.said('seed')}."
            )
            if "ci_low" in self.frame.columns
            else "No confidence intervals were computed."
        )
        version = self.record.get("version")
        made = f"kappaframe {version}" if version else f"kappaframe ({NOT_RECORDED} which version)"
        return " ".join(
            [
                f"Agreement was estimated with {self.coefficient()} ({weighting}; categories: "
                f"{self.said('categories')}).",
                f"{self.missing()}.",
                interval,
                scale,
                f"Computed with {made}; described with kappaframe {__version__}.",
            ]
        )

    def table(self) -> Any:
        import pandas as pd

        out = {k: self.frame[k].astype(str).to_numpy() for k in self.keys}
        if self.kind == "pairwise":
            out["pair"] = (
                self.frame["rater_a"].astype(str) + " and " + self.frame["rater_b"].astype(str)
            ).to_numpy()
        else:
            out["coefficient"] = [
                COEFFICIENTS.get(str(m), (str(m), ""))[1] for m in self.frame["method"]
            ]
        out["value"] = [apa_number(v) for v in self.frame[self.value_column()]]
        if "ci_low" in self.frame.columns:
            level = self.record.get("ci")
            head = f"{100 * float(level):g}% CI" if isinstance(level, (int, float)) else "CI"
            out[head] = [
                f"[{apa_number(lo)}, {apa_number(hi)}]"
                for lo, hi in zip(self.frame["ci_low"], self.frame["ci_high"], strict=True)
            ]
        out["n"] = [str(int(n)) for n in self.frame[self.n_column()]]
        if "interpretation" in self.frame.columns:
            out["interpretation"] = self.frame["interpretation"].astype(str).to_numpy()
        return pd.DataFrame(out)

    def references(self) -> list[str]:
        return [CITATIONS[self.scale][1]] if self.scale else []

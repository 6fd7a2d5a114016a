"""Type aliases for the public options."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Literal

WeightsName = Literal["linear", "quadratic"]
ScaleName = Literal["landis_koch", "fleiss", "altman", "cicchetti", "mchugh", "regier"]
Scale = ScaleName | Mapping[float, str]
Duplicates = Literal["raise", "first", "last"]
#: ``missing=`` of ``icc`` and ``kendall_w``: drop the incomplete items, or use every rating.
MissingDesign = Literal["listwise", "available"]
Stat = Literal["kappa", "p_o", "p_e", "n"]
Columns = Hashable | Sequence[Hashable] | None
CIMethod = Literal["analytic", "bootstrap"]
CIDist = Literal["normal", "t"]
Benchmark = Literal["point", "probabilistic"]
Normalization = Literal["true", "pred", "all"]
Triangle = Literal["lower", "upper"]
Style = Literal["apa"]
Alternative = Literal["two-sided", "greater", "less"]
Layout = Literal["ratings", "counts", "table"]
Method = Literal[
    "fleiss",
    "light",
    "conger",
    "krippendorff",
    "gwet_ac1",
    "gwet_ac2",
    "brennan_prediger",
    "percent",
]
Level = Literal["nominal", "ordinal", "interval", "ratio"]
CategoryMethod = Literal["fleiss", "cohen"]
#: Distances between set-valued labels (Krippendorff's alpha over sets).
Distance = Literal["masi", "jaccard"]
#: ``kappaframe.per_label``: Cohen's kappa per pair, or one of ``Method`` over all raters.
LabelMethod = Literal[
    "cohen",
    "fleiss",
    "light",
    "conger",
    "krippendorff",
    "gwet_ac1",
    "brennan_prediger",
    "percent",
]
#: The annotation tools whose exports are read (``kappaframe._io.tools.TOOLS``).
AnnotationTool = Literal["label-studio", "prodigy", "doccano"]
ConsensusModel = Literal["majority", "dawid-skene"]
Ties = Literal["missing", "first-category", "random"]
#: ``alpha_centre=``: where Krippendorff's alpha's variance centres each item's term.
AlphaCentre = Literal["p_a_prime", "p_a"]
#: ``order=`` of ``kappaframe.benchmark``: the order its bands are listed and cumulated in.
BandOrder = Literal["highest-first", "as-given"]
#: ``z_from=``: the standard error ``z`` divides by.
ZFrom = Literal["se0", "se"]
#: ``kappaframe.table_tests``: one row per rater pair, or per pair and category.
TableRows = Literal["pair", "category"]
#: ``kappaframe.compare``'s test of two kappas of the same items.
CompareMethod = Literal["delta", "bootstrap"]
#: A row's state against a baseline (``kappaframe.against_baseline``), in this order.
BaselineState = Literal["ok", "inconclusive", "dropped", "new", "missing", "undefined"]
#: ``sample_size``: a one-sided test of kappa <= kappa0, or a two-sided one (kappaSize's).
SizeAlternative = Literal["greater", "two-sided"]
#: ``sample_size``: kappaSize's closed form where it has one, else a simulation; or either.
SizeMethod = Literal["auto", "goodness-of-fit", "simulation"]
#: The kind of frame a result is rendered as (the input's: pandas, polars, LazyFrame, Dask).
ResultKind = Literal["pandas", "polars", "lazy", "dask"]
#: Which bounds of a time window hold the times on them (polars' ``closed``).
Closed = Literal["left", "right", "both", "none"]

__all__ = [
    "AlphaCentre",
    "Alternative",
    "AnnotationTool",
    "BandOrder",
    "BaselineState",
    "Benchmark",
    "CIDist",
    "CIMethod",
    "CategoryMethod",
    "Closed",
    "Columns",
    "CompareMethod",
    "ConsensusModel",
    "Distance",
    "Duplicates",
    "LabelMethod",
    "Layout",
    "Level",
    "Method",
    "Normalization",
    "ResultKind",
    "Scale",
    "ScaleName",
    "SizeAlternative",
    "SizeMethod",
    "Stat",
    "Style",
    "TableRows",
    "Ties",
    "Triangle",
    "WeightsName",
    "ZFrom",
]

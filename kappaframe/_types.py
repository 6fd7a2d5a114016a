"""Type aliases for the public options."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Literal

WeightsName = Literal["linear", "quadratic"]
ScaleName = Literal["landis_koch", "fleiss", "altman", "cicchetti", "mchugh"]
Scale = ScaleName | Mapping[float, str]
Duplicates = Literal["raise", "first", "last"]
Stat = Literal["kappa", "p_o", "p_e", "n"]
Columns = Hashable | Sequence[Hashable] | None
CIMethod = Literal["analytic", "bootstrap"]
CIDist = Literal["normal", "t"]
Benchmark = Literal["point", "probabilistic"]
Normalization = Literal["true", "pred", "all"]
Triangle = Literal["lower", "upper"]
Alternative = Literal["two-sided", "greater", "less"]
Layout = Literal["ratings", "counts"]
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
#: The annotation tools whose exports are read (``kappaframe._io.tools.TOOLS``).
AnnotationTool = Literal["label-studio", "prodigy", "doccano"]
ConsensusModel = Literal["majority", "dawid-skene"]
Ties = Literal["missing", "first-category", "random"]
#: Which bounds of a time window hold the times on them (polars' ``closed``).
Closed = Literal["left", "right", "both", "none"]

__all__ = [
    "Alternative",
    "AnnotationTool",
    "Benchmark",
    "CIDist",
    "CIMethod",
    "CategoryMethod",
    "Closed",
    "Columns",
    "ConsensusModel",
    "Duplicates",
    "Layout",
    "Level",
    "Method",
    "Normalization",
    "Scale",
    "ScaleName",
    "Stat",
    "Ties",
    "Triangle",
    "WeightsName",
]

"""kappaframe: agreement between raters, straight from pandas and polars frames.

``import kappaframe`` registers the ``.kappa`` accessor on pandas DataFrames, and on
polars DataFrames and LazyFrames when polars is (or later gets) imported.
"""

from __future__ import annotations

from . import datasets
from ._api.benchmark import benchmark
from ._api.counts import Counts
from ._api.items import items, rater_confusion
from ._api.overall import overall, per_category
from ._api.pairwise import cohen_kappa, confusion, counts, matrix, pairwise, score
from ._api.raters import raters
from ._api.threshold import threshold_sweep
from ._errors import (
    ConvergenceWarning,
    KappaFrameError,
    KappaFrameTypeError,
    MissingTokenWarning,
    UndefinedKappaWarning,
)
from ._io.provenance import provenance
from ._io.scan import FileScan, scan
from ._io.tools.annotations import read_annotations
from ._register import (
    register_dask_when_imported,
    register_pandas,
    register_polars_when_imported,
)
from ._report.display import register_formatter
from ._report.plots import confusion_plot, heatmap, trend_plot
from ._stats.scales import SCALES
from ._version import __version__

__all__ = [
    "SCALES",
    "ConvergenceWarning",
    "Counts",
    "FileScan",
    "KappaFrameError",
    "KappaFrameTypeError",
    "MissingTokenWarning",
    "UndefinedKappaWarning",
    "__version__",
    "benchmark",
    "cohen_kappa",
    "confusion",
    "confusion_plot",
    "counts",
    "datasets",
    "heatmap",
    "items",
    "matrix",
    "overall",
    "pairwise",
    "per_category",
    "provenance",
    "rater_confusion",
    "raters",
    "read_annotations",
    "scan",
    "score",
    "threshold_sweep",
    "trend_plot",
]

register_pandas()
register_polars_when_imported()
register_dask_when_imported()
register_formatter()  # colours matrix results in a running IPython (nothing otherwise)

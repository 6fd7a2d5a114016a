"""kappaframe: agreement between raters, straight from pandas and polars frames.

``import kappaframe`` registers the ``.kappa`` accessor on pandas DataFrames, and on
polars DataFrames and LazyFrames when polars is (or later gets) imported.
"""

from __future__ import annotations

from . import datasets
from ._api.baseline import against_baseline
from ._api.benchmark import benchmark
from ._api.category_counts import category_counts
from ._api.compare import compare
from ._api.concordance import bland_altman, ccc
from ._api.counts import Counts
from ._api.icc import icc, kendall_w
from ._api.items import items, rater_confusion
from ._api.judge import judge_report
from ._api.overall import overall, per_category
from ._api.pairwise import cohen_kappa, confusion, counts, matrix, pairwise, score
from ._api.per_label import per_label
from ._api.preference import resolve_swaps, swap_consistency
from ._api.raters import raters
from ._api.sample_size import sample_size
from ._api.settings.bind import declared
from ._api.table_tests import table_tests
from ._api.threshold import threshold_sweep
from ._errors import (
    ConvergenceWarning,
    KappaFrameError,
    KappaFrameTypeError,
    MissingTokenWarning,
    UndefinedKappaWarning,
)
from ._io import provenance as _provenance
from ._io import scan as _scan
from ._io.scan import FileScan
from ._io.tools import annotations as _annotations
from ._register import (
    register_dask_when_imported,
    register_pandas,
    register_polars_when_imported,
)
from ._report.describe import describe
from ._report.display import register_formatter
from ._report.plots import bland_altman_plot, confusion_plot, forest_plot, heatmap, trend_plot
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
    "against_baseline",
    "benchmark",
    "bland_altman",
    "bland_altman_plot",
    "category_counts",
    "ccc",
    "cohen_kappa",
    "compare",
    "confusion",
    "confusion_plot",
    "counts",
    "datasets",
    "describe",
    "forest_plot",
    "heatmap",
    "icc",
    "items",
    "judge_report",
    "kendall_w",
    "matrix",
    "overall",
    "pairwise",
    "per_category",
    "per_label",
    "provenance",
    "rater_confusion",
    "raters",
    "read_annotations",
    "resolve_swaps",
    "sample_size",
    "scan",
    "score",
    "swap_consistency",
    "table_tests",
    "threshold_sweep",
    "trend_plot",
]

# The readers and the record live below the public functions (``_io``); they are bound to
# their declarations here, where they become public, like every other public callable.
provenance = declared(_provenance.provenance)
read_annotations = declared(_annotations.read_annotations)
scan = declared(_scan.scan)

register_pandas()
register_polars_when_imported()
register_dask_when_imported()
register_formatter()  # colours matrix results in a running IPython (nothing otherwise)

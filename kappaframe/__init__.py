"""kappaframe: agreement between raters, straight from pandas and polars frames.

``import kappaframe`` registers the ``.kappa`` accessor on pandas DataFrames, and on
polars DataFrames and LazyFrames when polars is (or later gets) imported.
"""

from __future__ import annotations

from . import datasets
from ._api.counts import Counts, counts
from ._api.pairwise import (
    cohen_kappa,
    confusion,
    confusion_plot,
    heatmap,
    matrix,
    overall,
    pairwise,
    per_category,
    raters,
    score,
    threshold_sweep,
)
from ._errors import KappaFrameError, KappaFrameTypeError, UndefinedKappaWarning
from ._frames.files import FileScan, scan
from ._register import (
    register_dask_when_imported,
    register_pandas,
    register_polars_when_imported,
)
from ._stats.scales import SCALES

__version__ = "0.1.0"

__all__ = [
    "SCALES",
    "Counts",
    "FileScan",
    "KappaFrameError",
    "KappaFrameTypeError",
    "UndefinedKappaWarning",
    "__version__",
    "cohen_kappa",
    "confusion",
    "confusion_plot",
    "counts",
    "datasets",
    "heatmap",
    "matrix",
    "overall",
    "pairwise",
    "per_category",
    "raters",
    "scan",
    "score",
    "threshold_sweep",
]

register_pandas()
register_polars_when_imported()
register_dask_when_imported()

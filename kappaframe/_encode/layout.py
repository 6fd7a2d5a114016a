"""The long layout's three columns, as one value the lower layers can take.

``LongLayout`` names the columns of one row per rating: the item, the rater and the
rating (a label, or a numeric score). The public functions bind it once, before any data
is read (``kappaframe._api.settings.reading.ReadSpec``); the frame engines and the
statistics below them take it whole instead of three column names.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

__all__ = ["LongLayout"]


@dataclass(frozen=True)
class LongLayout:
    """The long layout's three columns: one row per rating.

    ``label`` is the rating column: the labels, or the scores of a numeric statistic.
    """

    item: Hashable
    rater: Hashable
    label: Hashable

"""The judge's report as one self-contained HTML page: the summary, then the classes.

The page of ``kappaframe judge --format html``: the report page's style (inline CSS, no
script, nothing fetched), the summary table (one row per group; kappa coloured on its
scale) and the per class table, and a footer saying what made it.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .._version import __version__
from .report import _CSS, _h, _html_table, provenance_html

__all__ = ["render_judge_html"]


def render_judge_html(
    classes: pd.DataFrame,
    summary: pd.DataFrame,
    *,
    judge: Any,
    gold: Any,
    source: str,
    provenance: dict[str, Any] | None = None,
) -> str:
    """One HTML page of ``judge_report``'s two frames (pandas), with its provenance."""
    facts = {"Input": source, "Judge": str(judge), "Gold": str(gold)}
    facts["Groups"] = str(len(summary))
    listed = "".join(f"<dt>{_h(k)}</dt><dd>{_h(v)}</dd>" for k, v in facts.items())
    title = f"The judge's report: {source}"
    footer = f"<p>Made by kappaframe {_h(__version__)}.</p>"
    if provenance is not None:
        footer += provenance_html(provenance)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_h(title)}</title><style>{_CSS}</style></head><body>"
        "<header><h1>The judge's report</h1>"
        f'<dl class="facts">{listed}</dl></header>'
        '<section id="summary"><h2>Summary</h2><p class="note keep">One row per group: '
        "accuracy with Wilson's interval, the averages of precision, recall and F1, kappa "
        "with its interval (coloured), and with two classes the prevalence corrected for the "
        "judge's errors.</p>"
        f'<div class="scroll">{_html_table(summary, colour=("kappa",))}</div></section>'
        '<section id="classes"><h2>Per class</h2>'
        f'<div class="scroll">{_html_table(classes, colour=())}</div></section>'
        f"<footer>{footer}</footer></body></html>\n"
    )

"""Notebook display of rater matrices: a coloured table, with no extra call.

``kappaframe.matrix`` returns a plain pandas DataFrame whose ``attrs`` carry
``{"kappaframe": {"kind": "matrix", "stat": ...}}``. When IPython is running, the first
matrix registers an HTML formatter for DataFrames with IPython's display system: frames
carrying that mark render as a pandas ``Styler`` (colours by value, two decimals); every
other frame renders exactly as before (its own ``_repr_html_``). Nothing is subclassed,
so the result compares, pickles and concatenates like any DataFrame. To see the plain
table, ``del m.attrs["kappaframe"]`` or call ``display(m.style.clear())``.

Figures from ``kappaframe.heatmap`` and ``kappaframe.confusion_plot`` are built
without pyplot (no global state, no double display). So that a returned figure shows as
the cell's value in a notebook even before ``%matplotlib inline`` or ``import
matplotlib.pyplot``, drawing one registers IPython's own PNG printer for matplotlib
figures, unless a printer for them is already registered (``%matplotlib inline`` does).

The colours are computed here (CSS), so no matplotlib is needed: kappa diverges from
red (below 0) through white (0) to blue (1); ``p_o`` and ``p_e`` run white to blue over
[0, 1]; ``n`` white to blue up to its maximum. Missing values show as "n/a" on grey.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable
from typing import Any

from .._schema import MARK

__all__ = [
    "alarm_style",
    "is_matrix",
    "matrix_styler",
    "register_figure_formatter",
    "register_formatter",
    "visible",
]


#: Characters a terminal, an editor or a browser would act on instead of showing:
#: C0 and C1 controls (escape sequences, carriage return, bell), DEL, and the marks and
#: overrides of bidirectional text (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069).
_UNSEEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, newlines: bool = False) -> str:
    r"""Show control characters and bidirectional overrides as escapes (``\x1b``, ``\u202e``).

    Text from the input (rater names, group keys, labels) reaches terminals and
    documents; an escape sequence there could recolour or rewrite the screen, and a
    right-to-left override could make ``evil.exe`` read as ``exe.live``.

    Parameters
    ----------
    text : str
        Any text.
    newlines : bool, default False
        Keep line feeds (for messages of several lines).

    Returns
    -------
    str
        ``text`` with every such character written as a visible escape.

    Examples
    --------
    >>> visible("ana\x1b[31m")
    'ana\\x1b[31m'
    """
    if newlines:
        return "\n".join(_UNSEEN.sub(_escape, line) for line in text.split("\n"))
    return _UNSEEN.sub(_escape, text)


_REGISTERED: set[int] = set()
_FIGURES_REGISTERED: set[int] = set()

# Endpoints of the colour scales (RGB): ColorBrewer RdBu ends, and white.
_NEG = (178, 24, 43)
_POS = (33, 102, 172)
_WHITE = (255, 255, 255)
_MISSING = "background-color: #e6e6e6; color: #555555"


def is_matrix(frame: Any) -> bool:
    attrs = getattr(frame, "attrs", None)
    return (
        isinstance(attrs, dict)
        and isinstance(attrs.get(MARK), dict)
        and (attrs[MARK].get("kind") == "matrix")
    )


def _blend(low: tuple[int, int, int], high: tuple[int, int, int], t: float) -> str:
    t = min(max(t, 0.0), 1.0)
    rgb = [round(a + (b - a) * t) for a, b in zip(low, high, strict=True)]
    luminance = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    text = "#ffffff" if luminance < 140 else "#111111"
    return f"background-color: #{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x}; color: {text}"


def cell_style(value: Any, stat: str, top: float = 1.0) -> str:
    """CSS for one cell of a matrix of ``stat``."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return ""
    if math.isnan(v):
        return _MISSING
    if stat == "kappa":
        return _blend(_WHITE, _POS, v) if v >= 0 else _blend(_WHITE, _NEG, -v)
    if stat == "n":
        return _blend(_WHITE, _POS, v / top if top > 0 else 0.0)
    return _blend(_WHITE, _POS, v)


#: ColorBrewer Reds, reversed, at 0, 1/4, 1/2, 3/4 and 1 (the heatmaps' kappa scale), and
#: the dark purple of kappa below 0.
_ALARM_STOPS = ((103, 0, 13), (203, 24, 29), (251, 107, 75), (252, 188, 162), (255, 245, 240))
_BELOW_ZERO = (45, 0, 75)


def alarm_style(value: Any) -> str:
    """CSS for a kappa cell on the heatmaps' scale: low dark red, high pale, below 0 purple.

    The HTML report colours its tables with it, so that a table and a picture read alike:
    the eye goes to the saturated cells, which are the low ones.
    """
    try:
        v = float(value)
    except (TypeError, ValueError):
        return ""
    if math.isnan(v):
        return _MISSING
    if v < 0:
        return _blend(_BELOW_ZERO, _BELOW_ZERO, 0.0)
    position = min(v, 1.0) * (len(_ALARM_STOPS) - 1)
    low = min(int(position), len(_ALARM_STOPS) - 2)
    return _blend(_ALARM_STOPS[low], _ALARM_STOPS[low + 1], position - low)


def matrix_styler(frame: Any, stat: str | None = None) -> Any:
    """Style a rater matrix as a coloured pandas ``Styler`` (needs jinja2, as pandas does)."""
    if stat is None:
        stat = frame.attrs.get(MARK, {}).get("stat", "kappa") if is_matrix(frame) else "kappa"
    numeric = frame.select_dtypes("number")
    top = float(numeric.max().max()) if stat == "n" and numeric.size else 1.0
    styler = frame.style
    columns = list(numeric.columns)
    styler = styler.map(lambda v: cell_style(v, stat, top), subset=columns)
    if stat == "n":
        styler = styler.format("{:d}", subset=columns, na_rep="n/a")
    else:
        styler = styler.format("{:.2f}", subset=columns, na_rep="n/a")
    caption = {
        "kappa": "Cohen's kappa",
        "p_o": "observed agreement p_o",
        "p_e": "chance agreement p_e",
        "n": "items rated by both",
    }.get(stat, stat)
    return styler.set_caption(caption).set_table_styles(
        [
            {"selector": "td", "props": "text-align: right; padding: 0.2em 0.6em"},
            {"selector": "caption", "props": "caption-side: top; text-align: left"},
        ],
        overwrite=False,
    )


def _printer(previous: Any) -> Any:
    def html(frame: Any) -> str | None:
        if is_matrix(frame):
            try:
                return str(matrix_styler(frame).to_html())
            except ImportError:  # jinja2 missing: plain table
                pass
        if previous is not None:
            return previous(frame)
        method = getattr(frame, "_repr_html_", None)
        return method() if method is not None else None

    return html


def register_formatter() -> bool:
    """Register the DataFrame HTML formatter with the running IPython, once; False if none.

    A formatter registered earlier for DataFrames (by another library) keeps serving
    every frame that is not a kappaframe matrix.
    """

    def install(formatter: Any) -> None:
        import pandas as pd

        previous = formatter.lookup_by_type(pd.DataFrame) if pd.DataFrame in formatter else None
        formatter.for_type(pd.DataFrame, _printer(previous))

    return _register("text/html", _REGISTERED, install)


def _register(mime: str, registered: set[int], install: Callable[[Any], None]) -> bool:
    """Call ``install`` on the running IPython's ``mime`` formatter, once per shell."""
    ipython_mod = sys.modules.get("IPython")
    get_ipython = getattr(ipython_mod, "get_ipython", None) if ipython_mod else None
    shell = get_ipython() if get_ipython is not None else None
    if shell is None:
        return False
    if id(shell) in registered:
        return True
    formatter = shell.display_formatter.formatters.get(mime)
    if formatter is None:
        return False
    install(formatter)
    registered.add(id(shell))
    return True


def register_figure_formatter() -> bool:
    """Let the running IPython show matplotlib figures as PNG (once; False if no IPython)."""

    def install(formatter: Any) -> None:
        from matplotlib.figure import Figure

        if Figure not in formatter:
            from IPython.core.pylabtools import print_figure

            formatter.for_type(Figure, lambda fig: print_figure(fig, "png"))

    return _register("image/png", _FIGURES_REGISTERED, install)

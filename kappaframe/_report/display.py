"""Notebook display of results: coloured tables, with no extra call.

The pandas results of ``kappaframe.matrix``, ``kappaframe.pairwise``,
``kappaframe.overall`` and ``kappaframe.raters`` are plain DataFrames whose
``attrs`` carry a mark (``{"kappaframe": {"kind": "matrix", "stat": ...}}``,
``{"kind": "pairwise"}``, ...). When IPython is running, importing kappaframe registers
an HTML formatter for DataFrames with IPython's display system: frames carrying a mark
render as a pandas ``Styler`` (``styler``); every other frame renders exactly as
before (its own ``_repr_html_``). Nothing is subclassed, so a result compares, pickles
and concatenates like any DataFrame. To see the plain table,
``del res.attrs["kappaframe"]`` or call ``display(res.style.clear())``.

- A matrix: every value coloured, two decimals (as the heatmap writes them); the
  diagonal (each rater with themself) hatched and greyed instead of coloured.
- A tidy result: three decimals, p-values below 0.001 as ``<0.001``, and colour on the
  one column that carries the finding: ``kappa`` (pairs), ``value`` (overall),
  ``mean_kappa`` (raters). With both a p-value and an interval, a caption says they
  come from different standard errors (``se_note``).

The colours are those of the heatmaps, from ``kappaframe._report.colours`` (no
matplotlib needed). Missing values show as "n/a".

Figures from ``kappaframe.heatmap`` and ``kappaframe.confusion_plot`` are built
without pyplot (no global state, no double display). So that a returned figure shows as
the cell's value in a notebook even before ``%matplotlib inline`` or ``import
matplotlib.pyplot``, drawing one registers IPython's own PNG printer for matplotlib
figures, unless a printer for them is already registered (``%matplotlib inline`` does).
"""

from __future__ import annotations

import functools
import html
import math
import re
import sys
from collections.abc import Callable
from typing import Any

from .._schema import MARK
from . import colours

__all__ = [
    "P_VALUE_COLUMNS",
    "RESULTS",
    "is_matrix",
    "kind_of",
    "matrix_styler",
    "number_text",
    "p_value_text",
    "register_figure_formatter",
    "register_formatter",
    "result_styler",
    "se_note",
    "styler",
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

#: The kinds of results shown as coloured tables, with the columns each must still have
#: (a result reshaped into something else shows plainly) and the one column coloured.
RESULTS: dict[str, tuple[tuple[str, ...], str]] = {
    "pairwise": (("rater_a", "rater_b", "kappa"), "kappa"),
    "overall": (("method", "value"), "value"),
    "raters": (("rater", "mean_kappa"), "mean_kappa"),
}

#: Columns of probabilities shown as ``<0.001`` below 0.001 (not a misleading ``0.000``).
P_VALUE_COLUMNS = ("p_value",)

_CAPTIONS = {
    "kappa": "Cohen's kappa",
    "p_o": "observed agreement p_o",
    "p_e": "chance agreement p_e",
    "n": "items rated by both",
}


def kind_of(frame: Any) -> str | None:
    """What a pandas result is, from its mark: ``"matrix"``, ``"pairwise"``, ... or None.

    None also when the frame no longer has the columns of its kind (a selection or a
    reshape kept the mark but not the table).
    """
    attrs = getattr(frame, "attrs", None)
    mark = attrs.get(MARK) if isinstance(attrs, dict) else None
    kind = mark.get("kind") if isinstance(mark, dict) else None
    if kind == "matrix":
        return kind
    if kind in RESULTS and set(RESULTS[kind][0]) <= set(getattr(frame, "columns", ())):
        return str(kind)
    return None


def is_matrix(frame: Any) -> bool:
    return kind_of(frame) == "matrix"


def p_value_text(value: Any) -> str:
    """A p-value as shown to people: three decimals, ``<0.001`` below 0.001, "" if missing."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return "" if value is None else str(value)
    if math.isnan(v):
        return ""
    return "<0.001" if v < 0.001 else f"{v:.3f}"


def number_text(value: float, digits: int, bar: float | None = None) -> str:
    """``value`` with ``digits`` decimals, or more where fewer would misplace it against ``bar``.

    A value below ``bar`` never reads as at or above it (0.196 against a bar of 0.2 is
    written "0.196", not "0.20"), and a value at or above it never reads as below: what
    is outlined as failing reads as failing.

    Examples
    --------
    >>> number_text(0.196, 2), number_text(0.196, 2, bar=0.2), number_text(0.204, 2, bar=0.2)
    ('0.20', '0.196', '0.20')
    """
    text = f"{value:.{digits}f}"
    if bar is None or not math.isfinite(value):
        return text
    below = value < bar
    while (float(text) < bar) != below and digits < 17:
        digits += 1
        text = f"{value:.{digits}f}"
    return text if (float(text) < bar) == below else repr(float(value))


def _diagonal(frame: Any) -> Any:
    """Mask of the cells of a rater matrix that pair a rater with themself."""
    import numpy as np

    rows = frame.index.get_level_values(-1)
    return np.equal.outer(np.asarray(rows, dtype=object), np.asarray(frame.columns, dtype=object))


def matrix_styler(frame: Any, stat: str | None = None) -> Any:
    """Style a rater matrix as a coloured pandas ``Styler`` (needs jinja2, as pandas does).

    Colours from ``kappaframe._report.colours`` (the heatmaps' scale); two decimals;
    the diagonal (each rater with themself) hatched and greyed, not coloured, except
    for ``stat="n"`` (the items each rater labelled); undefined values "n/a" on grey.
    """
    import numpy as np
    import pandas as pd

    if stat is None:
        stat = frame.attrs.get(MARK, {}).get("stat", "kappa") if is_matrix(frame) else "kappa"
    numeric = frame.select_dtypes("number")
    top = float(np.nanmax(numeric.to_numpy(dtype=float))) if stat == "n" and numeric.size else 1.0
    columns = list(numeric.columns)
    diagonal = _diagonal(frame) if stat != "n" else np.zeros(frame.shape, dtype=bool)
    muted = pd.DataFrame(diagonal, index=frame.index, columns=frame.columns)

    def styles(block: Any) -> Any:
        out = block.map(lambda v: colours.css(v, stat, top))
        return out.mask(muted.loc[block.index, block.columns].to_numpy(), colours.DIAGONAL_CSS)

    whole = all(pd.api.types.is_integer_dtype(numeric[c]) for c in columns)
    digits = 0 if stat == "n" and whole else 2
    styler = _labels(frame.style.apply(styles, axis=None, subset=columns))
    styler = styler.format(lambda v: _number(v, digits), subset=columns)
    return _table_styles(styler.set_caption(_CAPTIONS.get(stat, stat)))


def result_styler(frame: Any, kind: str | None = None) -> Any:
    """Style a tidy result (``pairwise``, ``overall``, ``raters``) as a pandas ``Styler``.

    Numbers with three decimals, p-values below 0.001 as ``<0.001``, missing values as
    "n/a", and colour on the one column that carries the finding (``kappa``, ``value``,
    ``mean_kappa``), on the heatmaps' scale. With both a p-value and an interval, a
    caption says that they come from different standard errors (``se_note``).
    """
    import pandas as pd

    kind = kind or kind_of(frame) or "pairwise"
    coloured = RESULTS[kind][1]
    styler = _labels(frame.style)
    for column in frame.columns:
        shown: Callable[[Any], str]
        if column in P_VALUE_COLUMNS:
            shown = _p_value_cell
        elif pd.api.types.is_float_dtype(frame[column]):
            shown = functools.partial(_number, digits=3)
        else:
            shown = _text
        styler = styler.format(shown, subset=[column])
    if coloured in frame.columns:
        styler = styler.map(colours.css, subset=[coloured])
    note = se_note(frame)
    if note:
        styler = styler.set_caption(html.escape(note))
    return _table_styles(styler)


def _p_value_cell(value: Any) -> str:
    return html.escape(p_value_text(value) or "n/a")


def _number(value: Any, digits: int) -> str:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return _text(value)
    return "n/a" if math.isnan(v) else f"{v:.{digits}f}"


def _text(value: Any) -> str:
    """A cell that is not a float, for HTML: escaped, controls shown, missing as "n/a"."""
    if value is None or value is _missing() or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return html.escape(visible(str(value)))


def _missing() -> Any:
    import pandas as pd

    return pd.NA


def _labels(styler: Any) -> Any:
    """Index and column labels (rater names, group keys) escaped for HTML."""
    return styler.format_index(_text, axis=0).format_index(_text, axis=1)


def se_note(frame: Any) -> str:
    """The note for a table with a p-value and an interval from different standard errors.

    ``p_value`` (and ``z``) test a coefficient of 0 with ``se0``, the standard error
    under that null; ``ci_low`` and ``ci_high`` use ``se``, the standard error around the
    estimate (or the bootstrap). "" when the table does not have both.
    """
    columns = set(getattr(frame, "columns", ()))
    if not {"p_value", "ci_low", "ci_high"} <= columns:
        return ""
    return (
        "p_value tests agreement = 0 with se0, the standard error under that null; "
        "ci_low to ci_high uses se, the standard error around the estimate (or the "
        "bootstrap). They can disagree near the edge: an interval that reaches 0 beside "
        "a small p-value, or the reverse."
    )


def styler(frame: Any) -> Any:
    """The coloured ``Styler`` of a marked result (matrix or tidy), as a notebook shows it."""
    kind = kind_of(frame)
    if kind == "matrix":
        return matrix_styler(frame)
    return result_styler(frame, kind)


def _table_styles(styler: Any) -> Any:
    return styler.set_table_styles(
        [
            {"selector": "td", "props": "text-align: right; padding: 0.2em 0.6em"},
            {"selector": "caption", "props": "caption-side: top; text-align: left"},
        ],
        overwrite=False,
    )


def _printer(previous: Any) -> Any:
    def html(frame: Any) -> str | None:
        if kind_of(frame) is not None:
            try:
                return _styled_html(frame)
            except ImportError:  # jinja2 missing: plain table
                pass
        if previous is not None:
            return previous(frame)
        method = getattr(frame, "_repr_html_", None)
        return method() if method is not None else None

    return html


def _styled_html(frame: Any) -> str:
    """The styled table, cut to ``display.max_rows`` rows as pandas cuts its own display."""
    import pandas as pd

    limit = pd.get_option("display.max_rows")
    rows = limit if limit and len(frame) > limit else None
    return str(styler(frame).to_html(max_rows=rows))


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

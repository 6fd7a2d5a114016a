"""The report behind ``kappaframe report``: render a result for people, write it atomically.

- Input files are read by ``kappaframe._io.read.read_input`` (the one place), and
  outputs written by ``kappaframe._io.write.write_atomic``.
- ``render_text``, ``render_markdown`` and ``render_html`` turn a tidy
  pairwise result (plus, for the richer formats, the input) into text. The HTML is one
  self-contained file: inline CSS and inline SVG pictures, no script, no network.
"""

from __future__ import annotations

import html
import io
import json
import math
import os
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._api.pairwise import confusion, confusion_counts, matrix, matrix_squares
from .._api.raters import raters
from .._api.settings.reading import ReadSpec
from .._errors import KappaFrameError, quiet_undefined
from .._io.formats import TABLE_FORMATS
from .._io.read import Progress
from .._io.write import table_bytes, write_atomic
from .._stats.scales import MIN_ITEMS, SCALES, TOO_FEW_ITEMS, Scale, resolve_scale
from .._version import __version__
from . import colours
from .display import P_VALUE_COLUMNS, number_text, p_value_text, se_note, visible
from .plots import confusion_plot, grid, squares_figure, stat_label

__all__ = [
    "COLOURED",
    "ORDER_NOTE",
    "PRINTED_FIGURE",
    "STATE_CSS",
    "Report",
    "baseline_note",
    "order_note",
    "provenance_html",
    "render_html",
    "render_markdown",
    "render_text",
    "too_few_note",
    "worst_first",
    "write_report",
]


# --------------------------------------------------------------------------- progress


# --------------------------------------------------------------------------- input


# --------------------------------------------------------------------------- output


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """Categoricals as strings (what CSV, JSON and Parquet readers expect back)."""
    out = frame.copy()
    for col in out.columns:
        if isinstance(out[col].dtype, pd.CategoricalDtype):
            out[col] = out[col].astype(object).where(out[col].notna(), None)
    return out


#: The HTML report draws the kappa matrix of at most this many groups (``--heatmaps``).
MAX_GROUP_HEATMAPS = 24


@dataclass
class Report:
    """What the richer formats (markdown, HTML) show, besides the tidy table."""

    tidy: pd.DataFrame
    data: pd.DataFrame | None = None
    source: str = ""
    raters: list[Hashable] | None = None
    by: list[Hashable] = field(default_factory=list)
    item: Hashable | None = None
    rater: Hashable | None = None
    label: Hashable | None = None
    weights: str | None = None
    categories: list[Any] | None = None
    duplicates: str = "raise"
    fail_under: float | None = None
    fail_on: str = "kappa"
    progress: bool | None = None
    max_heatmaps: int = MAX_GROUP_HEATMAPS
    ci: float | None = None
    created: datetime | None = None
    #: The ``min_items`` the tidy table was made with (rows on fewer items have no band).
    min_items: int | None = MIN_ITEMS
    #: The interpretation bands of the tidy table (``scale=``); None: the built-in scale
    #: whose band names the ``interpretation`` column holds (none if no such scale).
    scale: str | Scale | None = None
    #: ``--baseline``: the earlier table's name, the ``--max-drop``, and how many rows of
    #: the compared table are in each state (``kappaframe.against_baseline``).
    baseline: str | None = None
    max_drop: float | None = None
    baseline_states: dict[str, int] | None = None

    @property
    def long(self) -> bool:
        return self.item is not None

    def options(self) -> dict[str, Any]:
        """The arguments that read ``data`` as ``kappaframe.pairwise`` did."""
        return {
            "item": self.item,
            "rater": self.rater,
            "label": self.label,
            "by": self.by or None,
            "weights": self.weights,
            "categories": self.categories,
            "duplicates": self.duplicates,
        }

    def below(self) -> np.ndarray | None:
        """Mask of the tidy rows whose ``fail_on`` value is below ``fail_under`` (if set)."""
        if self.fail_under is None or self.fail_on not in self.tidy:
            return None
        return (self.tidy[self.fail_on] < self.fail_under).to_numpy()

    def bands(self) -> Scale | None:
        """The interpretation bands of the tidy table, to show in the colour key."""
        if self.scale is not None:
            return resolve_scale(self.scale)
        column = self.tidy.get("interpretation")
        if column is None or not isinstance(column.dtype, pd.CategoricalDtype):
            return None
        names = tuple(c for c in column.cat.categories if c != TOO_FEW_ITEMS)
        found = [scale for scale in SCALES.values() if scale.labels == names]
        return found[0] if len(found) == 1 else None

    def kappa_name(self) -> str:
        """The kappa of this report with its weighting: "kappa", "linear-weighted kappa"."""
        return "kappa" if self.weights is None else stat_label("kappa", self.weights)

    def nothing_to_show(self) -> str | None:
        """One sentence saying why there is nothing to show, or None when there is."""
        tidy = self.tidy
        if self.data is not None and len(self.data) == 0:
            return "Nothing to show: the input has no rows."
        if not len(tidy):
            return "Nothing to show: there is no pair of raters to compare."
        if "n" in tidy and not (tidy["n"] > 0).any():
            return "Nothing to show: no two raters labelled the same item."
        return None

    def settings(self) -> list[tuple[str, str]]:
        """The options the report was made with, as (name, value) for people."""
        out = []
        if self.long:
            out.append(
                (
                    "layout",
                    f"long (item {self.item}, rater {self.rater}, label {self.label})",
                )
            )
            if self.raters:
                out.append(("raters", ", ".join(str(r) for r in self.raters)))
        else:
            raters = self.raters if self.raters else "every column not in by"
            shown = raters if isinstance(raters, str) else ", ".join(str(r) for r in raters)
            out.append(("layout", f"wide (raters {shown})"))
        out.append(("by", ", ".join(str(b) for b in self.by) if self.by else "none"))
        weights = (
            self.weights if self.weights is None or isinstance(self.weights, str) else "custom"
        )
        out.append(("weights", weights or "none"))
        cats = self.categories
        out.append(
            ("categories", ", ".join(str(c) for c in cats) if cats else "from the data, sorted")
        )
        out.append(("ci", f"{self.ci:g}" if self.ci is not None else "none"))
        if self.fail_under is None:
            out.append(("fail-under", "none"))
        else:
            out.append(("fail-under", f"{self.fail_under:g} (on {self.fail_on})"))
        out.append(("min-items", str(self.min_items) if self.min_items else "none"))
        if self.baseline is not None:
            out.append(("baseline", f"{self.baseline} (max-drop {self.max_drop:g})"))
        return out

    def baseline_summary(self) -> str | None:
        """The states against the baseline in one line ("2 dropped, 7 ok"), or None."""
        if self.baseline is None or self.baseline_states is None:
            return None
        found = [f"{n} {state}" for state, n in self.baseline_states.items() if n]
        level = f"{self.ci * 100:g}%" if self.ci is not None else "the"
        return (
            f"{self.baseline}: {', '.join(found) or 'no rows'} (a drop larger than "
            f"{self.max_drop:g} against {level} intervals of the change)"
        )

    def rater_names(self) -> list[Any]:
        """The raters of the tidy table, in order of appearance."""
        tidy = self.tidy
        return list(dict.fromkeys([*tidy["rater_a"], *tidy["rater_b"]])) if len(tidy) else []


#: Characters that make a spreadsheet read a text cell as a formula (or hide it).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """Prefix ``'`` to text cells (and names) that a spreadsheet would run as a formula.

    A text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
    (OWASP's CSV injection list) gets a leading single quote, which spreadsheets show
    as text. Number columns are left as they are (``-0.2`` stays a number).

    Parameters
    ----------
    frame : pandas.DataFrame

    Returns
    -------
    pandas.DataFrame
        A copy, with such text cells and column names quoted.
    """

    def safe(value: Any) -> Any:
        if isinstance(value, str) and value.startswith(FORMULA_STARTS):
            return "'" + value
        return value

    out = frame.copy()
    for col in out.columns:
        column = out[col]
        if column.dtype == object or pd.api.types.is_string_dtype(column.dtype):
            out[col] = column.astype(object).map(safe)
    out.columns = [safe(str(c)) if isinstance(c, str) else c for c in out.columns]
    return out


def write_report(
    report: Report, fmt: str, output: str | os.PathLike[str] | None, *, raw: bool = False
) -> str | None:
    """Write ``report`` in ``fmt`` to ``output`` (atomically), or return the text for stdout.

    CSV text cells starting like a formula are quoted for spreadsheets
    (``spreadsheet_safe``) unless ``raw``; the other data formats (JSON, JSON lines,
    Parquet) are always exact: every float reads back as the same float.
    """
    tidy = report.tidy
    if fmt in TABLE_FORMATS:  # the data itself, by the one writer of each table format
        if fmt == "parquet" and output is None:
            raise KappaFrameError("parquet is binary: name a file with --output.")
        table = _plain(tidy)
        if fmt in ("csv", "tsv") and not raw:
            table = spreadsheet_safe(table)
        data = table_bytes(table, fmt)
        if output is None:
            return data.decode("utf-8")

        def write_data(tmp: Path) -> None:
            tmp.write_bytes(data)

        write_atomic(output, write_data)
        return None
    if fmt == "markdown":
        text = render_markdown(report)
    elif fmt == "html":
        text = render_html(report)
    else:
        text = render_text(tidy)
    if output is None:
        return text

    def write_text(tmp: Path) -> None:
        tmp.write_text(text, encoding="utf-8")

    write_atomic(output, write_text)
    return None


# --------------------------------------------------------------------------- text


def _cell(value: Any, digits: int = 3) -> str:
    """One value as shown to people: controls and bidirectional overrides escaped."""
    return visible(_plain_cell(value, digits))


def _shown(frame: pd.DataFrame) -> pd.DataFrame:
    """The cells as shown to people: missing as None, tiny p-values as ``<0.001``."""
    shown = frame.astype(object).where(frame.notna(), None)
    for column in P_VALUE_COLUMNS:
        if column in frame.columns and pd.api.types.is_numeric_dtype(frame[column]):
            values = frame[column].to_numpy(dtype=float, na_value=np.nan)
            shown[column] = [p_value_text(v) or None for v in values]
    return shown


def _plain_cell(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.{digits}f}"
    return str(value)


def too_few_note(frame: pd.DataFrame, min_items: int | None = MIN_ITEMS) -> str:
    """The line that explains the rows interpreted as "too few items" (or "" if none).

    Parameters
    ----------
    frame : pandas.DataFrame
        A result with an ``interpretation`` column (pairs, overall, per category).
    min_items : int or None, default 10
        The ``min_items`` the result was made with.

    Returns
    -------
    str
    """
    if "interpretation" not in frame.columns:
        return ""
    few = int((frame["interpretation"].astype(object) == TOO_FEW_ITEMS).sum())
    if not few:
        return ""
    count = "n" if "n" in frame.columns else "n_items"
    value = "kappa" if "kappa" in frame.columns else "value"
    minimum = f"fewer than {min_items} items" if min_items else "too few items"
    rows = "1 row rests" if few == 1 else f"{few} rows rest"
    return (
        f"{TOO_FEW_ITEMS}: {rows} on {minimum} ({count}): the {value} is shown, but no "
        "band. --min-items sets the minimum (0: every row gets its band)."
    )


def baseline_note(frame: pd.DataFrame, max_drop: float | None) -> str:
    """The line that explains the ``state`` column of a table compared with a baseline.

    "" when the table has no ``state`` column (it was not compared).
    """
    if "state" not in frame.columns or max_drop is None:
        return ""
    d = f"{max_drop:g}"
    return (
        f"state against the baseline: dropped, the change's interval lies wholly below -{d} "
        f"(agreement fell by more than {d}); ok, none of it does; inconclusive, it reaches "
        f"both sides of -{d} (too few items to tell); new or missing, the row is in this "
        "run or in the baseline only; undefined, a value or standard error is missing."
    )


def render_text(frame: pd.DataFrame, *, min_items: int | None = MIN_ITEMS) -> str:
    """Format a readable fixed-width table (floats to 3 decimals) for a terminal.

    Rows interpreted as "too few items" get a line under the table saying why
    (``too_few_note``; ``min_items`` is the minimum the table was made with).
    """
    if frame.empty:
        return "(no rows)\n"
    shown = _shown(frame)
    cells = [[_cell(v) for v in row] for row in shown.itertuples(index=False, name=None)]
    header = [visible(str(c)) for c in frame.columns]
    widths = [max(len(h), *(len(r[j]) for r in cells)) for j, h in enumerate(header)]
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]

    def line(values: list[str]) -> str:
        parts = [
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    rows = [line(header), line(["-" * w for w in widths])]
    rows += [line(r) for r in cells]
    note = too_few_note(frame, min_items)
    return "\n".join([*rows, *([visible(note)] if note else [])]) + "\n"


def md(text: Any) -> str:
    """Escape text from the data for Markdown: no HTML, no table breaks, one line.

    ``&``, ``<`` and ``>`` become entities (no raw HTML reaches the page), backslash and
    ``|`` are backslash-escaped (a cell stays one cell), line breaks become spaces (a
    row stays one row), and controls and bidirectional overrides show as escapes.
    """
    one_line = str(text).replace("\r\n", " ").replace("\r", " ").replace("\n", " ")
    shown = visible(one_line).replace("\\", "\\\\").replace("|", "\\|")
    return shown.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _markdown_table(frame: pd.DataFrame) -> str:
    header = [md(c) for c in frame.columns]
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join("---:" if n else ":---" for n in numeric) + "|")
    shown = _shown(frame)
    for row in shown.itertuples(index=False, name=None):
        lines.append("| " + " | ".join(md(_plain_cell(v)) for v in row) + " |")
    return "\n".join(lines) + "\n"


def _describe(report: Report) -> list[tuple[str, str]]:
    tidy = report.tidy
    facts = [("input", report.source or "(frame)")]
    if report.data is not None:
        facts.append(("rows read", f"{len(report.data):,}"))
    if report.long:
        facts.append(
            (
                "layout",
                f"long: item {report.item!r}, rater {report.rater!r}, label {report.label!r}",
            )
        )
    names = report.rater_names()
    if names:
        facts.append(("raters", ", ".join(str(r) for r in names)))
    if report.by:
        facts.append(("groups", ", ".join(str(b) for b in report.by)))
    facts.append(("weights", report.weights or "none (plain kappa)"))
    if report.categories:
        facts.append(("categories", ", ".join(str(c) for c in report.categories)))
    facts.append(("pairs", f"{len(tidy):,} rows"))
    worst = _worst_row(tidy)
    if worst is not None:
        facts.append(("lowest kappa", _pair_name(tidy.loc[worst], report.by, report.weights)))
    summary = report.baseline_summary()
    if summary is not None:
        facts.append(("baseline", summary))
    below = report.below()
    if below is not None:
        facts.append(
            (
                "fail-under",
                f"{int(below.sum())} of {len(tidy)} rows with {report.fail_on} below "
                f"{report.fail_under:g}",
            )
        )
    return facts


def _worst_row(tidy: pd.DataFrame) -> Any:
    if "kappa" not in tidy or not tidy["kappa"].notna().any():
        return None
    return tidy["kappa"].idxmin()


def _pair_name(row: Any, by: Sequence[Hashable], weights: Any = None) -> str:
    where = ", ".join(f"{b} = {row[b]}" for b in by)
    name = "kappa" if weights is None else stat_label("kappa", weights)
    text = f"{row['rater_a']} vs {row['rater_b']}: {name} {float(row['kappa']):.3f}"
    return f"{text} ({where})" if where else text


def render_markdown(report: Report) -> str:
    """Render Markdown: the facts, the tidy table, the rater summary, the worst pair."""
    parts = ["# Agreement report", ""]
    parts += [f"- **{md(k)}**: {md(v)}" for k, v in _describe(report)]
    nothing = report.nothing_to_show()
    if nothing is not None:
        return "\n".join([*parts, "", nothing, "", _made(report), ""])
    notes = [too_few_note(report.tidy, report.min_items)]
    notes.append(baseline_note(report.tidy, report.max_drop))
    parts += ["", "## Pairs", ""]
    parts += [line for note in notes if note for line in (md(note), "")]
    parts.append(_markdown_table(report.tidy))
    summary = rater_summary(report)
    if summary is not None and len(summary):
        parts += ["## Raters", "", _markdown_table(summary)]
    worst = worst_pair_confusion(report)
    if worst is not None:
        title, table = worst
        parts += [f"## Lowest kappa: {md(title)}", "", _markdown_table(table.reset_index())]
    parts += ["", md(_made(report)), ""]
    return "\n".join(parts)


def _provenance(report: Report) -> tuple[datetime, str, str, str]:
    """When (UTC), as text, from what and with which options the report was made."""
    now = report.created or datetime.now(timezone.utc).replace(microsecond=0)
    created = now.astimezone(timezone.utc)
    when = created.strftime("%Y-%m-%d %H:%M:%S UTC")
    options = "; ".join(f"{k}: {v}" for k, v in report.settings())
    return created, when, report.source or "a data frame", options


def _made(report: Report) -> str:
    """When, from what and with which options the report was made, in one paragraph."""
    _, when, source, options = _provenance(report)
    return f"Made by kappaframe {__version__} on {when} from {source}. Options: {options}."


def _legend(report: Report) -> str:
    """The sentence that explains the marked rows of the pairs table (or "")."""
    below = report.below()
    if below is None:
        return ""
    return (
        f"Rows whose {report.fail_on} is below --fail-under {report.fail_under:g} are "
        f"marked with a black edge ({int(below.sum())} of {len(below)} rows)."
    )


# --------------------------------------------------------------------------- pieces


def rater_summary(report: Report) -> pd.DataFrame | None:
    """Summarise each rater (per group) with ``kappaframe.raters``.

    Without the input rows (a streamed report), ``summary_from_tidy`` reads a
    shorter summary off the tidy table.
    """
    if report.data is None:
        return summary_from_tidy(report)
    return raters(report.data, report.raters, **report.options())


def summary_from_tidy(report: Report) -> pd.DataFrame | None:
    """Summarise each rater (per group) from the tidy table: pairs, mean and lowest kappa.

    Nothing is recomputed: each rater's kappas against every other rater of the same
    group, as the tidy table gives them.
    """
    tidy = report.tidy
    if not len(tidy) or "kappa" not in tidy:
        return None
    by = list(report.by)
    keys = tidy[by].astype(object).where(tidy[by].notna(), None) if by else None
    rows: dict[tuple[Any, ...], dict[str, Any]] = {}
    records = zip(
        keys.itertuples(index=False, name=None) if keys is not None else [()] * len(tidy),
        tidy["rater_a"],
        tidy["rater_b"],
        tidy["kappa"].to_numpy(dtype=float),
        strict=True,
    )
    for key, a, b, k in records:
        for me, other in ((a, b), (b, a)):
            row = rows.setdefault((*key, me), {"kappas": [], "partners": []})
            row["kappas"].append(k)
            row["partners"].append(other)
    out = []
    for key, row in rows.items():
        kappas = np.asarray(row["kappas"])
        defined = ~np.isnan(kappas)
        lowest = int(np.nanargmin(kappas)) if defined.any() else None
        out.append(
            {
                **dict(zip([*by, "rater"], key, strict=True)),
                "pairs": len(kappas),
                "mean_kappa": float(kappas[defined].mean()) if defined.any() else np.nan,
                "min_kappa": float(kappas[lowest]) if lowest is not None else np.nan,
                "lowest_with": row["partners"][lowest] if lowest is not None else None,
            }
        )
    return pd.DataFrame(out)


def _worst_pair(report: Report) -> tuple[pd.Series, pd.DataFrame, pd.DataFrame] | None:
    """The tidy row of lowest kappa, its two raters' labels within its group, their counts."""
    worst = _worst_row(report.tidy)
    data = report.data
    if worst is None or data is None:
        return None
    row = report.tidy.loc[worst]
    mask = np.ones(len(data), dtype=bool)
    for b in report.by:
        value = row[b]
        column = data[b]
        mask &= column.isna().to_numpy() if pd.isna(value) else (column == value).to_numpy()
    a, b = row["rater_a"], row["rater_b"]
    pair = _pair_frame(report, data[mask], a, b)
    return row, pair, confusion(pair, a, b, categories=report.categories)


def _pair_frame(report: Report, subset: pd.DataFrame, a: Any, b: Any) -> pd.DataFrame:
    """Select the two raters' columns (the long layout pivoted for these two only)."""
    if not report.long:
        return subset[[a, b]]
    keys = [*report.by, report.item]
    two = subset[subset[report.rater].isin([a, b])]
    if report.duplicates in ("first", "last"):
        two = two.drop_duplicates([*keys, report.rater], keep=report.duplicates)
    wide = two.pivot(index=keys, columns=report.rater, values=report.label)  # noqa: PD010
    return wide.reindex(columns=[a, b]).reset_index(drop=True)


def worst_pair_confusion(report: Report) -> tuple[str, pd.DataFrame] | None:
    """Title and K x K counts of the pair with the lowest kappa, within its group."""
    found = _worst_pair(report)
    if found is None:
        return None
    row, _, table = found
    return _pair_name(row, report.by, report.weights), table


# --------------------------------------------------------------------------- html


def _h(text: str) -> str:
    """Text from the data for HTML: escaped, with controls and overrides shown as escapes."""
    return html.escape(visible(text))


#: The HTML report draws rater x rater matrices up to this many raters (crowds get none).
MAX_MATRIX_RATERS = 40

#: The largest picture in the report, in inches: what a printed A4 or Letter page holds
#: between margins of 12 mm, so that its text prints at the size it was drawn.
PRINTED_FIGURE = (7.2, 9.0)

#: The one column coloured in each table of the report: the one that carries the finding.
COLOURED = {"pairs": ("kappa",), "raters": ("mean_kappa",), "overall": ("value",)}

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: #1d1d1f; margin: 2rem auto; max-width: 1180px; padding: 0 1.2rem;
       line-height: 1.45; }
h1 { font-size: 1.7rem; margin-bottom: 0.3rem; }
h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid #ddd;
     padding-bottom: 0.25rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1.2rem;
           margin: 1rem 0; }
dl.facts dt { color: #666; } dl.facts dd { margin: 0; }
table { border-collapse: collapse; font-size: 0.88rem; margin: 0.6rem 0; }
th, td { padding: 0.22rem 0.6rem; border-bottom: 1px solid #e4e4e4; text-align: right; }
th { background: #f5f5f7; position: sticky; top: 0; vertical-align: bottom; }
th.text, td.text { text-align: left; }
td.text { overflow-wrap: break-word; }
tr.below td:first-child { box-shadow: inset 5px 0 0 OUTLINE; padding-left: 0.9rem; }
.mark { display: inline-block; width: 5px; height: 1em; background: OUTLINE;
        vertical-align: -0.15em; margin-right: 0.4rem; }
.scroll { display: inline-block; max-width: 100%; max-height: 40rem; overflow: auto;
          border: 1px solid #e4e4e4; }
figure { margin: 0; } figure svg { max-width: 100%; height: auto; }
.figures figure { display: inline-block; vertical-align: top; margin: 0 1rem 1rem 0; }
.note { color: #555; font-size: 0.9rem; }
.legend { font-size: 0.9rem; }
.key { display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; align-items: center;
       font-size: 0.85rem; margin: 0.8rem 0; }
.key .title { flex-basis: 100%; color: #555; }
.key span.band { white-space: nowrap; }
.swatch { display: inline-block; width: 2.6rem; height: 0.9rem; margin-right: 0.35rem;
          vertical-align: -0.15em; border: 1px solid #ccc; }
.swatch.outlined { border: 2px solid OUTLINE; background: #fff; }
.empty { font-size: 1.1rem; margin: 2rem 0; }
footer { margin-top: 3rem; color: #777; font-size: 0.8rem; border-top: 1px solid #ddd;
         padding-top: 0.5rem; }
footer p { margin: 0.2rem 0; }
* { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
@page { margin: 12mm; }
@media print {
  body { margin: 0; max-width: none; padding: 0; font-size: 9pt; line-height: 1.3; }
  h1 { font-size: 16pt; margin: 0 0 4pt; }
  h2 { font-size: 12pt; margin: 14pt 0 4pt; }
  table { font-size: 8pt; margin: 4pt 0; }
  th, td { padding: 1.5pt 4pt; }
  th { position: static; }
  .scroll { display: block; max-height: none; overflow: visible; border: none; }
  thead { display: table-header-group; }
  .note, .legend, .key { font-size: 8pt; }
  footer { font-size: 7.5pt; margin-top: 14pt; }
  tr, figure, dl.facts, .key, .note, .legend, footer {
    break-inside: avoid; page-break-inside: avoid; }
  h2, .keep { break-after: avoid; page-break-after: avoid; }
  .figures figure { margin: 0 8pt 8pt 0; }
}
""".replace("OUTLINE", colours.OUTLINE)


def _header(column: Any) -> str:
    """A column name for a table head, breakable after each ``_`` (narrow on paper)."""
    return _h(str(column)).replace("_", "_<wbr>")


def _html_table(
    frame: pd.DataFrame,
    *,
    colour: Sequence[str] = ("kappa",),
    below: np.ndarray | None = None,
    index: bool = False,
    bar: tuple[Hashable, float] | None = None,
    muted: np.ndarray | None = None,
) -> str:
    """An HTML table: numbers to 3 decimals, p-values ``<0.001``, text escaped.

    ``colour`` names the columns coloured on the kappa scale (``.colours``);
    ``below`` marks rows (a black edge); ``bar`` (column, value) writes that column's
    numbers with as many decimals as keep them on their side of the value
    (``kappaframe._report.display.number_text``); ``muted`` (rows x columns) greys
    and hatches cells instead of colouring them (a matrix's diagonal).
    """
    if index:
        frame = frame.reset_index()
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    head = "".join(
        f'<th class="{"num" if n else "text"}">{_header(c)}</th>'
        for c, n in zip(frame.columns, numeric, strict=True)
    )
    body = []
    shown = _shown(frame)
    for r, row in enumerate(shown.itertuples(index=False, name=None)):
        cells = []
        for j, (c, v, n) in enumerate(zip(frame.columns, row, numeric, strict=True)):
            style = ""
            if muted is not None and muted[r, j]:
                style = colours.DIAGONAL_CSS
            elif c in colour:
                style = colours.css(v)
            elif c == "state":
                style = STATE_CSS.get(str(v), "")
            text = _plain_cell(v)
            if bar is not None and c == bar[0] and isinstance(v, (float, np.floating)):
                text = number_text(float(v), 3, bar[1])
            attr = f' style="{style}"' if style else ""
            cells.append(f'<td class="{"num" if n else "text"}"{attr}>{_h(text)}</td>')
        cls = ' class="below"' if below is not None and below[r] else ""
        body.append(f"<tr{cls}>{''.join(cells)}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


#: How a ``state`` cell (a table compared with a baseline) stands out in HTML.
STATE_CSS = {
    "dropped": f"font-weight: bold; color: {colours.NODES[1][1]}",
    "inconclusive": "font-style: italic",
}


def _svg(fig: Any) -> str:
    import matplotlib as mpl

    buffer = io.StringIO()
    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "kappaframe"}):
        fig.savefig(buffer, format="svg", bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _key_html(report: Report, *, pictures: bool) -> str:
    """The page's colour key: the kappa scale band by band, and the other marks."""
    scale = report.bands()
    items = []
    if scale is not None:
        lower, upper = scale.limits()
        for low, high, name in zip(lower, upper, scale.labels, strict=True):
            if high > low:
                swatch = f'<span class="swatch" style="background: {colours.gradient(low, high)}">'
                items.append(f"{swatch}</span>{_h(name)} {low:g} to {high:g}")
    else:
        swatch = f'<span class="swatch" style="background: {colours.gradient(-1.0, 1.0)}">'
        items.append(f"{swatch}</span>-1 to 1")
    items.append(f'<span class="swatch" style="{colours.MISSING_CSS}"></span>n/a: undefined')
    if pictures:
        diagonal = colours.DIAGONAL_CSS.split(";")[0]
        items.append(f'<span class="swatch" style="{diagonal}"></span>each rater with themself')
    if report.fail_under is not None and report.fail_on == "kappa" and pictures:
        items.append(
            '<span class="swatch outlined"></span>'
            f"below --fail-under {report.fail_under:g} (pictures)"
        )
    title = (
        f"Colour of {_h(report.kappa_name())}, in tables and pictures: 0 is the agreement "
        "expected by chance (near white); above it blue, darker as agreement grows; "
        "below it red."
    )
    bands = "".join(f'<span class="band">{item}</span>' for item in items)
    return f'<div class="key"><span class="title">{title}</span>{bands}</div>'


def _heatmaps_html(report: Report) -> str:
    """One picture per group (the first ``max_heatmaps``), each as wide as a printed page."""
    read = ReadSpec.of(report.options(), raters=report.raters)
    found = matrix_squares(report.data, read, weights=report.weights)
    squares, names, titles = found.values, [str(r) for r in found.raters], found.titles
    shown_names = [visible(str(n)) for n in names]
    drawn = min(len(squares), max(report.max_heatmaps, 0))
    figures = []
    bar = report.fail_under if report.fail_on == "kappa" else None
    if drawn:
        with Progress("drawing", drawn, unit="groups", enabled=report.progress) as progress:
            for g in range(drawn):
                fig = squares_figure(
                    squares[g : g + 1],
                    shown_names,
                    [visible(titles[g])],
                    stat="kappa",
                    weights=report.weights,
                    fail_under=bar,
                    colour_bar=False,
                    limits=PRINTED_FIGURE,
                )
                label = _h(titles[g] or "all items")
                figures.append(f'<figure aria-label="kappa matrix {label}">{_svg(fig)}</figure>')
                progress.advance(1)
    outlined = (
        f"; cells below --fail-under {bar:g} are outlined in black" if bar is not None else ""
    )
    written = grid(len(names), 1, shown_names, limits=PRINTED_FIGURE).font() is not None
    values = (
        ""
        if written
        else f" With {len(names)} raters a cell is too small to write its value in; the "
        "values are in the pairs table."
    )
    key = (
        f'<p class="note keep">{_h(stat_label("kappa", report.weights))}, coloured as in the key '
        f"above; the diagonal (each rater with themself) is hatched{outlined}.{values}</p>"
    )
    note = ""
    if drawn < len(squares):
        note = (
            f'<p class="note keep heatmap-cap">{drawn} of {len(squares)} groups drawn (the first '
            f"{drawn} in table order); every group's kappas are in the pairs table above. "
            "Draw more with --heatmaps N, or one chosen group by reporting a file of that "
            "group only.</p>"
        )
    return f'{key}{note}<div class="figures">{"".join(figures)}</div>'


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ModuleNotFoundError:
        return False
    return True


def _matrix_tables_html(report: Report) -> str:
    """The kappa matrices as coloured tables, the diagonal greyed (no matplotlib)."""
    m: Any = matrix(report.data, report.raters, **report.options())
    table = m.reset_index()
    rows = np.asarray(m.index.get_level_values(-1), dtype=object)
    muted = np.zeros(table.shape, dtype=bool)
    for j, column in enumerate(table.columns):
        if column in m.columns:
            muted[:, j] = rows == column
    return _html_table(table, colour=list(m.columns), muted=muted)


def worst_first(tidy: pd.DataFrame, below: np.ndarray | None = None) -> tuple[Any, Any]:
    """The tidy rows in the order the report shows them: the lowest kappa first.

    Undefined kappas come last; rows of equal kappa keep the table's order (groups,
    then pairs). ``below`` (a mask of the rows) is reordered alike.
    """
    if "kappa" not in tidy or not len(tidy):
        return tidy, below
    kappa = tidy["kappa"].to_numpy(dtype=float, na_value=np.nan)
    order = np.argsort(np.where(np.isnan(kappa), np.inf, kappa), kind="stable")
    return tidy.iloc[order], None if below is None else below[order]


#: What the pairs table's order is, in the report.
ORDER_NOTE = (
    "Worst first: rows sorted by kappa, lowest first; undefined kappas last; equal kappas "
    "in the order of the table (group, then pair). The data formats (csv, json, parquet) "
    "keep the table order."
)


def _pairs_html(report: Report) -> str:
    """The pairs section: the marks explained, the notes, the table worst first."""
    tidy = report.tidy
    legend = _legend(report)
    html_parts = (
        [f'<p class="legend keep"><span class="mark"></span>{_h(legend)}</p>'] if legend else []
    )
    notes = {
        "order": ORDER_NOTE if "kappa" in tidy else "",
        "too-few": too_few_note(tidy, report.min_items),
        "se-note": se_note(tidy),
        "baseline-note": baseline_note(tidy, report.max_drop),
    }
    html_parts += [f'<p class="note keep {k}">{_h(v)}</p>' for k, v in notes.items() if v]
    rows, below = worst_first(tidy, report.below())
    bar = None
    if report.fail_under is not None and report.fail_on in tidy:
        bar = (report.fail_on, float(report.fail_under))
    table = _html_table(rows, colour=COLOURED["pairs"], below=below, bar=bar)
    return (
        f'<section id="pairs"><h2>Pairs</h2>{"".join(html_parts)}'
        f'<div class="scroll">{table}</div></section>'
    )


def render_html(report: Report) -> str:
    """Render one self-contained HTML page (inline CSS and SVG, no script).

    On screen a long pairs table scrolls in its box. Printed (or saved as PDF) on A4 or
    Letter, every row and column is there: the tables' headers wrap after ``_``, rows are
    not split across pages, the header repeats on each page, headings stay with what
    follows, and the pictures are drawn at most as wide as the page, so their text prints
    at the size it was drawn (7 points or more).
    """
    facts = "".join(f"<dt>{_h(k)}</dt><dd>{_h(v)}</dd>" for k, v in _describe(report))
    nothing = report.nothing_to_show()
    sections = []
    key = ""
    if nothing is not None:
        sections.append(f'<p class="empty">{_h(nothing)}</p>')
    else:
        pictures = report.data is not None and _has_matplotlib()
        key = _key_html(report, pictures=pictures)
        sections.append(_pairs_html(report))
    with quiet_undefined():  # the pairwise call already reported undefined kappas once
        if nothing is None:
            sections += _sections(report)
    title = f"Agreement report: {report.source}" if report.source else "Agreement report"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_h(title)}</title><style>{_CSS}</style></head><body>"
        f'<header><h1>Agreement report</h1><dl class="facts">{facts}</dl>{key}</header>'
        f"{''.join(sections)}"
        f"{_footer(report)}</body></html>\n"
    )


def _sections(report: Report) -> list[str]:
    """The sections after the pairs table: matrices, raters, the lowest pair."""
    sections = []
    n_raters = len(report.rater_names())
    heading = "Kappa matrix per group" if report.by else "Kappa matrix"
    if report.data is not None and n_raters > MAX_MATRIX_RATERS:
        sections.append(
            f'<section id="heatmaps"><h2>{heading}</h2><p class="note">'
            f"{n_raters} raters: too many for a rater x rater matrix (at most "
            f"{MAX_MATRIX_RATERS} are drawn); see the pairs and raters tables.</p></section>"
        )
    elif report.data is not None:
        if _has_matplotlib():
            body = _heatmaps_html(report)
            sections.append(f'<section id="heatmaps"><h2>{heading}</h2>{body}</section>')
        else:
            note = (
                '<p class="note keep">Pictures need matplotlib: pip install '
                '"kappaframe[plot]". The matrices as tables:</p>'
            )
            sections.append(
                f'<section id="heatmaps"><h2>{heading}</h2>{note}'
                f"{_matrix_tables_html(report)}</section>"
            )
    summary = rater_summary(report)
    if summary is not None and len(summary):
        coloured = COLOURED["raters"][0]
        sections.append(
            '<section id="raters"><h2>Raters</h2>'
            '<p class="note keep">Each rater against every other rater of the same group. '
            f"Coloured: {coloured}, the column that finds a rater who disagrees with "
            "everybody.</p>"
            f'<div class="scroll">{_html_table(summary, colour=COLOURED["raters"])}</div>'
            "</section>"
        )
    worst = _worst_html(report)
    if worst:
        sections.append(worst)
    return sections


def _footer(report: Report) -> str:
    created, when, source, options = _provenance(report)
    return (
        f"<footer><p>Made by kappaframe {_h(__version__)} on "
        f'<time datetime="{created.isoformat()}">{when}</time> '
        f"from {_h(source)}.</p><p>Options: {_h(options)}.</p></footer>"
    )


def provenance_html(record: dict[str, Any]) -> str:
    """A footer element with a provenance record: its inputs for people, the whole as JSON.

    The inputs (path, bytes, SHA-256) as a paragraph; the record
    (``kappaframe._io.provenance.provenance``) as JSON in a closed
    ``<details id="kappaframe-provenance">`` (no script: a reader parses the ``<pre>``).
    """
    files = "; ".join(
        f"{_h(str(f['path']))} ({f['bytes']:,} bytes, SHA-256 {_h(str(f['sha256']))})"
        for f in record.get("inputs", [])
    )
    shown = json.dumps(record, indent=1, ensure_ascii=False)
    return (
        '<div class="provenance" style="overflow-wrap: anywhere">'
        f"<p>Inputs: {files or 'none'}.</p>"
        '<details id="kappaframe-provenance"><summary>Provenance (JSON)</summary>'
        f'<pre style="white-space: pre-wrap">{html.escape(visible(shown, newlines=True))}'
        "</pre></details></div>"
    )


def _shown_pair(
    pair: pd.DataFrame, categories: list[Any] | None
) -> tuple[pd.DataFrame, list[Any] | None]:
    """The two raters' labels (and names) with controls shown as escapes, for a picture."""

    def shown(value: Any) -> Any:
        return visible(value) if isinstance(value, str) else value

    frame = pair.copy()
    frame.columns = [visible(str(c)) for c in pair.columns]
    for position in range(frame.shape[1]):
        column = frame.iloc[:, position]
        if column.dtype == object or pd.api.types.is_string_dtype(column.dtype):
            frame.isetitem(position, column.map(shown))
    return frame, None if categories is None else [shown(c) for c in categories]


def order_note(pair: pd.DataFrame, categories: list[Any] | None) -> str:
    """Say so when a confusion matrix's labels have no declared order ("" when they have).

    The order is declared by ``categories`` (``--categories``), an ordered Categorical,
    or labels that are numbers (or dates); text labels otherwise come sorted as text,
    which is not a scale.
    """
    a, b = pair.columns
    if confusion_counts(pair, a, b, categories=categories).ordered:
        return ""
    return (
        "The labels have no declared order: rows and columns are sorted as text, which "
        "says nothing about which labels are close. Give the order with --categories "
        "(categories= in Python)."
    )


def _worst_html(report: Report) -> str:
    """The pair of lowest kappa: one picture (or, without matplotlib, one table).

    The heading, the picture's title and the facts show the same kappa: the tidy
    table's, with the report's weighting.
    """
    found = _worst_pair(report)
    if found is None:
        return ""
    row, pair, table = found
    a, b = row["rater_a"], row["rater_b"]
    name = _h(_pair_name(row, report.by, report.weights))
    if _has_matplotlib():
        shown, cats = _shown_pair(pair, report.categories)
        fig = confusion_plot(
            shown, visible(str(a)), visible(str(b)), categories=cats, weights=report.weights
        )
        fig.axes[0].set_title(
            f"{visible(str(a))} vs {visible(str(b))}: n = {int(row['n'])}, "
            f"{report.kappa_name()} = {float(row['kappa']):.3f}"
        )
        body = f"<figure>{_svg(fig)}</figure>"
    else:
        body = _html_table(table, colour=(), index=True)
    order = order_note(pair, report.categories)
    order_html = f'<p class="note keep order-note">{_h(order)}</p>' if order else ""
    return (
        f'<section id="worst"><h2>Lowest kappa: {name}</h2>'
        f'<p class="note keep">Items both rated, by label: rows {_h(str(a))}, columns '
        f"{_h(str(b))}.</p>{order_html}{body}</section>"
    )

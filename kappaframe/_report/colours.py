"""One colour language for kappa: the heatmaps, the notebook tables and the HTML report.

Kappa is drawn on a diverging scale centred on 0, the agreement expected by chance:

- 0 is a neutral near-white: no agreement beyond chance, nothing to see;
- above chance the colour turns blue, darker as agreement grows, so "moderate"
  (0.4-0.6) is a calm middle blue, not an alarm;
- below chance (raters who systematically disagree) it turns red, continuously:
  -0.003 is still neutral, -0.26 a clear salmon, -1 dark red.

The colours are ColorBrewer's RdBu (Brewer, 2002; designed to stay readable with the
common colour-vision deficiencies), one colour at each 0.2 of kappa, so each band of
Landis & Koch (1977) spans one step and ``-x`` is as light as ``x``.

The scale is written once, as ``NODES``. matplotlib builds the colormap from it
(``kappa_colormap``: a ``LinearSegmentedColormap`` of ``N`` colours). Tables
(pandas Styler, the HTML report) are coloured from ``TABLE``, the same colours
written out, so that they need no matplotlib: a test checks that ``TABLE`` is exactly
what matplotlib makes of ``NODES``, and that a value gets the same colour in a table
as in a heatmap. After changing ``NODES``, regenerate ``TABLE`` with
``python -m kappaframe._report.colours``.

Statistics on [0, 1] (``p_o``, ``p_e``; ``n`` over [0, its maximum]) use the upper half
of the same scale (``share_colormap``). Undefined values are grey (``MISSING``);
the diagonal of a rater matrix (each rater with themself) carries no colour: it is
hatched (``DIAGONAL``); values below a ``fail_under`` bar are outlined in
``OUTLINE``.

References
----------
Brewer, C. A. (2002). ColorBrewer: color advice for maps. https://colorbrewer2.org
"""

from __future__ import annotations

import functools
import math
from typing import Any

__all__ = [
    "DIAGONAL",
    "DIAGONAL_CSS",
    "DIAGONAL_HATCH",
    "MISSING",
    "MISSING_CSS",
    "MISSING_TEXT",
    "NODES",
    "OUTLINE",
    "TABLE",
    "N",
    "colour",
    "css",
    "gradient",
    "index",
    "kappa_colormap",
    "share_colormap",
    "text_colour",
]

#: The kappa scale: (kappa, colour) from -1 to 1, ColorBrewer's RdBu (11 classes).
NODES: tuple[tuple[float, str], ...] = (
    (-1.0, "#67001f"),
    (-0.8, "#b2182b"),
    (-0.6, "#d6604d"),
    (-0.4, "#f4a582"),
    (-0.2, "#fddbc7"),
    (0.0, "#f7f7f7"),
    (0.2, "#d1e5f0"),
    (0.4, "#92c5de"),
    (0.6, "#4393c3"),
    (0.8, "#2166ac"),
    (1.0, "#053061"),
)

#: Colours in the lookup table (matplotlib's default): kappa -1 is entry 0, kappa 1 entry 255.
N = 256

#: Undefined values (no item in common, or one label only): grey, with "n/a" in dark grey.
MISSING = "#d9d9d9"
MISSING_TEXT = "#444444"
#: The diagonal (each rater with themself): a pale ground hatched in light grey, no colour.
DIAGONAL = "#f4f4f4"
DIAGONAL_HATCH = "#cccccc"
#: Values below ``fail_under``: outlined (heatmap cells) or edged (table rows).
OUTLINE = "#111111"
#: Text on light and on dark colours.
DARK_TEXT = "#000000"
LIGHT_TEXT = "#ffffff"

MISSING_CSS = f"background-color: {MISSING}; color: {MISSING_TEXT}"
DIAGONAL_CSS = (
    f"background: repeating-linear-gradient(135deg, {DIAGONAL} 0 3px, {DIAGONAL_HATCH} 3px 4px); "
    "color: #8c8c8c"
)


def kappa_colormap() -> Any:
    """The kappa scale as a matplotlib colormap over [0, 1] (kappa -1 to 1); needs matplotlib.

    Use it with ``Normalize(vmin=-1, vmax=1)``. Undefined values (masked or NaN) are
    ``MISSING``.
    """
    return _kappa_colormap()


@functools.cache
def _kappa_colormap() -> Any:
    from matplotlib.colors import LinearSegmentedColormap

    stops = [((kappa + 1.0) / 2.0, hex_colour) for kappa, hex_colour in NODES]
    cmap = LinearSegmentedColormap.from_list("kappaframe", stops, N=N)
    return cmap.with_extremes(bad=MISSING)


def share_colormap() -> Any:
    """The upper half of the kappa scale, for values on [0, 1] (``p_o``, ``p_e``, shares).

    The same colours as kappa 0 to 1: entries ``N // 2`` to ``N - 1`` of the kappa
    colormap. Use it with ``Normalize(vmin=0, vmax=top)``.
    """
    return _share_colormap()


@functools.cache
def _share_colormap() -> Any:
    import numpy as np
    from matplotlib.colors import ListedColormap

    half = _kappa_colormap()(np.arange(N // 2, N))
    return ListedColormap(half, name="kappaframe_share").with_extremes(bad=MISSING)


def index(value: Any, stat: str = "kappa", top: float = 1.0) -> int | None:
    """The entry of ``TABLE`` a value is drawn with, as matplotlib picks it; None if missing.

    Parameters
    ----------
    value : number
        A kappa (or a coefficient of the same scale), or a value of ``stat``.
    stat : {"kappa", "p_o", "p_e", "n"}, default "kappa"
        ``"kappa"`` maps [-1, 1] onto the whole table; the others map [0, ``top``] onto
        its upper half (``share_colormap``).
    top : float, default 1.0
        The value drawn darkest, for ``stat="n"`` (its maximum).

    Returns
    -------
    int or None
    """
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    if math.isnan(v):
        return None
    if stat == "kappa":
        return _entry((v + 1.0) / 2.0, N)  # as Normalize(-1, 1)
    half = N // 2
    scaled = v / top if stat == "n" else v
    if stat == "n" and top <= 0:
        scaled = 0.0
    return half + _entry(scaled, half)


def _entry(x: float, size: int) -> int:
    """The colour matplotlib picks for ``x`` in [0, 1] among ``size`` (under/over: the ends)."""
    xa = x * size
    if xa == size:
        return size - 1
    if xa < 0:
        return 0
    if xa >= size:
        return size - 1
    return int(xa)


def colour(value: Any, stat: str = "kappa", top: float = 1.0) -> str | None:
    """The colour of a value as ``#rrggbb`` (None if missing); see ``index``."""
    entry = index(value, stat, top)
    return None if entry is None else TABLE[entry]


def text_colour(background: str) -> str:
    """Near-black or white, whichever contrasts more with ``background`` (WCAG 2.1)."""

    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    ground = luminance(background)
    against_light = (luminance(LIGHT_TEXT) + 0.05) / (ground + 0.05)
    against_dark = (ground + 0.05) / (luminance(DARK_TEXT) + 0.05)
    return LIGHT_TEXT if against_light > against_dark else DARK_TEXT


def css(value: Any, stat: str = "kappa", top: float = 1.0) -> str:
    """CSS for a table cell holding ``value``: its colour, and text that reads on it.

    Missing values (None, NaN) get ``MISSING_CSS``; text that is not a number gets
    no style (``""``).
    """
    if value is None:
        return MISSING_CSS
    try:
        v = float(value)
    except (TypeError, ValueError):
        return ""
    background = colour(v, stat, top)
    if background is None:
        return MISSING_CSS
    return f"background-color: {background}; color: {text_colour(background)}"


def gradient(low: float, high: float, steps: int = 8) -> str:
    """A CSS ``linear-gradient``: the kappa scale from ``low`` (left) to ``high`` (right)."""
    stops = []
    for i in range(steps + 1):
        value = low + (high - low) * i / steps
        stops.append(f"{colour(value)} {100 * i / steps:.4g}%")
    return f"linear-gradient(to right, {', '.join(stops)})"


def _generated_table() -> tuple[str, ...]:
    """``TABLE`` as matplotlib makes it from ``NODES`` (needs matplotlib)."""
    import numpy as np
    from matplotlib.colors import to_hex

    return tuple(to_hex(rgba) for rgba in _kappa_colormap()(np.arange(N)))


def _table_source() -> str:
    """The source text of ``TABLE``, eight colours a line."""
    colours = _generated_table()
    lines = [
        "    " + ", ".join(f'"{c}"' for c in colours[i : i + 8]) + ","
        for i in range(0, len(colours), 8)
    ]
    return "TABLE: tuple[str, ...] = (\n" + "\n".join(lines) + "\n)\n"


#: The kappa scale as ``N`` colours, generated from ``NODES`` by matplotlib
#: (``python -m kappaframe._report.colours`` prints it; a test checks it is current).
TABLE: tuple[str, ...] = (
    "#67001f",
    "#6a011f",
    "#6d0220",
    "#700320",
    "#730421",
    "#760521",
    "#790622",
    "#7c0722",
    "#7f0823",
    "#810823",
    "#840924",
    "#870a24",
    "#8a0b25",
    "#8d0c25",
    "#900d26",
    "#930e26",
    "#960f27",
    "#991027",
    "#9c1127",
    "#9f1228",
    "#a21328",
    "#a51429",
    "#a81529",
    "#ab162a",
    "#ae172a",
    "#b1182b",
    "#b3192c",
    "#b41c2d",
    "#b61f2e",
    "#b72230",
    "#b82531",
    "#ba2832",
    "#bb2a34",
    "#bd2d35",
    "#be3036",
    "#bf3338",
    "#c13639",
    "#c2383a",
    "#c43b3c",
    "#c53e3d",
    "#c6413e",
    "#c84440",
    "#c94741",
    "#cb4942",
    "#cc4c44",
    "#ce4f45",
    "#cf5246",
    "#d05548",
    "#d25849",
    "#d35a4a",
    "#d55d4c",
    "#d6604d",
    "#d7634f",
    "#d86551",
    "#da6853",
    "#db6b55",
    "#dc6e57",
    "#dd7059",
    "#de735c",
    "#df765e",
    "#e17860",
    "#e27b62",
    "#e37e64",
    "#e48066",
    "#e58368",
    "#e6866a",
    "#e8896c",
    "#e98b6e",
    "#ea8e70",
    "#eb9172",
    "#ec9374",
    "#ee9677",
    "#ef9979",
    "#f09c7b",
    "#f19e7d",
    "#f2a17f",
    "#f3a481",
    "#f4a683",
    "#f5a886",
    "#f5aa89",
    "#f5ac8b",
    "#f6af8e",
    "#f6b191",
    "#f6b394",
    "#f7b596",
    "#f7b799",
    "#f7b99c",
    "#f8bb9e",
    "#f8bda1",
    "#f8bfa4",
    "#f9c2a7",
    "#f9c4a9",
    "#f9c6ac",
    "#fac8af",
    "#facab1",
    "#fbccb4",
    "#fbceb7",
    "#fbd0b9",
    "#fcd3bc",
    "#fcd5bf",
    "#fcd7c2",
    "#fdd9c4",
    "#fddbc7",
    "#fddcc9",
    "#fdddcb",
    "#fcdecd",
    "#fcdfcf",
    "#fce0d0",
    "#fce2d2",
    "#fbe3d4",
    "#fbe4d6",
    "#fbe5d8",
    "#fbe6da",
    "#fae7dc",
    "#fae8de",
    "#fae9df",
    "#faeae1",
    "#f9ebe3",
    "#f9ede5",
    "#f9eee7",
    "#f9efe9",
    "#f9f0eb",
    "#f8f1ed",
    "#f8f2ef",
    "#f8f3f0",
    "#f8f4f2",
    "#f7f5f4",
    "#f7f6f6",
    "#f6f7f7",
    "#f5f6f7",
    "#f3f5f6",
    "#f2f5f6",
    "#f0f4f6",
    "#eff3f5",
    "#edf2f5",
    "#ecf2f5",
    "#eaf1f5",
    "#e9f0f4",
    "#e7f0f4",
    "#e6eff4",
    "#e4eef4",
    "#e3edf3",
    "#e1edf3",
    "#e0ecf3",
    "#deebf2",
    "#ddebf2",
    "#dbeaf2",
    "#dae9f2",
    "#d8e9f1",
    "#d7e8f1",
    "#d5e7f1",
    "#d4e6f1",
    "#d2e6f0",
    "#d1e5f0",
    "#cfe4ef",
    "#cce2ef",
    "#cae1ee",
    "#c7e0ed",
    "#c5dfec",
    "#c2ddec",
    "#c0dceb",
    "#bddbea",
    "#bbdaea",
    "#b8d8e9",
    "#b6d7e8",
    "#b3d6e8",
    "#b1d5e7",
    "#aed3e6",
    "#acd2e5",
    "#a9d1e5",
    "#a7d0e4",
    "#a5cee3",
    "#a2cde3",
    "#a0cce2",
    "#9dcbe1",
    "#9bc9e0",
    "#98c8e0",
    "#96c7df",
    "#93c6de",
    "#90c4dd",
    "#8dc2dc",
    "#8ac0db",
    "#87beda",
    "#84bcd9",
    "#81bad8",
    "#7eb8d7",
    "#7bb6d6",
    "#78b4d5",
    "#75b2d4",
    "#71b0d3",
    "#6eaed2",
    "#6bacd1",
    "#68abd0",
    "#65a9cf",
    "#62a7ce",
    "#5fa5cd",
    "#5ca3cb",
    "#59a1ca",
    "#569fc9",
    "#529dc8",
    "#4f9bc7",
    "#4c99c6",
    "#4997c5",
    "#4695c4",
    "#4393c3",
    "#4291c2",
    "#408fc1",
    "#3f8ec0",
    "#3e8cbf",
    "#3c8abe",
    "#3b88be",
    "#3a87bd",
    "#3885bc",
    "#3783bb",
    "#3681ba",
    "#3480b9",
    "#337eb8",
    "#327cb7",
    "#307ab6",
    "#2f79b5",
    "#2e77b5",
    "#2c75b4",
    "#2b73b3",
    "#2a71b2",
    "#2870b1",
    "#276eb0",
    "#266caf",
    "#246aae",
    "#2369ad",
    "#2267ac",
    "#2065ab",
    "#1f63a8",
    "#1e61a5",
    "#1d5fa2",
    "#1c5c9f",
    "#1b5a9c",
    "#1a5899",
    "#195696",
    "#185493",
    "#175290",
    "#15508d",
    "#144e8a",
    "#134c87",
    "#124984",
    "#114781",
    "#10457e",
    "#0f437b",
    "#0e4179",
    "#0d3f76",
    "#0c3d73",
    "#0a3b70",
    "#09386d",
    "#08366a",
    "#073467",
    "#063264",
    "#053061",
)


if __name__ == "__main__":  # pragma: no cover - prints TABLE anew
    print(_table_source(), end="")

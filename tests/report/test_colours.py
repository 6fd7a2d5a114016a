"""One colour language: the kappa scale, its table for CSS, and matplotlib's colormap agree."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from kappaframe._report import colours


def luminance(hex_colour: str) -> float:
    """WCAG 2.1 relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def rgb(hex_colour: str) -> tuple[int, int, int]:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return r, g, b


def kappa(value: float) -> str:
    shown = colours.colour(value)
    assert shown is not None
    return shown


def test_table_is_what_matplotlib_makes_of_the_nodes() -> None:
    pytest.importorskip("matplotlib")
    assert len(colours.TABLE) == colours.N
    assert colours._generated_table() == colours.TABLE
    # Each node's kappa gets its colour (within the table's step).
    for value, node in colours.NODES:
        assert sum(abs(a - b) for a, b in zip(rgb(kappa(value)), rgb(node), strict=True)) < 12


def test_a_value_has_one_colour_in_tables_and_in_pictures() -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.colors import Normalize, to_hex

    rng = np.random.default_rng(3)
    values = [-1.0, -0.5, -0.26, -0.003, 0.0, 0.003, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0]
    values += list(rng.uniform(-1, 1, 300))
    cmap, norm = colours.kappa_colormap(), Normalize(vmin=-1, vmax=1)
    for v in values:
        assert colours.colour(v) == to_hex(cmap(norm(v))), v
    share = colours.share_colormap()
    for t in [0.0, 0.5, 1.0, *rng.uniform(0, 1, 100)]:
        assert colours.colour(t, "p_o") == to_hex(share(Normalize(0, 1)(t))), t
        assert colours.colour(t * 37, "n", top=37) == to_hex(share(Normalize(0, 37)(t * 37)))
    # p_o, p_e and n use the upper half of the same scale: the colours of kappa 0 to 1.
    assert colours.colour(0.75, "p_o") == kappa(0.75)
    assert colours.colour(0.0, "p_e") == kappa(0.0)


def test_zero_is_the_neutral_midpoint() -> None:
    zero = kappa(0.0)
    assert colours.index(0.0) == colours.N // 2
    r, g, b = rgb(zero)
    assert max(r, g, b) - min(r, g, b) <= 4  # grey, no hue
    assert luminance(zero) > 0.9  # near white: the lightest colour of the scale
    assert luminance(zero) == max(luminance(c) for c in colours.TABLE)
    above, below = rgb(kappa(0.1)), rgb(kappa(-0.1))
    assert above[2] > above[0] and below[0] > below[2]  # blue above chance, red below


def test_the_scale_is_symmetric_in_sign() -> None:
    for x in np.linspace(0.05, 1.0, 20):
        pos, neg = kappa(float(x)), kappa(-float(x))
        assert abs(luminance(pos) - luminance(neg)) < 0.04, x
        assert rgb(pos)[2] > rgb(pos)[0] and rgb(neg)[0] > rgb(neg)[2]
    # Darker the further from chance, on either side.
    steps = np.linspace(0, 1, 11)
    for sign in (1, -1):
        lum = [luminance(kappa(sign * float(x))) for x in steps]
        assert all(a > b for a, b in itertools.pairwise(lum))


def test_negatives_are_continuous() -> None:
    chance, reversal = kappa(-0.003), kappa(-0.26)
    assert chance != reversal
    assert luminance(chance) - luminance(reversal) > 0.2
    assert len({kappa(v) for v in np.linspace(-1, 0, 50)}) >= 45


def test_moderate_is_not_an_alarm() -> None:
    for v in (0.4, 0.5, 0.6):
        r, _, b = rgb(kappa(v))
        assert b > r  # the colour of agreement, not of disagreement
        assert 0.2 < luminance(kappa(v)) < 0.6  # a middle tone: not the darkest
    assert luminance(kappa(0.5)) > 3 * luminance(kappa(1.0))


def test_text_reads_on_every_colour() -> None:
    for ground in colours.TABLE:
        text = colours.text_colour(ground)
        light, dark = sorted([luminance(ground), luminance(text)])
        assert (dark + 0.05) / (light + 0.05) >= 4.5  # WCAG AA for normal text


def test_css_cells() -> None:
    assert colours.css(0.5) == f"background-color: {kappa(0.5)}; color: #000000"
    assert colours.css(0.95).endswith("color: #ffffff")
    assert colours.css(float("nan")) == colours.MISSING_CSS
    assert colours.css(None) == colours.MISSING_CSS
    assert colours.css("slight") == ""
    assert colours.index(float("nan")) is None
    # Beyond the scale: its ends, as matplotlib draws them.
    assert kappa(1.5) == colours.TABLE[-1] and kappa(-1.5) == colours.TABLE[0]
    assert colours.gradient(0.0, 0.2, 2) == (
        f"linear-gradient(to right, {kappa(0.0)} 0%, {kappa(0.1)} 50%, {kappa(0.2)} 100%)"
    )

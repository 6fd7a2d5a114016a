"""Report rendering (text, Markdown, HTML), input reading, and the page in headless Chromium."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import datasets
from kappaframe._io.read import read_input
from kappaframe._report import colours
from kappaframe._report.report import (
    Report,
    _plain,
    rater_summary,
    render_html,
    render_markdown,
    render_text,
    summary_from_tidy,
    worst_pair_confusion,
)

TEAM = list(datasets.TEAM)
GRADES = list(datasets.GRADES)
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")


def team_report(**kwargs: object) -> Report:
    data = datasets.labeling_team(seed=0)
    tidy = data.kappa.pairwise(TEAM, by="project")
    return Report(tidy=tidy, data=data, source="team.csv", raters=TEAM, by=["project"], **kwargs)


# --------------------------------------------------------------------------- pieces


def test_rater_summary_reads_the_tidy_table() -> None:
    report = team_report()
    summary = summary_from_tidy(report)
    assert summary is not None
    assert list(summary.columns) == [
        "project",
        "rater",
        "pairs",
        "mean_kappa",
        "min_kappa",
        "lowest_with",
    ]
    assert len(summary) == 3 * 5 and (summary["pairs"] == 4).all()
    tidy = report.tidy
    for row in summary.itertuples(index=False):
        mine = tidy[
            (tidy["project"] == row.project)
            & ((tidy["rater_a"] == row.rater) | (tidy["rater_b"] == row.rater))
        ]
        assert row.mean_kappa == pytest.approx(mine["kappa"].mean(), abs=1e-12)
        assert row.min_kappa == pytest.approx(mine["kappa"].min(), abs=1e-12)
    dee = summary[summary["rater"] == "dee"]
    assert (dee["mean_kappa"].to_numpy() < 0.1).all()


def test_rater_summary_uses_kf_raters_when_there() -> None:
    report = team_report()
    summary = rater_summary(report)
    assert summary is not None
    if not hasattr(kf, "raters"):
        pd.testing.assert_frame_equal(summary, summary_from_tidy(report))
        return
    data = report.data
    expected = kf.raters(data, TEAM, by="project")
    pd.testing.assert_frame_equal(summary, expected)


def test_worst_pair_is_counted_within_its_group() -> None:
    report = team_report()
    found = worst_pair_confusion(report)
    assert found is not None
    title, table = found
    tidy = report.tidy
    worst = tidy.loc[tidy["kappa"].idxmin()]
    assert title == (
        f"{worst['rater_a']} vs {worst['rater_b']}: kappa {worst['kappa']:.3f} (project = gamma)"
    )
    data = report.data
    assert data is not None
    gamma = data[data["project"] == "gamma"]
    expected = kf.confusion(gamma, worst["rater_a"], worst["rater_b"])
    pd.testing.assert_frame_equal(table, expected)
    assert int(table.to_numpy().sum()) == worst["n"]


def test_worst_pair_long_layout_pivots_two_raters() -> None:
    long = datasets.labeling_team(seed=0, layout="long")
    tidy = long.kappa.pairwise(item="item", rater="annotator", label="grade", by="project")
    report = Report(
        tidy=tidy, data=long, by=["project"], item="item", rater="annotator", label="grade"
    )
    found = worst_pair_confusion(report)
    wide = team_report()
    expected = worst_pair_confusion(wide)
    assert found is not None and expected is not None
    assert found[0] == expected[0]
    np.testing.assert_array_equal(found[1].to_numpy(), expected[1].to_numpy())


def test_text_table_is_aligned() -> None:
    df = pd.DataFrame({"name": ["a", "bbb"], "kappa": [0.5, np.nan], "n": [3, 12]})
    assert render_text(df) == (
        "name  kappa   n\n----  -----  --\na     0.500   3\nbbb          12\n"
    )
    assert render_text(df.iloc[:0]) == "(no rows)\n"


def test_markdown_report() -> None:
    text = render_markdown(team_report(fail_under=0.3))
    assert text.startswith("# Agreement report\n")
    assert "| project | rater_a | rater_b | n | p_o | p_e | kappa | interpretation |" in text
    assert "|:---|:---|:---|---:|---:|---:|---:|:---|" in text
    assert "## Raters" in text and "## Lowest kappa: ben vs dee" in text
    tidy = team_report().tidy
    assert f"{(tidy['kappa'] < 0.3).sum()} of 30 rows with kappa below 0.3" in text


# --------------------------------------------------------------------------- html


def test_html_is_self_contained() -> None:
    pytest.importorskip("matplotlib")
    page = render_html(team_report(fail_under=0.3))
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and "<link" not in page and "<img" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "@import" not in page
    assert not re.search(r"url\((?!#)", page)  # only references inside the page
    hrefs = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)""", page)
    assert hrefs and all(h.startswith(("data:", "#")) for h in hrefs)
    # one figure for each group's heatmap, plus the worst pair's confusion matrix
    assert page.count("<svg") == 3 + 1
    for section in ("pairs", "heatmaps", "raters", "worst"):
        assert f'<section id="{section}">' in page
    tidy = team_report().tidy
    assert page.count('<tr class="below">') == int((tidy["kappa"] < 0.3).sum())
    assert "project = gamma" in page


def test_html_without_matplotlib_falls_back_to_tables(tmp_path: Path) -> None:
    csv = tmp_path / "team.csv"
    _plain(datasets.labeling_team(seed=0)).to_csv(csv, index=False)
    out = tmp_path / "team.html"
    code = (
        "import sys\n"
        "sys.modules['matplotlib'] = None\n"
        "from kappaframe.cli import main\n"
        f"sys.exit(main(['report', {str(csv)!r}, '--raters', 'ana', 'ben', 'dee',"
        f" '--by', 'project', '-o', {str(out)!r}]))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    page = out.read_text()
    assert "<svg" not in page
    assert 'pip install "kappaframe[plot]"' in page.replace("&quot;", '"')
    assert page.count("<table>") == 1 + 1 + 1 + 1  # pairs, matrices, raters, worst pair
    # The matrices as tables: coloured on the same scale, each rater's own cell muted.
    matrices = section(page, "heatmaps")
    assert matrices.count("repeating-linear-gradient") == 3 * 3  # groups x raters
    assert matrices.count("background-color: #") == 3 * 3 * 2
    assert "<wbr>" not in matrices.split("<tbody>")[1]


# --------------------------------------------------------------------------- input


@pytest.mark.parametrize("name", ["t.csv", "t.csv.gz", "t.tsv", "t.jsonl", "t.json", "t.parquet"])
def test_read_input_formats(tmp_path: Path, name: str) -> None:
    df = pd.DataFrame(
        {"g": ["x", "y", "x"], "a": [1, 2, 3], "b": [1, 2, None], "c": ["u", "v", "w"]}
    )
    path = tmp_path / name
    if name.endswith(".csv"):
        df.to_csv(path, index=False)
    elif name.endswith(".gz"):
        with gzip.open(path, "wt") as handle:
            df.to_csv(handle, index=False)
    elif name.endswith(".tsv"):
        df.to_csv(path, index=False, sep="\t")
    elif name.endswith(".jsonl"):
        df.to_json(path, orient="records", lines=True)
    elif name.endswith(".json"):
        df.to_json(path, orient="records")
    else:
        pytest.importorskip("pyarrow")
        df.to_parquet(path)
    got = read_input(path, ["g", "a", "b"])
    assert list(got.columns) == ["g", "a", "b"]
    assert got["a"].tolist() == [1, 2, 3]
    assert pd.api.types.is_integer_dtype(got["a"])
    assert got["b"].isna().tolist() == [False, False, True]
    with pytest.raises(kf.KappaFrameError, match="column not found: 'bb' \\(did you mean 'b'"):
        read_input(path, ["bb"])


def test_read_input_errors(tmp_path: Path) -> None:
    with pytest.raises(kf.KappaFrameError, match="input file not found"):
        read_input(tmp_path / "none.csv")
    odd = tmp_path / "data.xlsx"
    odd.write_text("")
    with pytest.raises(kf.KappaFrameError, match="--input-format"):
        read_input(odd)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"a": 1}\n{not json\n')
    with pytest.raises(kf.KappaFrameError, match="could not read"):
        read_input(bad)


# --------------------------------------------------------------------------- chromium


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
    ]
    return subprocess.run(
        [str(CHROMIUM), *flags, *args], capture_output=True, timeout=120, check=True
    )


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_html_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    image_lib = pytest.importorskip("PIL.Image")
    page = tmp_path / "team.html"
    page.write_text(render_html(team_report(fail_under=0.3)), encoding="utf-8")
    url = page.as_uri()

    dom = _chromium(tmp_path, "--dump-dom", url).stdout.decode()
    assert "<h1>Agreement report</h1>" in dom
    assert dom.count("<svg") == 3 + 1
    assert len(re.findall(r'<tr class="below">', dom)) > 0
    # The heatmap text is live SVG text: the values of the gamma panel are in the page.
    gamma = datasets.labeling_team(seed=0).query("project == 'gamma'").kappa.matrix(TEAM)
    assert f"{gamma.loc['ben', 'dee']:.2f}" in dom

    shot = tmp_path / "shot.png"
    _chromium(tmp_path, "--window-size=1280,3400", f"--screenshot={shot}", url)
    pixels = np.asarray(image_lib.open(shot).convert("RGB")).astype(int)
    assert pixels.shape[:2] == (3400, 1280)
    # The cells are painted in the colours of the kappa scale: the blue of alpha's
    # ana-ben pair (about 0.45) in its heatmap cells and its table cell.
    alpha = datasets.labeling_team(seed=0).query("project == 'alpha'")
    blue = colours.colour(alpha.kappa.matrix(TEAM).loc["ana", "ben"])
    assert blue is not None
    target = np.array([int(blue[i : i + 2], 16) for i in (1, 3, 5)])
    assert (np.abs(pixels - target).sum(axis=-1) < 12).sum() > 2 * 1000  # two cells or more
    # The page is not blank.
    assert (pixels.std(axis=(0, 1)) > 10).all()


def test_html_skips_the_matrix_for_a_crowd() -> None:
    rng = np.random.default_rng(5)
    items = np.repeat(np.arange(200), 3)
    workers = np.concatenate([rng.choice(60, 3, replace=False) for _ in range(200)])
    long = pd.DataFrame({"item": items, "worker": workers, "label": rng.integers(0, 3, 600)})
    with pytest.warns(kf.UndefinedKappaWarning):
        tidy = long.kappa.pairwise(item="item", rater="worker", label="label")
    report = Report(tidy=tidy, data=long, item="item", rater="worker", label="label")
    page = render_html(report)  # undefined kappas were reported by pairwise already
    assert "60 raters: too many for a rater x rater matrix" in page
    assert page.count("<svg") <= 1  # only the worst pair's confusion matrix


# --------------------------------------------------------------------------- report content


def weighted_report(**kwargs: object) -> Report:
    data = datasets.labeling_team(seed=0)
    tidy = data.kappa.pairwise(TEAM, by="project", weights="linear", categories=GRADES)
    tidy = kwargs.pop("tidy", tidy)
    options: dict[str, object] = {
        "source": "team.csv",
        "raters": TEAM,
        "by": ["project"],
        "weights": "linear",
        "categories": GRADES,
    }
    options.update(kwargs)
    return Report(tidy=tidy, data=data, **options)  # type: ignore[arg-type]


def section(page: str, name: str) -> str:
    start = page.index(f'<section id="{name}">')
    return page[start : page.index("</section>", start)]


def test_html_prints_whole() -> None:
    page = render_html(team_report())
    css = page[page.index("<style>") : page.index("</style>")]
    media = css[css.index("@media print") :]
    assert re.search(r"\.scroll \{[^}]*max-height: none;[^}]*overflow: visible", media)
    assert "thead { display: table-header-group; }" in media
    assert re.search(r"tr[^{]*\{[^}]*break-inside: avoid", media)


def test_worst_pair_one_weighting_one_number() -> None:
    pytest.importorskip("matplotlib")
    report = weighted_report()
    tidy = report.tidy
    worst = tidy.loc[tidy["kappa"].idxmin()]
    weighted = f"{worst['kappa']:.3f}"
    data = report.data
    assert data is not None
    gamma = data[data["project"] == "gamma"]
    plain = kf.score(gamma, "dee", "eli", categories=GRADES)
    assert f"{plain:.2f}" != f"{worst['kappa']:.2f}"  # the two weightings differ here
    page = render_html(report)
    worst_html = section(page, "worst")
    assert f"<h2>Lowest kappa: dee vs eli: linear-weighted kappa {weighted} (project = gamma)"
    assert f"linear-weighted kappa {weighted} (project = gamma)</h2>" in worst_html
    assert f"n = {int(worst['n'])}, linear-weighted kappa = {weighted}" in worst_html
    assert "<table" not in worst_html and worst_html.count("<svg") == 1
    assert f"kappa = {plain:.2f}" not in worst_html and f"kappa = {plain:.3f}" not in worst_html
    facts = page[: page.index("</header>")]
    assert f"dee vs eli: linear-weighted kappa {weighted} (project = gamma)" in facts
    text = render_markdown(report)
    assert f"## Lowest kappa: dee vs eli: linear-weighted kappa {weighted}" in text


@pytest.mark.parametrize(("fail_on", "bar"), [("kappa", 0.2), ("p_o", 0.75)])
def test_html_legend_explains_marked_rows(fail_on: str, bar: float) -> None:
    report = team_report(fail_under=bar, fail_on=fail_on)
    page = render_html(report)
    count = int((report.tidy[fail_on] < bar).sum())
    assert 0 < count < len(report.tidy)
    legend = (
        f"Rows whose {fail_on} is below --fail-under {bar:g} are marked with a black edge "
        f"({count} of {len(report.tidy)} rows)."
    )
    assert f'<p class="legend keep"><span class="mark"></span>{legend}</p>' in section(
        page, "pairs"
    )
    assert page.count('<tr class="below">') == count
    assert "bar" not in page[: page.index("</header>")].replace("<dt>fail-under</dt>", "")
    assert '<p class="legend">' not in render_html(team_report())


def test_html_footer_says_when_from_what_and_how() -> None:
    made = datetime(2024, 5, 6, 7, 8, 9, tzinfo=timezone.utc)
    page = render_html(weighted_report(ci=0.95, fail_under=0.2, created=made))
    footer = page[page.index("<footer>") : page.index("</footer>")]
    assert '<time datetime="2024-05-06T07:08:09+00:00">2024-05-06 07:08:09 UTC</time>' in footer
    assert "from team.csv." in footer
    for option in (
        "layout: wide (raters ana, ben, cai, dee, eli)",
        "by: project",
        "weights: linear",
        "categories: bad, poor, ok, good, great",
        "ci: 0.95",
        "fail-under: 0.2 (on kappa)",
    ):
        assert option in footer
    long = datasets.labeling_team(seed=0, layout="long")
    tidy = long.kappa.pairwise(item="item", rater="annotator", label="grade")
    plain = Report(tidy=tidy, data=long, item="item", rater="annotator", label="grade")
    footer = render_html(plain).split("<footer>")[1]
    assert "layout: long (item item, rater annotator, label grade)" in footer
    assert "weights: none; categories: from the data, sorted; ci: none; fail-under: none" in footer
    assert re.search(
        r"on <time[^>]*>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC</time> from a data frame", footer
    )
    assert "Made by kappaframe" in render_markdown(plain)


def test_empty_input_says_there_is_nothing_to_show() -> None:
    empty = pd.DataFrame({c: pd.Series([], dtype=object) for c in ["project", "a", "b"]})
    tidy = kf.pairwise(empty, ["a", "b"], by="project")
    report = Report(tidy=tidy, data=empty, source="e.csv", raters=["a", "b"], by=["project"])
    page = render_html(report)
    assert '<p class="empty">Nothing to show: the input has no rows.</p>' in page
    assert "<section" not in page and "<h2>" not in page and "<table" not in page
    assert "<dt>raters</dt>" not in page  # no fact without a value
    text = render_markdown(report)
    assert "Nothing to show: the input has no rows." in text and "## " not in text
    # Rows, but no item that two raters both labelled.
    apart = pd.DataFrame({"a": ["x", None], "b": [None, "y"]})
    with pytest.warns(kf.UndefinedKappaWarning):
        tidy = kf.pairwise(apart, ["a", "b"])
    page = render_html(Report(tidy=tidy, data=apart, raters=["a", "b"]))
    assert "Nothing to show: no two raters labelled the same item." in page
    assert "<section" not in page


def _pdf_text(path: Path) -> str:
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(str(path))
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_html_report_prints_every_row_in_headless_chromium(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("pypdf")
    image_lib = pytest.importorskip("PIL.Image")
    report = weighted_report(fail_under=0.2)
    page = tmp_path / "team.html"
    page.write_text(render_html(report), encoding="utf-8")
    pdf = tmp_path / "team.pdf"
    _chromium(tmp_path, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri())
    text = " ".join(_pdf_text(pdf).split())
    tidy = report.tidy
    assert len(tidy) == 30
    for row in tidy.itertuples(index=False):
        line = f"{row.project} {row.rater_a} {row.rater_b} {row.n} {row.p_o:.3f} {row.p_e:.3f}"
        assert line in text
    assert "Made by kappaframe" in text

    shot = tmp_path / "shot.png"
    _chromium(tmp_path, "--window-size=1200,2000", f"--screenshot={shot}", page.as_uri())
    assert shot.exists()
    pixels = np.asarray(image_lib.open(shot).convert("RGB")).astype(int)
    assert pixels.shape[:2] == (2000, 1200)
    assert (pixels.std(axis=(0, 1)) > 10).all()
    assert (pixels.sum(axis=-1) < 600).mean() > 0.02  # text and colour, not a white page


def test_tiny_p_values_read_as_less_than_one_in_a_thousand() -> None:
    from kappaframe._report.report import _html_table, _markdown_table, render_text

    team = kf.datasets.labeling_team()
    res = kf.pairwise(team, ["ana", "ben", "cai"], ci=0.95)
    res.loc[2, "p_value"] = 0.0123
    assert (res["p_value"].iloc[:2] < 0.001).all()
    shown = {"<0.001": render_text(res), "&lt;0.001": _markdown_table(res)}  # as escaped
    for mark, text in [*shown.items(), ("&lt;0.001", _html_table(res))]:
        assert text.count(mark) == 2
        assert "0.012" in text
        assert "0.000 " not in text.replace("|", " ")


# --------------------------------------------------------------------------- min_items


def small_report(min_items: int | None = 10) -> Report:
    """Group "few": 2 items both labeled (kappa 1); group "many": 12."""
    data = pd.DataFrame(
        {
            "g": ["few"] * 2 + ["many"] * 12,
            "a": ["x", "y"] + ["x", "y"] * 6,
            "b": ["x", "y"] + ["x", "y", "y", "x"] * 3,
        }
    )
    tidy = kf.pairwise(data, ["a", "b"], by="g", min_items=min_items)
    return Report(tidy=tidy, data=data, raters=["a", "b"], by=["g"], min_items=min_items)


TOO_FEW_NOTE = (
    "too few items: 1 row rests on fewer than 10 items (n): the kappa is shown, but no band. "
    "--min-items sets the minimum (0: every row gets its band)."
)


def test_report_says_why_a_row_has_no_band() -> None:
    report = small_report()
    assert report.tidy["interpretation"].astype(str).tolist() == ["too few items", "slight"]
    text = render_text(report.tidy)
    assert text.splitlines()[-1] == TOO_FEW_NOTE
    assert text.count("too few items") == 2  # the row and the note
    markdown = render_markdown(report)
    pairs = markdown[markdown.index("## Pairs") : markdown.index("## Raters")]
    assert pairs.count(TOO_FEW_NOTE) == 1 and markdown.count(TOO_FEW_NOTE) == 1
    page = render_html(report)
    assert f'<p class="note keep too-few">{TOO_FEW_NOTE}</p>' in section(page, "pairs")
    assert "min-items: 10" in page[page.index("<footer>") :]
    # The minimum it was made with; none below it, no note.
    five = render_text(report.tidy.iloc[:1], min_items=5)
    assert "fewer than 5 items" in five
    for plain in (small_report(min_items=None), team_report()):
        assert "too few" not in render_text(plain.tidy) + render_markdown(plain)
        assert "too-few" not in render_html(plain)
    assert "min-items: none" in render_markdown(small_report(min_items=None))


def test_report_note_on_the_overall_table() -> None:
    report = small_report()
    many = kf.overall(report.data, ["a", "b"], by="g")
    assert "1 row rests on fewer than 10 items (n_items): the value is shown" in render_text(many)


# --------------------------------------------------------------------------- colour and print


def rows_of(page: str, name: str) -> list[list[str]]:
    """The cells (as written) of each body row of a section's first table."""
    body = section(page, name).split("<tbody>")[1].split("</tbody>")[0]
    return [re.findall(r"<td[^>]*>([^<]*)</td>", row) for row in body.split("</tr>") if row]


def test_pairs_table_is_worst_first() -> None:
    data = pd.DataFrame(
        {
            "a": ["x", "y"] * 10,
            "b": ["x", "y"] * 5 + ["y", "x"] * 5,
            "c": ["x", "x"] * 10,  # one label only: undefined kappa with a and b? no: with d
            "d": ["x", "x"] * 10,
        }
    )
    with pytest.warns(kf.UndefinedKappaWarning):
        tidy = kf.pairwise(data, ["a", "b", "c", "d"])
    assert tidy["kappa"].isna().any()
    report = Report(tidy=tidy, data=data, raters=["a", "b", "c", "d"], fail_under=0.1)
    page = render_html(report)
    rows = rows_of(page, "pairs")
    kappas = [float(r[5]) if r[5] else np.nan for r in rows]
    defined = [k for k in kappas if not np.isnan(k)]
    assert defined == sorted(defined) and len(defined) == tidy["kappa"].notna().sum()
    assert all(np.isnan(k) for k in kappas[len(defined) :])  # undefined last
    # Equal kappas keep the table's order.
    ties = tidy.assign(kappa=tidy["kappa"].fillna(9)).sort_values("kappa", kind="stable")
    assert [(r[0], r[1]) for r in rows] == list(zip(ties["rater_a"], ties["rater_b"], strict=True))
    # The marks follow their rows.
    marked = re.findall(r'<tr class="below"><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td>', page)
    expected = tidy[tidy["kappa"] < 0.1]
    assert sorted(marked) == sorted(zip(expected["rater_a"], expected["rater_b"], strict=True))
    assert "Worst first: rows sorted by kappa, lowest first" in section(page, "pairs")


def test_a_value_at_the_bar_reads_on_its_side() -> None:
    report = team_report(fail_under=0.2)
    tidy = report.tidy.copy()
    tidy.loc[0, "kappa"], tidy.loc[1, "kappa"] = 0.19996, 0.20004
    page = render_html(
        Report(tidy=tidy, data=report.data, raters=TEAM, fail_under=0.2, by=["project"])
    )
    pairs = section(page, "pairs")
    assert re.search(r'<tr class="below">(<td[^>]*>[^<]*</td>){6}<td[^>]*>0\.19996</td>', pairs)
    assert re.search(r"<tr>(<td[^>]*>[^<]*</td>){6}<td[^>]*>0\.200</td>", pairs)
    assert ">0.200</td>" not in pairs.split("0.19996")[0][-400:]


def test_p_value_and_interval_note() -> None:
    note = "p_value tests agreement = 0 with se0, the standard error under that null"
    data = datasets.labeling_team(seed=0)
    tidy = data.kappa.pairwise(TEAM, by="project", ci=0.95)
    page = render_html(Report(tidy=tidy, data=data, raters=TEAM, by=["project"], ci=0.95))
    assert note in section(page, "pairs") and "se0" in section(page, "pairs")
    assert note not in render_html(team_report())


def test_raters_table_colours_one_column() -> None:
    page = render_html(team_report())
    raters = section(page, "raters")
    header = re.findall(r"<th[^>]*>(.*?)</th>", raters)
    mean = [h.replace("<wbr>", "") for h in header].index("mean_kappa")
    rows = raters.split("<tbody>")[1].split("</tr>")[:-1]
    assert len(rows) == 15
    for row in rows:
        cells = re.findall(r"<td([^>]*)>", row)
        coloured = [i for i, attrs in enumerate(cells) if "background" in attrs]
        assert coloured == [mean]
    # In the pairs table too: only kappa.
    for row in section(page, "pairs").split("<tbody>")[1].split("</tr>")[:-1]:
        cells = re.findall(r"<td([^>]*)>", row)
        assert [i for i, a in enumerate(cells) if "background" in a] == [6]


def test_colour_key_names_the_bands_of_the_table() -> None:
    page = render_html(team_report(fail_under=0.2))
    key = page[page.index('<div class="key">') : page.index("</header>")]
    bands = ("poor -1 to 0", "slight 0 to 0.2", "moderate 0.4 to 0.6", "almost perfect 0.8 to 1")
    for band in bands:
        assert band in key
    assert "n/a: undefined" in key and "each rater with themself" in key
    assert "below --fail-under 0.2" in key
    assert f"{colours.colour(0.0)} 0%" not in key or "linear-gradient" in key
    data = datasets.labeling_team(seed=0)
    tidy = data.kappa.pairwise(TEAM, scale="fleiss")
    fleiss = render_html(Report(tidy=tidy, data=data, raters=TEAM))
    assert "fair to good 0.4 to 0.75" in fleiss and "slight" not in fleiss.split("</header>")[0]
    custom = data.kappa.pairwise(TEAM, scale={0: "low", 0.5: "high"})
    plain = render_html(Report(tidy=custom, data=data, raters=TEAM))
    assert "-1 to 1" in plain.split("</header>")[0]
    named = render_html(Report(tidy=custom, data=data, raters=TEAM, scale={0: "low", 0.5: "high"}))
    assert "high 0.5 to 1" in named


def test_confusion_order_is_declared_or_said_to_be_none() -> None:
    note = "The labels have no declared order"
    data = datasets.labeling_team(seed=0)
    text = data.astype({r: "string" for r in TEAM})
    tidy = text.kappa.pairwise(TEAM)
    assert note in section(render_html(Report(tidy=tidy, data=text, raters=TEAM)), "worst")
    declared = render_html(Report(tidy=tidy, data=text, raters=TEAM, categories=GRADES))
    assert note not in declared
    ordered = render_html(Report(tidy=data.kappa.pairwise(TEAM), data=data, raters=TEAM))
    assert note not in ordered  # an ordered Categorical declares its order
    numbers = pd.DataFrame({"a": [1, 2, 3, 1, 2], "b": [1, 3, 3, 2, 2]})
    assert note not in render_html(Report(tidy=kf.pairwise(numbers), data=numbers))
    # Weights on text with no order are refused before any report is drawn.
    with pytest.raises(kf.KappaFrameError, match="no declared order"):
        text.kappa.pairwise(TEAM, weights="linear")


PAPERS = {"A4": (595.0, 842.0), "Letter": (612.0, 792.0)}


def _mult(m: list[float], n: list[float]) -> list[float]:
    """The product of two PDF matrices [a b c d e f]."""
    return [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]


def _pdf_pages(path: Path) -> list[tuple[str, list[tuple[str, float, float]]]]:
    """Each page's text, and its text runs as (text, x where it starts, size in points).

    The last run of each page is ("<page>", its width, its height).
    """
    pypdf = pytest.importorskip("pypdf")
    pages = []
    for page in pypdf.PdfReader(str(path)).pages:
        runs: list[tuple[str, float, float]] = []

        def visit(
            text: str,
            cm: list[float],
            tm: list[float],
            font: object,
            size: float,
            runs: list[tuple[str, float, float]] = runs,
        ) -> None:
            if text.strip():
                m = _mult(tm, cm)
                runs.append((text, m[4], size * float(np.hypot(m[0], m[1]))))

        text = page.extract_text(visitor_text=visit)
        width, height = (float(v) for v in page.mediabox[2:])
        runs.append(("<page>", width, height))
        pages.append((text, runs))
    return pages


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
@pytest.mark.parametrize("paper", list(PAPERS))
def test_html_report_prints_whole_on_paper(tmp_path: Path, paper: str) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("pypdf")
    data = datasets.labeling_team(seed=0)
    tidy = data.kappa.pairwise(TEAM, by="project", weights="linear", categories=GRADES, ci=0.95)
    report = weighted_report(tidy=tidy, fail_under=0.2, ci=0.95)
    html = render_html(report).replace("<style>", f"<style>@page {{ size: {paper}; }}", 1)
    page = tmp_path / "team.html"
    page.write_text(html, encoding="utf-8")
    pdf = tmp_path / "team.pdf"
    _chromium(tmp_path, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri())
    pages = _pdf_pages(pdf)
    assert 2 <= len(pages) <= 5
    text = " ".join(" ".join(t for t, _ in pages).split())
    for _, runs in pages:
        _, width, height = runs.pop()
        assert (round(width), round(height)) == PAPERS[paper]
        # Nothing reaches past the right margin (a cut column would), nothing is tiny.
        assert max(x + 0.45 * len(t.strip()) * size for t, x, size in runs) < width - 25
        assert min(x for _, x, _ in runs) > 20
        assert min(size for _, _, size in runs) >= 7
    # Every row of the pairs table, and the raters table to its last column.
    for row in report.tidy.itertuples(index=False):
        line = f"{row.project} {row.rater_a} {row.rater_b} {row.n} {row.p_o:.3f} {row.p_e:.3f}"
        assert line in text
    summary = rater_summary(report)
    assert summary is not None
    assert re.search(r"others_\s*share", text)
    for row in summary.itertuples(index=False):
        assert f"{row.overused} {row.overused_share:.3f} {row.others_share:.3f}" in text
    # The heatmap's numbers are text in the PDF, written at a readable size.
    gamma = data[data["project"] == "gamma"]
    ben_dee = gamma.kappa.matrix(TEAM, weights="linear", categories=GRADES).loc["ben", "dee"]
    assert f"{ben_dee:.2f}" in text
    # Each heading is on the page of what follows it.
    page_texts = [" ".join(t.split()) for t, _ in pages]
    for heading, follows in [
        ("Pairs", "rows sorted by kappa, lowest"),
        ("Kappa matrix per group", "project = alpha"),
        ("Raters", "Each rater against every other rater"),
        ("Lowest kappa:", "Items both rated"),
    ]:
        where = [i for i, t in enumerate(page_texts) if heading in t]
        assert where and follows in page_texts[where[0]], heading
    assert "Made by kappaframe" in page_texts[-1]

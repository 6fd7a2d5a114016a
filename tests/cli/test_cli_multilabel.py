"""``kappaframe report`` on sets of labels: --multi-sep, --distance, --per-label."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli

RATERS = ["ana", "ben", "cai"]


def tags() -> pd.DataFrame:
    """60 items, three raters, sets of the labels a-d (lists), some missing, two groups."""
    rng = np.random.default_rng(3)
    labels = list("abcd")
    data: dict[str, list[object]] = {"project": list(rng.choice(["p", "q"], size=60))}
    latent = [set(rng.choice(labels, rng.integers(1, 3), replace=False)) for _ in range(60)]
    for rater in RATERS:
        data[rater] = [
            None
            if rng.random() < 0.1
            else sorted({x for x in s if rng.random() < 0.8} | {str(rng.choice(labels))})
            for s in latent
        ]
    return pd.DataFrame(data)


def text(df: pd.DataFrame, sep: str = "|") -> pd.DataFrame:
    out = df.copy()
    for rater in RATERS:
        out[rater] = [None if v is None else sep.join(v) for v in df[rater]]
    return out


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def test_report_gives_the_python_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    df = tags()
    path = tmp_path / "tags.csv"
    text(df, ";").to_csv(path, index=False)
    out = tmp_path / "out.csv"
    argv = ["report", str(path), "--by", "project", "--multi-sep", ";", "-o", str(out)]
    argv += ["--overall", "krippendorff", "--distance", "masi", "--per-label", "cohen"]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    alpha = kf.overall(df, RATERS, by="project", method="krippendorff", distance="masi")
    np.testing.assert_allclose(read(tmp_path / "out.overall.csv")["value"], alpha["value"])
    labels = kf.per_label(df, RATERS, by="project", method="cohen")
    got = read(tmp_path / "out.per_label.csv")
    assert list(got["label"]) == list(labels["label"])
    np.testing.assert_allclose(got["kappa"], labels["kappa"], rtol=0, atol=1e-12)
    # the pairs table compares whole sets: the kappa of the sets as categories
    whole = kf.pairwise(text(df), RATERS, by="project")
    np.testing.assert_allclose(read(out)["kappa"], whole["kappa"], rtol=0, atol=1e-12)


def test_parquet_lists_need_no_separator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyarrow")
    df = tags()
    path = tmp_path / "tags.parquet"
    df.to_parquet(path, index=False)
    want = kf.per_label(df, RATERS, by="project", method="krippendorff", min_items=0)
    code, out, err = run(
        ["report", str(path), "--by", "project", "--per-label", "krippendorff", "--min-items", "0"],
        capsys,
    )
    assert code == 0, err
    table = out.split("Agreement per label:\n", 1)[1]
    lines = [line for line in table.splitlines()[2:] if line.strip()]
    assert [line.split()[2] for line in lines] == list(want["label"])
    for line, value in zip(lines, want["value"], strict=True):
        assert f" {value:.3f} " in line


def test_text_without_multi_sep_names_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tags.csv"
    text(tags()).to_csv(path, index=False)
    code, _, err = run(
        ["report", str(path), "--by", "project", "--overall", "krippendorff", "--distance", "masi"],
        capsys,
    )
    assert code == 2
    assert "--multi-sep" in err and "where sets of labels are expected" in err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--distance", "masi"], "add --overall krippendorff"),
        (["--multi-sep", "|", "--stream"], "drop --stream"),
        (["--multi-sep", "|", "--overall", "fleiss", "--distance", "jaccard"], "krippendorff"),
    ],
)
def test_usage_errors(
    flags: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tags.csv"
    text(tags()).to_csv(path, index=False)
    code, _, err = run(["report", str(path), "--by", "project", *flags], capsys)
    assert code == 2
    assert message in err


def test_html_report_has_the_per_label_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tags.csv"
    text(tags()).to_csv(path, index=False)
    out = tmp_path / "report.html"
    code, _, err = run(
        ["report", str(path), "--by", "project", "--multi-sep", "|", "--per-label", "-o", str(out)],
        capsys,
    )
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert 'id="per_label-table"' in page and "Agreement per label" in page
    section = page.split('id="per_label-table"', 1)[1].split("</section>", 1)[0]
    assert "prevalence" in section and all(f">{x}<" in section for x in "abcd")

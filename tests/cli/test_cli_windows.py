"""``--time COL --every D [--period D]``: agreement per time window on the command line."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli, datasets

RATERS = ["ana", "ben", "cai"]


def team() -> pd.DataFrame:
    """The demo team with a day per item: ten items a day from Monday 2024-03-04."""
    frame = datasets.labeling_team(seed=0)[["item", "project", *RATERS]]
    days = pd.to_timedelta(frame["item"] // 10, unit="D")
    return frame.assign(day=pd.Timestamp("2024-03-04") + days)


@pytest.fixture
def team_csv(tmp_path: Path) -> Path:
    path = tmp_path / "team.csv"
    frame = team()
    frame.assign(day=frame["day"].dt.strftime("%Y-%m-%d")).to_csv(path, index=False)
    return path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def read(out: str) -> pd.DataFrame:
    frame = pd.read_csv(io.StringIO(out))
    for name in ("window_start", "window_end"):
        frame[name] = pd.to_datetime(frame[name])
    return frame


@pytest.mark.parametrize("stream", [False, True])
def test_report_in_windows_is_pairwise_in_windows(
    team_csv: Path, stream: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["report", str(team_csv), "--raters", *RATERS, "--by", "project"]
    argv += ["--time", "day", "--every", "2w", "--period", "4w", "--format", "csv"]
    code, out, err = run([*argv, "--no-progress", *(["--stream"] if stream else [])], capsys)
    assert code == 0, err
    got = read(out)
    want = kf.pairwise(team(), RATERS, by="project", time="day", every="2w", period="4w")
    assert list(got.columns[:3]) == ["project", "window_start", "window_end"]
    for name in ("window_start", "window_end"):
        np.testing.assert_array_equal(
            got[name].to_numpy("datetime64[ns]"), want[name].to_numpy("datetime64[ns]")
        )
    np.testing.assert_allclose(got["kappa"], want["kappa"], rtol=0, atol=1e-12)


def test_items_in_windows(team_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["items", str(team_csv), "--raters", *RATERS, "--item", "item", "--by", "project"]
    argv += ["--time", "day", "--every", "1mo", "--format", "csv", "--no-progress"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    got = read(out)
    want = kf.items(team(), RATERS, item="item", by="project", time="day", every="1mo")
    assert (got["window_start"].dt.day == 1).all()
    assert got["item"].tolist() == want["item"].tolist()
    np.testing.assert_allclose(got["p_i"], want["p_i"], rtol=0, atol=1e-12)


def test_a_markdown_report_shows_the_windows(
    team_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["report", str(team_csv), "--raters", *RATERS, "--time", "day", "--every", "1mo"]
    code, out, err = run([*argv, "--format", "markdown", "--no-progress"], capsys)
    assert code == 0, err
    assert "| window_start | window_end | rater_a |" in out
    assert "2024-03-01" in out and "2024-04-01" in out


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--time", "day"], "--every"),
        (["--every", "1w"], "--time"),
        (["--time", "day", "--every", "1week"], "--every"),
        (["--time", "project", "--every", "1w"], "ISO 8601"),
        (["--time", "day", "--every", "1w", "--raters-summary"], "--raters-summary"),
    ],
)
def test_bad_window_flags_exit_2_naming_the_flag(
    team_csv: Path, flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["report", str(team_csv), "--raters", *RATERS, *flags, "--no-progress"]
    code, _, err = run(argv, capsys)
    assert code == 2
    assert message in err, err

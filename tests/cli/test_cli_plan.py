"""``kappaframe plan``: how many items, from flags or from a pilot file, through the command."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def as_csv(args: list[str], capsys: pytest.CaptureFixture[str]) -> pd.DataFrame:
    code, out, err = run([*args, "--format", "csv"], capsys)
    assert code == 0, err
    return pd.read_csv(io.StringIO(out))


@pytest.fixture
def pilot_csv(tmp_path: Path) -> Path:
    rng = np.random.default_rng(11)
    n = 160
    truth = rng.choice(["no", "yes"], size=n, p=[0.6, 0.4])
    frame = {
        "item": [f"i{i}" for i in range(n)],
        "project": np.where(np.arange(n) < 80, "alpha", "beta"),
    }
    for name, keep in (("a", 0.8), ("b", 0.75), ("c", 0.7)):
        frame[name] = np.where(rng.random(n) < keep, truth, rng.choice(["no", "yes"], size=n))
    path = tmp_path / "pilot.csv"
    pd.DataFrame(frame).to_csv(path, index=False)
    return path


def test_the_example_from_flags(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["plan", "--kappa0", "0.4", "--kappa1", "0.6", "--props", "0.3", "0.7"]
    code, out, err = run([*argv, "--power", "0.8"], capsys)
    assert code == 0, err
    assert "n_items" in out and "goodness-of-fit" in out
    got = as_csv([*argv, "--power", "0.8"], capsys)
    assert got["n_items"].tolist() == [151]
    # two-sided, as kappaSize: PowerBinary(kappa0=0.4, kappa1=0.6, props=0.30) prints 191
    got = as_csv([*argv, "--alternative", "two-sided"], capsys)
    assert got["n_items"].tolist() == [191]
    assert got["alternative"].tolist() == ["two-sided"]


def test_an_interval_from_flags(capsys: pytest.CaptureFixture[str]) -> None:
    # CI3Cats(kappa0=0.4, kappaL=0.3, kappaU=0.6, props=c(0.30, 0.2, 0.5), raters=3): 125
    argv = ["plan", "--kappa0", "0.4", "--lower", "0.3", "--upper", "0.6"]
    got = as_csv([*argv, "--props", "0.3", "0.2", "0.5", "--n-raters", "3"], capsys)
    assert got["n_items"].tolist() == [125]
    assert got["goal"].tolist() == ["interval"]
    # CIBinary(kappa0=0.4, kappaL=0.3, kappaU=0.5, props=0.30): 397
    got = as_csv(["plan", "--kappa0", "0.4", "--width", "0.2", "--props", "0.7", "0.3"], capsys)
    assert got["n_items"].tolist() == [397]


def test_a_pilot_per_group_is_the_function(
    pilot_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["plan", str(pilot_csv), "--raters", "a", "b", "--by", "project", "--kappa0", "0.3"]
    got = as_csv(argv, capsys)
    want = kf.sample_size(pd.read_csv(pilot_csv), ["a", "b"], by="project", kappa0=0.3)
    assert got["project"].tolist() == ["alpha", "beta"]
    assert got["n_items"].tolist() == want["n_items"].tolist()
    np.testing.assert_allclose(got["pilot_kappa"], want["pilot_kappa"], rtol=0, atol=1e-12)
    assert got["props"].tolist() == want["props"].tolist()
    assert got["n_raters"].tolist() == [2, 2]


def test_a_pilot_with_exclude_and_an_interval_to_a_file(
    pilot_csv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "plan.csv"
    argv = ["plan", str(pilot_csv), "--exclude", "item", "project", "--width", "0.3"]
    code, _, err = run([*argv, "--output", str(out)], capsys)
    assert code == 0, err
    got = pd.read_csv(out)
    want = kf.sample_size(pd.read_csv(pilot_csv), ["a", "b", "c"], width=0.3)
    assert got["n_items"].tolist() == want["n_items"].tolist()
    assert got["n_raters"].tolist() == [3]
    record = json.loads((tmp_path / "plan.csv.provenance.json").read_text())
    assert record["options"]["width"] == 0.3


def test_markdown_says_what_it_answers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["plan", "--kappa0", "0.5", "--kappa1", "0.7", "--props", "0.5", "0.5"]
    code, out, err = run([*argv, "--format", "markdown"], capsys)
    assert code == 0, err
    assert out.startswith("# How many items? (the given numbers)")
    assert "| power | goodness-of-fit |" in out


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--kappa0", "0.6", "--kappa1", "0.4", "--props", "0.5", "0.5"], "--kappa1 0.4"),
        (["--kappa0", "0.4", "--kappa1", "0.6", "--props", "0.3", "0.6"], "--props 0.3 0.6"),
        (
            ["--kappa0", "0.4", "--kappa1", "0.6", "--props", "0.5", "0.5", "--power", "1.2"],
            "--power 1.2",
        ),
        (
            ["--kappa0", "0.4", "--kappa1", "0.6", "--props", "0.5", "0.5", "--alpha", "0"],
            "--alpha 0",
        ),
        (["--kappa0", "0.4", "--props", "0.5", "0.5"], "--kappa1"),
        (["--kappa0", "0.4", "--kappa1", "0.6"], "--props"),
        (
            ["--kappa0", "0.4", "--kappa1", "0.6", "--props", "0.5", "0.5", "--raters", "a", "b"],
            "--raters describes a pilot file",
        ),
        (
            [
                "--kappa0",
                "0.4",
                "--kappa1",
                "0.6",
                "--props",
                "0.5",
                "0.5",
                "--n-raters",
                "9",
                "--method",
                "goodness-of-fit",
            ],
            "--method goodness-of-fit has a closed form",
        ),
    ],
)
def test_bad_flags_are_named(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["plan", *flags], capsys)
    assert code == 2
    assert out == ""
    assert said in err


def test_a_pilot_below_kappa0_is_refused(
    pilot_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["plan", str(pilot_csv), "--raters", "a", "b", "--kappa0", "0.95"], capsys)
    assert code == 2
    assert "not above --kappa0 0.95" in err


def test_the_installed_command_runs(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "kappaframe",
            "plan",
            "--kappa0",
            "0.4",
            "--kappa1",
            "0.6",
            "--props",
            "0.3",
            "0.7",
            "--power",
            "0.8",
            "--format",
            "csv",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    got = pd.read_csv(io.StringIO(done.stdout))
    assert got["n_items"].tolist() == [151]


def test_the_limit_of_a_fixed_number_of_items(capsys: pytest.CaptureFixture[str]) -> None:
    # FixedN4Cats(kappa0=0.7, n=80, props=c(0.4, 0.4, 0.1, 0.1), raters=5): 0.623
    argv = ["plan", "--kappa0", "0.7", "--n-items", "80", "--n-raters", "5"]
    got = as_csv([*argv, "--props", "0.4", "0.4", "0.1", "0.1"], capsys)
    assert got["lower"].tolist() == [0.623]
    assert got["goal"].tolist() == ["limit"] and got["n_items"].tolist() == [80]
    code, _, err = run([*argv[:3], "--n-items", "8", "--props", "0.5", "0.5"], capsys)
    assert code == 2 and "--n-items 8 must be a whole number of items above 10" in err

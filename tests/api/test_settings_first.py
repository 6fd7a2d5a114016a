"""Settings first: a bad option is refused before any data is read, naming the option."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import kappaframe as kf
from kappaframe import cli

BAD = {
    "weights_name": ({"weights": "lineer"}, "weights"),
    "weights_negative": ({"weights": [[0, -1], [1, 0]]}, "weights"),
    "weights_agreement": ({"weights": np.eye(3)}, "weights"),
    "weights_not_square": ({"weights": [[0, 1, 2], [1, 0, 1]]}, "weights"),
    "weights_vector": ({"weights": [1, 2, 3]}, "weights"),
    "scale": ({"scale": "landis"}, "scale"),
}

CALLS: dict[str, Callable[..., Any]] = {
    "pairwise": lambda data, **o: kf.pairwise(data, **o),
    "matrix": lambda data, **o: kf.matrix(data, **{k: v for k, v in o.items() if k != "scale"}),
    "overall": lambda data, **o: kf.overall(data, **o),
    "raters": lambda data, **o: kf.raters(data, **{k: v for k, v in o.items() if k != "scale"}),
}


@pytest.fixture
def corrupt(tmp_path: Path) -> str:
    """A file that cannot be read at all: an option error must come first."""
    path = tmp_path / "ratings.csv.xz"
    path.write_bytes(b"\xfd7zXZ\x00 this is not xz data")
    return str(path)


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("bad", list(BAD))
def test_a_bad_option_is_refused_before_the_file_is_read(call: str, bad: str, corrupt: str) -> None:
    options, option = BAD[bad]
    if option == "scale" and call in ("matrix", "raters"):
        pytest.skip(f"{call}() has no scale")
    with pytest.raises(kf.KappaFrameError) as refused:
        CALLS[call](corrupt, **options)
    assert refused.value.option == option, str(refused.value)


@pytest.mark.parametrize("by", ["kappa", "rater_a", "interpretation"])
def test_a_by_column_named_like_the_output_is_refused_first(by: str, corrupt: str) -> None:
    with pytest.raises(kf.KappaFrameError, match=rf"by column '{by}' has the name"):
        kf.pairwise(corrupt, by=by)


def test_the_command_line_names_the_flag_not_the_file(
    corrupt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["report", corrupt, "--raters", "a", "b", "--scale", "nope"]) == 2
    assert "--scale" in capsys.readouterr().err


def test_raters_refuses_too_many_categories_before_any_k_by_k_array(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The size check comes before the weights matrix (10,000 labels: 800 MB each)."""
    from kappaframe._api import raters as raters_module
    from kappaframe._count import kernel

    def no_matrix(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a K x K weights matrix was built before the size check")

    monkeypatch.setattr(raters_module, "weight_matrix", no_matrix)
    monkeypatch.setattr(kernel, "MAX_COUNT_BYTES", 10_000)
    frame = {f"r{i}": np.arange(200) % 60 for i in range(3)}
    with pytest.raises(kf.KappaFrameError, match=r"raters\(\) needs the full K x K table"):
        kf.raters(pd.DataFrame(frame))

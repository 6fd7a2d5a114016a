"""``kf.provenance``: the record of what made a result, for programs that write their own tables."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import kappaframe as kf
from kappaframe._io import provenance as provenance_module
from kappaframe._io.formats import is_sidecar, sidecar_path


def test_a_file_is_named_measured_and_hashed(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_bytes(b"ana,ben\n1,1\n2,1\n")
    when = datetime(2024, 5, 6, 9, 8, 9, 500, tzinfo=timezone(timedelta(hours=2)))
    record = kf.provenance(path, {"weights": "linear", "by": ("project",)}, created=when)
    assert record == {
        "version": kf.__version__,
        "created": "2024-05-06T07:08:09Z",
        "inputs": [
            {
                "path": str(path.resolve()),
                "bytes": 16,
                "sha256": hashlib.sha256(b"ana,ben\n1,1\n2,1\n").hexdigest(),
            }
        ],
        "options": {"weights": "linear", "by": ["project"]},
    }
    assert json.loads(json.dumps(record)) == record


def test_big_files_are_hashed_in_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = os.urandom(10_000) * 7
    path = tmp_path / "big.parquet"
    path.write_bytes(data)
    monkeypatch.setattr(provenance_module, "CHUNK", 4096)
    reads: list[int] = []
    real_open = open

    class Counting:
        def __init__(self, handle: object) -> None:
            self.handle = handle

        def __enter__(self) -> Counting:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()  # type: ignore[attr-defined]

        def read(self, size: int) -> bytes:
            reads.append(size)
            return self.handle.read(size)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(
        provenance_module, "open", lambda p, mode: Counting(real_open(p, mode)), raising=False
    )
    size, digest = provenance_module.file_digest(path)
    assert (size, digest) == (len(data), hashlib.sha256(data).hexdigest())
    assert set(reads) == {4096} and len(reads) == len(data) // 4096 + 2  # never all at once


def test_a_glob_and_a_folder_stand_for_their_files(tmp_path: Path) -> None:
    for name in ("b.csv", "a.csv", "a.csv.provenance.json"):
        (tmp_path / name).write_text(name, encoding="utf-8")
    by_glob = kf.provenance(str(tmp_path / "*"))
    by_folder = kf.provenance(tmp_path)
    names = [Path(f["path"]).name for f in by_glob["inputs"]]
    assert names == ["a.csv", "b.csv"]  # sorted; the sidecar is no input
    assert by_folder["inputs"] == by_glob["inputs"]
    assert kf.provenance([])["inputs"] == []


def test_sidecar_names() -> None:
    assert sidecar_path("out/r.csv.gz") == "out/r.csv.gz.provenance.json"
    assert is_sidecar("R.CSV.PROVENANCE.JSON") and not is_sidecar("provenance.csv")


def test_bad_arguments_are_refused_naming_them(tmp_path: Path) -> None:
    with pytest.raises(kf.KappaFrameError, match=r"no such file: '.*missing\.csv'") as info:
        kf.provenance(str(tmp_path / "missing.csv"))
    assert info.value.option == "inputs"
    with pytest.raises(kf.KappaFrameError, match="no file matches"):
        kf.provenance(str(tmp_path / "*.parquet"))
    with pytest.raises(kf.KappaFrameTypeError, match="inputs must be a path"):
        kf.provenance(3)  # type: ignore[arg-type]
    with pytest.raises(kf.KappaFrameTypeError, match="inputs must be paths"):
        kf.provenance([tmp_path, 3])  # type: ignore[list-item]
    with pytest.raises(kf.KappaFrameError, match=r"options: ci=nan is not a JSON value"):
        kf.provenance(options={"ci": float("nan")})
    with pytest.raises(kf.KappaFrameError, match=r"options: when=.* is not a JSON value"):
        kf.provenance(options={"when": datetime.now(timezone.utc)})
    with pytest.raises(kf.KappaFrameTypeError, match="options must be a mapping"):
        kf.provenance(options=["weights"])  # type: ignore[arg-type]
    with pytest.raises(kf.KappaFrameError, match="has no time zone") as info:
        kf.provenance(created=datetime(2024, 5, 6))
    assert info.value.option == "created"
    with pytest.raises(kf.KappaFrameTypeError, match="created must be a datetime"):
        kf.provenance(created="2024-05-06")  # type: ignore[arg-type]


def test_standard_input_unread_is_not_guessed(monkeypatch: pytest.MonkeyPatch) -> None:
    from kappaframe._io import read

    monkeypatch.setattr(read, "_stdin_received", {})
    with pytest.raises(kf.KappaFrameError, match=r"standard input .* was not read"):
        kf.provenance("-")
    monkeypatch.setattr(read, "_stdin_received", {"digest": (3, "abc")})
    assert kf.provenance("-")["inputs"] == [{"path": "standard input", "bytes": 3, "sha256": "abc"}]


def test_the_caller_options_are_not_changed() -> None:
    options = {"by": ["project"], "categories": ("a", "b")}
    record = kf.provenance(options=options)
    record["options"]["by"].append("x")
    assert options == {"by": ["project"], "categories": ("a", "b")}

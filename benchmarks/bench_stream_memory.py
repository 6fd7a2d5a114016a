"""Benchmark: peak memory of files counted in batches, at two file sizes each.

The benchmark writes, in the wide layout (one row per item: 8 rater columns, labels 1..5
with 10% missing, and a ``group`` column of 100 groups), batch by batch:

- two parquet files of ``--small`` (default 5,000,000) and ``--rows`` (default
  20,000,000) rows;
- two gzip CSV files of ``--csv-small`` (2,000,000) and ``--csv-rows`` (8,000,000) rows;
- two JSON lines files of ``--json-small`` (1,000,000) and ``--json-rows`` (4,000,000)
  rows (a missing label is ``null``).

Then, each in a fresh subprocess, it measures the peak resident set size (``VmHWM``,
Linux) and the time of:

- ``kf.pairwise(path, by="group")``: the file read in batches (parquet and CSV with
  pyarrow, the CSV decompressed as it is read; JSON lines in chunks of lines) and counted
  batch by batch (kappaframe's file path);
- ``pl.scan_parquet(path).kappa.pairwise(by="group")`` (parquet): a polars LazyFrame,
  streamed with ``collect_batches``;
- ``kappaframe report path --by group --stream`` (CSV and JSON lines): the command line's
  streamed read;
- ``kf.pairwise(pd.read_parquet(path), by="group")``, ``pd.read_csv(path)``,
  ``pd.read_json(path, lines=True)``: the whole file in memory first.

Peak memory of the streamed paths stays flat as the file grows four-fold; the in-memory
one grows with the file. Per format, all the ways give the same numbers (checked on the
larger file).

Run from the repository root::

    python benchmarks/bench_stream_memory.py            # about four minutes
    python benchmarks/bench_stream_memory.py --keep     # keep the files (in --dir)
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
MB = 1024**2
RATERS = [f"r{i}" for i in range(8)]

CHILD = r"""
import json, sys, time, warnings
sys.path.insert(0, {repo!r})
warnings.simplefilter("ignore")
import numpy as np, pandas as pd, polars as pl, pyarrow
import kappaframe as kf
from kappaframe import cli

def rss(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024

path, how = {path!r}, {how!r}
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")  # count the peak from here: after the imports
before = rss("VmRSS")
start = time.perf_counter()
if how == "stream":
    res = kf.pairwise(path, by="group")
elif how == "polars":
    res = pl.scan_parquet(path).kappa.pairwise(by="group").collect().to_pandas()
elif how == "cli":
    out = path + ".out.csv"
    args = ["report", path, "--by", "group", "--stream", "--format", "csv", "-o", out]
    code = cli.main([*args, "--no-progress"])
    assert code == 0, code
    res = pd.read_csv(out)
elif path.endswith(".csv.gz"):
    res = kf.pairwise(pd.read_csv(path), by="group")
elif path.endswith(".jsonl"):
    res = kf.pairwise(pd.read_json(path, lines=True), by="group")
else:
    res = kf.pairwise(pd.read_parquet(path), by="group")
seconds = time.perf_counter() - start
kappa = np.asarray(res["kappa"], dtype=float)
print(json.dumps({{"before": before, "peak": rss("VmHWM"), "seconds": seconds,
                  "rows": len(res), "n": np.asarray(res["n"]).tolist(),
                  "kappa": np.where(np.isnan(kappa), None, kappa).tolist()}}))
"""

#: What each measured call is, by format.
HOWS = {
    "parquet": {
        "stream": 'kf.pairwise(path, by="group")  (pyarrow batches)',
        "polars": "pl.scan_parquet(path).kappa.pairwise(...)  (streamed)",
        "memory": "kf.pairwise(pd.read_parquet(path), ...)  (all in memory)",
    },
    "csv.gz": {
        "stream": 'kf.pairwise("x.csv.gz", by="group")  (batches)',
        "cli": "kappaframe report x.csv.gz --stream",
        "memory": "kf.pairwise(pd.read_csv(path), ...)  (all in memory)",
    },
    "jsonl": {
        "stream": 'kf.pairwise("x.jsonl", by="group")  (line chunks)',
        "cli": "kappaframe report x.jsonl --stream",
        "memory": "kf.pairwise(pd.read_json(path, lines=True), ...)",
    },
}


def labels(rows: int, seed: int, batch: int = 1_000_000) -> Any:
    """Batches of the wide layout: a group column and 8 raters (10% missing), as pyarrow."""
    import pyarrow as pa

    rng = np.random.default_rng(seed)
    skill = np.linspace(0.5, 0.9, len(RATERS))
    schema = pa.schema([("group", pa.int16())] + [(r, pa.int8()) for r in RATERS])
    for offset in range(0, rows, batch):
        size = min(batch, rows - offset)
        truth = rng.integers(1, 6, size, dtype=np.int8)
        columns = [pa.array(rng.integers(0, 100, size, dtype=np.int16))]
        for p in skill:
            labels = np.where(rng.random(size) < p, truth, rng.integers(1, 6, size, np.int8))
            columns.append(pa.array(labels.astype(np.int8), mask=rng.random(size) < 0.1))
        yield pa.Table.from_arrays(columns, schema=schema)


def write_file(path: Path, rows: int, seed: int) -> float:
    """Write ``rows`` rows of labels to ``path`` in batches; return the seconds it took.

    The suffix names the format: ``.parquet``, ``.csv.gz`` or ``.jsonl``.
    """
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    start = time.perf_counter()
    tables = labels(rows, seed)
    if path.name.endswith(".parquet"):
        first = next(tables)
        with pq.ParquetWriter(path, first.schema) as writer:
            writer.write_table(first)
            for table in tables:
                writer.write_table(table)
    elif path.name.endswith(".csv.gz"):
        with gzip.open(path, "wb", compresslevel=6) as out:
            for i, table in enumerate(tables):
                options = pacsv.WriteOptions(include_header=i == 0, quoting_style="none")
                pacsv.write_csv(table, out, options)
    else:
        import pandas as pd
        import pyarrow as pa

        whole = {pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype()}.get
        with open(path, "w") as out:
            for table in tables:
                frame = table.to_pandas(types_mapper=whole)  # labels as 3, missing as null
                frame.to_json(out, orient="records", lines=True)
    return time.perf_counter() - start


def measure(path: Path, how: str) -> dict[str, Any]:
    """Run one call in a fresh process; its peak memory, time and result (or its error)."""
    code = CHILD.format(repo=str(REPO), path=str(path), how=how)
    out = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, env=os.environ
    )
    if out.returncode != 0:
        lines = out.stderr.strip().splitlines() or [f"exit {out.returncode}"]
        return {"error": lines[-1]}
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def report(fmt: str, files: dict[int, Path], sizes: list[int]) -> None:
    """Measure every way in for one format at both sizes; print the peaks and their growth."""
    hows = HOWS[fmt]
    results = {(how, rows): measure(files[rows], how) for how in hows for rows in sizes}
    head = "".join(f"{f'{rows:,} rows':>28}" for rows in sizes)
    print(f"{fmt + ':':52}{head}{'growth':>9}")
    for how, label in hows.items():
        failed = next((results[how, rows] for rows in sizes if "error" in results[how, rows]), None)
        if failed is not None:
            print(f"{label:52}fails: {failed['error'][:120]}")
            continue
        cells, peaks = "", []
        for rows in sizes:
            r = results[how, rows]
            peaks.append(r["peak"] / MB)
            extra = (r["peak"] - r["before"]) / MB
            cells += f"{r['peak'] / MB:9.0f} MB (+{extra:5.0f}) {r['seconds']:5.1f} s"
        print(f"{label:52}{cells}{peaks[1] / peaks[0]:8.2f}x")
    big = [results[how, sizes[1]] for how in hows if "error" not in results[how, sizes[1]]]
    for other in big[1:]:
        assert other["rows"] == big[0]["rows"] and other["n"] == big[0]["n"]
        a = np.array(other["kappa"], dtype=float)
        b = np.array(big[0]["kappa"], dtype=float)
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    print(
        f"check: the {len(big)} give the same {big[0]['rows']:,} rows (n equal, kappa to "
        f"1e-12) on the {sizes[1]:,}-row {fmt} file"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000_000)
    parser.add_argument("--small", type=int, default=5_000_000)
    parser.add_argument("--csv-rows", type=int, default=8_000_000)
    parser.add_argument("--csv-small", type=int, default=2_000_000)
    parser.add_argument("--json-rows", type=int, default=4_000_000)
    parser.add_argument("--json-small", type=int, default=1_000_000)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    folder = args.dir or Path(tempfile.mkdtemp(prefix="kappaframe-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    plan = {
        "parquet": [args.small, args.rows],
        "csv.gz": [args.csv_small, args.csv_rows],
        "jsonl": [args.json_small, args.json_rows],
    }
    files: dict[str, dict[int, Path]] = {}
    for fmt, sizes in plan.items():
        files[fmt] = {}
        for rows in sizes:
            path = folder / f"labels_{rows}.{fmt}"
            seconds = write_file(path, rows, seed=rows)
            files[fmt][rows] = path
            print(
                f"wrote {path.name}: {rows:,} rows x {len(RATERS)} raters + group, "
                f"{path.stat().st_size / MB:.0f} MB on disk, in {seconds:.1f} s"
            )

    print("peak RSS (VmHWM) of a fresh process after its imports; extra = peak - RSS before:")
    for fmt, sizes in plan.items():
        report(fmt, files[fmt], sizes)
    if not args.keep:
        for paths in files.values():
            for path in paths.values():
                path.unlink()
                for written in path.parent.glob(f"{path.name}.out.csv*"):  # and its sidecar
                    written.unlink()
        if args.dir is None:
            folder.rmdir()


if __name__ == "__main__":
    main()

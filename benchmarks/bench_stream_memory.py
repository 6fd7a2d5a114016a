"""Benchmark: peak memory of a parquet file counted in batches, at two file sizes.

The benchmark writes two parquet files in the wide layout (one row per item): 8 rater
columns (labels 1..5 with 10% nulls) and a ``group`` column (100 groups), of
``--small`` (default 5,000,000) and ``--rows`` (default 20,000,000) rows, with pyarrow,
batch by batch (a few seconds). Then, each in a fresh subprocess, it measures the peak
resident set size (``VmHWM``, Linux) and the time of:

- ``kf.pairwise(path, by="group")``: the file read in batches with ``pyarrow.dataset``
  and counted batch by batch (kappaframe's file path);
- ``pl.scan_parquet(path).kappa.pairwise(by="group")``: a polars LazyFrame, streamed with
  ``collect_batches``;
- ``kf.pairwise(pd.read_parquet(path), by="group")``: the whole file in memory first.

Peak memory of the streamed paths stays flat as the file grows four-fold; the in-memory
one grows with the file. All three give the same numbers (checked on the larger file).

Run from the repository root::

    python benchmarks/bench_stream_memory.py            # about two minutes
    python benchmarks/bench_stream_memory.py --keep     # keep the files (in --dir)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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
else:
    res = kf.pairwise(pd.read_parquet(path), by="group")
seconds = time.perf_counter() - start
kappa = np.asarray(res["kappa"], dtype=float)
print(json.dumps({{"before": before, "peak": rss("VmHWM"), "seconds": seconds,
                  "rows": len(res), "n": np.asarray(res["n"]).tolist(),
                  "kappa": np.where(np.isnan(kappa), None, kappa).tolist()}}))
"""


def write_file(path: Path, rows: int, seed: int, batch: int = 1_000_000) -> float:
    """Write ``rows`` rows of labels to ``path`` in batches; return the seconds it took."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.5, 0.9, len(RATERS))
    schema = pa.schema([("group", pa.int16())] + [(r, pa.int8()) for r in RATERS])
    with pq.ParquetWriter(path, schema) as writer:
        for offset in range(0, rows, batch):
            size = min(batch, rows - offset)
            truth = rng.integers(1, 6, size, dtype=np.int8)
            columns = [pa.array(rng.integers(0, 100, size, dtype=np.int16))]
            for p in skill:
                labels = np.where(rng.random(size) < p, truth, rng.integers(1, 6, size, np.int8))
                columns.append(pa.array(labels.astype(np.int8), mask=rng.random(size) < 0.1))
            writer.write_table(pa.Table.from_arrays(columns, schema=schema))
    return time.perf_counter() - start


def measure(path: Path, how: str) -> dict[str, object]:
    code = CHILD.format(repo=str(REPO), path=str(path), how=how)
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, env=os.environ
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000_000)
    parser.add_argument("--small", type=int, default=5_000_000)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    folder = args.dir or Path(tempfile.mkdtemp(prefix="kappaframe-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    sizes = [args.small, args.rows]
    files = {}
    for rows in sizes:
        path = folder / f"labels_{rows}.parquet"
        seconds = write_file(path, rows, seed=rows)
        files[rows] = path
        print(
            f"wrote {path.name}: {rows:,} rows x {len(RATERS)} raters + group, "
            f"{path.stat().st_size / MB:.0f} MB on disk, in {seconds:.1f} s"
        )

    hows = {
        "stream": 'kf.pairwise(path, by="group")  (pyarrow batches)',
        "polars": "pl.scan_parquet(path).kappa.pairwise(...)  (streamed)",
        "memory": "kf.pairwise(pd.read_parquet(path), ...)  (all in memory)",
    }
    results = {(how, rows): measure(files[rows], how) for how in hows for rows in sizes}
    print("peak RSS (VmHWM) of a fresh process after its imports; extra = peak - RSS before:")
    head = "".join(f"{f'{rows:,} rows':>28}" for rows in sizes)
    print(f"{'':52}{head}{'growth':>9}")
    for how, label in hows.items():
        cells, peaks = "", []
        for rows in sizes:
            r = results[how, rows]
            peaks.append(r["peak"] / MB)
            extra = (r["peak"] - r["before"]) / MB
            cells += f"{r['peak'] / MB:9.0f} MB (+{extra:5.0f}) {r['seconds']:5.1f} s"
        print(f"{label:52}{cells}{peaks[1] / peaks[0]:8.2f}x")
    big = [results[how, args.rows] for how in hows]
    for other in big[1:]:
        assert other["rows"] == big[0]["rows"] and other["n"] == big[0]["n"]
        a = np.array(other["kappa"], dtype=float)
        b = np.array(big[0]["kappa"], dtype=float)
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    print(
        f"check: the three give the same {big[0]['rows']:,} rows (n equal, kappa to 1e-12) "
        f"on the {args.rows:,}-row file"
    )
    if not args.keep:
        for path in files.values():
            path.unlink()
        if args.dir is None:
            folder.rmdir()


if __name__ == "__main__":
    main()

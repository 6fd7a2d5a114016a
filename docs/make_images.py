"""Make docs/report.png and docs/heatmap.png.

Needs matplotlib, Pillow and Debian's chromium; run from the repository root:
``python docs/make_images.py``.
"""

import subprocess
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from PIL import Image

import kappaframe as kf
from kappaframe._report.report import Report, render_html

DOCS = Path(__file__).parent


def main() -> None:
    """Render the demo team's report in Chromium and draw its heatmap, both as small PNGs."""
    team = kf.datasets.labeling_team(seed=0)
    raters, grades = list(kf.datasets.TEAM), list(kf.datasets.GRADES)
    options = {"by": "project", "weights": "linear", "categories": grades}
    tidy = kf.pairwise(team, raters, **options)
    report = Report(
        tidy=tidy,
        data=team,
        source="team.csv",
        raters=raters,
        by=["project"],
        weights="linear",
        categories=grades,
        fail_under=0.2,
        created=datetime(2025, 1, 1, tzinfo=timezone.utc),
    )
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "team.html"
        page.write_text(render_html(report), encoding="utf-8")
        shot = Path(tmp) / "shot.png"
        subprocess.run(
            [
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={tmp}/profile",
                "--window-size=1200,2000",
                f"--screenshot={shot}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
        )
        small = (
            Image.open(shot).convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
        )
        small.save(DOCS / "report.png", optimize=True)
        fig = kf.heatmap(team, raters, fail_under=0.2, **options)
        drawn = Path(tmp) / "heatmap.png"
        fig.savefig(drawn, dpi=90)
        small = (
            Image.open(drawn).convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
        )
        small.save(DOCS / "heatmap.png", optimize=True)


if __name__ == "__main__":
    main()

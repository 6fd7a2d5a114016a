"""Build-time additions to the documentation site (MkDocs hooks).

The notebooks live in ``notebooks/`` at the repository root, where they are run by the tests
and opened by users; the site shows them from there, as they were last saved (stored
outputs, nothing executed), under ``notebooks/`` in the site.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]


@event_priority(100)  # before mkdocs-jupyter turns .ipynb files into pages
def on_files(files: Files, config: Any) -> Files:
    """Add every notebook of ``notebooks/`` to the site's files."""
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        files.append(
            File(
                f"notebooks/{path.name}",
                src_dir=str(ROOT),
                dest_dir=config["site_dir"],
                use_directory_urls=config["use_directory_urls"],
            )
        )
    return files

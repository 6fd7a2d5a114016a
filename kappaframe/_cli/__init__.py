"""The command line's jobs; ``kappaframe.cli.main`` parses the flags and dispatches here.

- ``.parser``: ``build_parser``: each subcommand's flags (``.demo_flags``,
  ``.report_flags``, ``.items_flags``, ``.plan_flags``, ``.judge_flags``: one module each,
  listed in ``parser.COMMANDS``) and the groups they share (``.groups``).
- ``.flags``: a flag made from its option's declaration (``add_option``), and the readers
  of flag values.
- ``.bind``: the flags' values checked by their declarations, and turned into keywords.
- ``.report``: ``kappaframe report``: flags in, ``kf.pairwise`` / ``kf.overall`` /
  ``kf.raters`` calls out, and the ``--fail-under`` gate.
- ``.items``: ``kappaframe items``: flags in, ``kf.items`` out: the items table or the
  queue of items to send back.
- ``.baseline``: ``report --baseline OLD --max-drop D``: the earlier table read and
  checked, this run's compared with it (``kf.against_baseline``), and the gate's verdict.
- ``.plan``: ``kappaframe plan``: flags in, ``kf.sample_size`` out: how many items to rate.
- ``.judge``: ``kappaframe judge``: flags in, ``kf.judge_report`` out: the judge against
  the gold, per class and per group.
- ``.ratings``: the input read whole as both commands read it (columns, relabelling).
- ``.stream``: ``--stream``: the input as a ``kf.scan`` counted in batches.
- ``.output``: the report's tables written to ``--output`` (and beside it) or stdout.
- ``.messages``: errors in the command line's words (its flags, the file's lines).
- ``.demo``: ``kappaframe demo``.
"""

from __future__ import annotations

EXIT_OK, EXIT_BELOW, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
#: A fault in kappaframe itself (sysexits' EX_SOFTWARE): never 1, which a nightly gate reads
#: as "agreement below the bar".
EXIT_FAULT = 70
#: ``--baseline``: some row's change cannot be told from noise (its interval straddles
#: ``-max_drop``), and no row dropped or fell under ``--fail-under`` (those exit 1).
EXIT_INCONCLUSIVE = 3

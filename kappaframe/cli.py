"""The ``kappaframe`` command: ``demo``, ``report INPUT``, ``items INPUT``, ``plan``, ``judge``.

Exit codes: 0 ok; 1 when ``--fail-under`` is given and some row is below it, or
``--baseline`` is given and some row dropped (the offending rows go to stderr; the report
is still written), and for nothing else; 2 for usage, input and output errors (a message
on stderr, no traceback); 3 with ``--baseline`` when some row's change cannot be told from
noise and nothing exits 1; 70 for a fault in kappaframe itself (the traceback, to report);
130 when interrupted (Ctrl-C); 143 when terminated (SIGTERM) while writing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
import traceback
from collections.abc import Sequence

from ._cli import EXIT_BELOW as EXIT_BELOW
from ._cli import EXIT_FAULT, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from ._cli.messages import usage_error
from ._cli.parser import build_parser, option_flags

__all__ = ["build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 ok; 1 some row below ``--fail-under`` or dropped since ``--baseline`` (and
        nothing else); 2 a usage, input or output error, said on stderr; 3 some row's
        change since ``--baseline`` cannot be told from noise (and nothing exits 1); 70 a
        fault in kappaframe itself (its traceback on stderr); 130 interrupted.
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:
        with contextlib.suppress(OSError):
            sys.stderr.write("kappaframe: interrupted\n")
        return EXIT_INTERRUPTED
    except Exception:  # a fault of ours: show it whole, but never as exit 1 (the gate's)
        with contextlib.suppress(OSError):
            traceback.print_exc(file=sys.stderr)
            sys.stderr.write(
                f"kappaframe: internal error (exit {EXIT_FAULT}); the traceback above says "
                "where. It is not a verdict on the agreement.\n"
            )
        return EXIT_FAULT


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) if not isinstance(exit_.code, str) else EXIT_USAGE
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    from ._cli.logs import level_of, to_stream

    with to_stream(level_of(args), sys.stderr):
        return _run(args, option_flags(parser))


def _run(args: argparse.Namespace, flags: dict[str, str]) -> int:
    """Run the parsed command; errors said on stderr, as exit codes.

    ``flags``: each option's flag, which messages name instead of the Python argument.
    """
    from ._cli import demo, items, judge, plan, report
    from ._cli.bind import check_options
    from ._cli.logs import log
    from ._errors import KappaFrameError, missing_dependency, spelled_as

    start = time.perf_counter()
    try:
        # Messages built inside name the flags (--categories), not Python's categories=.
        with spelled_as(flags):
            check_options(args)  # every option's value, before any input is opened
            if args.command == "demo":
                code = demo.run(args, sys.stdout)
            elif args.command == "items":
                code = items.run(args, sys.stdout, sys.stderr)
            elif args.command == "plan":
                code = plan.run(args, sys.stdout, sys.stderr)
            elif args.command == "judge":
                code = judge.run(args, sys.stdout, sys.stderr)
            else:
                code = report.run(args, sys.stdout, sys.stderr)
        log.info("done in %.2f s (exit %d)", time.perf_counter() - start, code)
        return code
    except KappaFrameError as err:
        return usage_error(str(err), sys.stderr)
    except ModuleNotFoundError as err:  # an optional library: name the extra to install
        return usage_error(missing_dependency(err), sys.stderr)
    except BrokenPipeError:
        # The reader of our stdout went away (e.g. `| head`): stop quietly.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except OSError as err:
        # Reading and writing turn their own errors into KappaFrameError with advice;
        # this says at least what failed, without a traceback.
        where = f"{err.filename!r}: " if err.filename else ""
        return usage_error(f"{where}{err.strerror or err}.", sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

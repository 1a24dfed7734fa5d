"""``python -m judge.mutation [SLUG ...]``: print the mutation report; exit status 1 below the bar.

The per-problem progress goes to stderr as each problem's test runs finish; the report goes to stdout.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from judge import mutation
from judge.engine_settings import engine_settings
from judge.mutation.analysis import DEFAULT_FUZZ_COUNT, DEFAULT_MAX_MUTANTS, DEFAULT_WORKERS, analyze
from judge.mutation.report import below_bar, render
from judge.problems import discover


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, mutate the chosen problems (default: all) and print the report."""
    description = (mutation.__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m judge.mutation", description=description)
    parser.add_argument("slugs", nargs="*", help="problems to mutate (default: all)")
    parser.add_argument("--problems-dir", type=Path, default=None, help="the folder of problem folders")
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS, help="mutants run at a time")
    parser.add_argument("--max-mutants", type=int, default=DEFAULT_MAX_MUTANTS,
                        help="mutants per problem, chosen evenly over the source (0: all)")
    parser.add_argument("--fuzz", type=int, default=DEFAULT_FUZZ_COUNT, help="fuzz inputs per survivor")
    parser.add_argument("--show-equivalent", action="store_true",
                        help="also list the probably-equivalent mutants")
    options = parser.parse_args(argv)
    root: Path = options.problems_dir or engine_settings().problems_dir
    folders = [root / slug for slug in options.slugs] if options.slugs else discover(root)
    missing = [f.name for f in folders if not (f / "problem.toml").is_file()]
    if missing:
        parser.error(f"unknown problem(s): {', '.join(missing)}")
    started = time.monotonic()
    reports = analyze(folders, workers=options.workers, max_mutants=options.max_mutants,
                      fuzz_count=options.fuzz, progress=lambda m: print(m, file=sys.stderr, flush=True))
    print(render(reports, show_equivalent=options.show_equivalent, seconds=time.monotonic() - started))
    return 1 if below_bar(reports) else 0


if __name__ == "__main__":
    sys.exit(main())

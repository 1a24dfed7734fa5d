"""Mutation testing of problem references: do the hidden tests notice small bugs?

Each reference solution is mutated with ``ast`` (flip a comparison, drop a ``min``/``max``, change a
numeric constant, swap two call arguments, shift a ``range`` bound, swap ``and``/``or`` and ``+``/``-``,
drop a ``not``). Each mutant runs against the problem's public and hidden tests in a subprocess with a
memory limit and timeouts, checked with the judge's own checker. A mutant that passes every test is
fuzzed against the reference on many generated inputs: if they agree it is *probably equivalent*,
otherwise it is a surviving bug the tests miss.

Run ``python -m judge.mutation [SLUG ...]`` for a report per problem. The modules, in pipeline order:
``operators`` and ``mutants`` (making mutants), ``runner`` with ``calls`` and ``child`` (running one in
a limited child process), ``equivalence`` (the fuzz comparison), ``analysis`` (many problems on one
pool), ``report`` (results and the printed table), ``__main__`` (the command line).
"""

from judge.mutation.analysis import (
    DEFAULT_FUZZ_COUNT,
    DEFAULT_MAX_MUTANTS,
    DEFAULT_WORKERS,
    analyze,
    analyze_problem,
)
from judge.mutation.equivalence import fuzz_difference, fuzz_inputs
from judge.mutation.mutants import Mutant, generate_mutants, select_mutants
from judge.mutation.operators import Operator
from judge.mutation.report import KILL_SHARE_REQUIRED, MutantResult, ProblemReport, Status
from judge.mutation.runner import failure_reason

__all__ = [
    "DEFAULT_FUZZ_COUNT",
    "DEFAULT_MAX_MUTANTS",
    "DEFAULT_WORKERS",
    "KILL_SHARE_REQUIRED",
    "Mutant",
    "MutantResult",
    "Operator",
    "ProblemReport",
    "Status",
    "analyze",
    "analyze_problem",
    "failure_reason",
    "fuzz_difference",
    "fuzz_inputs",
    "generate_mutants",
    "select_mutants",
]

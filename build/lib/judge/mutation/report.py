"""What mutation testing found for one problem, and the table ``python -m judge.mutation`` prints.

A problem passes when its tests kill at least ``KILL_SHARE_REQUIRED`` of the mutants that are not
probably equivalent: equivalent mutants are no bug, so no test could kill them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from judge.mutation.mutants import Mutant

KILL_SHARE_REQUIRED = 0.9


class Status(StrEnum):
    """What became of one mutant."""

    KILLED = "killed"
    EQUIVALENT = "probably equivalent"
    SURVIVED = "survived"


@dataclass(frozen=True)
class MutantResult:
    """One mutant's status, and the evidence for it."""

    mutant: Mutant
    status: Status
    detail: str  # why it was killed, or where the fuzz told it apart; empty when equivalent


@dataclass(frozen=True)
class ProblemReport:
    """Every mutant tried on one problem's reference."""

    slug: str
    generated: int  # distinct mutants before the cap
    results: tuple[MutantResult, ...]

    def _count(self, status: Status) -> int:
        return sum(1 for r in self.results if r.status is status)

    @property
    def killed(self) -> int:
        return self._count(Status.KILLED)

    @property
    def equivalent(self) -> int:
        return self._count(Status.EQUIVALENT)

    @property
    def survivors(self) -> list[MutantResult]:
        return [r for r in self.results if r.status is Status.SURVIVED]

    @property
    def kill_share(self) -> float:
        """Killed mutants over non-equivalent ones (1.0 when every mutant is equivalent)."""
        relevant = self.killed + len(self.survivors)
        return self.killed / relevant if relevant else 1.0

    def summary(self) -> str:
        """The counts on one line, then each survivor and what told it apart."""
        lines = [f"{self.slug}: {len(self.results)} mutants (of {self.generated}), {self.killed} killed, "
                 f"{self.equivalent} probably equivalent, {len(self.survivors)} surviving non-equivalent, "
                 f"kill share {self.kill_share:.1%}"]
        for result in self.survivors:
            lines.append(f"  survivor #{result.mutant.number} {result.mutant.description}")
            lines.append(f"    {result.detail}")
        return "\n".join(lines)


def below_bar(reports: Sequence[ProblemReport]) -> list[ProblemReport]:
    """The reports whose tests kill too few of the non-equivalent mutants."""
    return [r for r in reports if r.kill_share < KILL_SHARE_REQUIRED]


def render(reports: Sequence[ProblemReport], *, show_equivalent: bool, seconds: float) -> str:
    """A table with a row per problem, the details of problems with survivors, and the verdict line."""
    header = f"{'problem':<24} {'mutants':>7} {'killed':>6} {'equiv':>5} {'surv':>4} {'kill share':>10}"
    lines = [header, "-" * len(header)]
    for r in reports:
        lines.append(f"{r.slug:<24} {len(r.results):>7} {r.killed:>6} {r.equivalent:>5} "
                     f"{len(r.survivors):>4} {r.kill_share:>10.1%}")
    for r in reports:
        if r.survivors or (show_equivalent and r.equivalent):
            lines += ["", r.summary()]
            if show_equivalent:
                lines += [f"  equivalent #{result.mutant.number} {result.mutant.description}"
                          for result in r.results if result.status is Status.EQUIVALENT]
    passing = len(reports) - len(below_bar(reports))
    lines += ["", f"{passing} of {len(reports)} problems kill at least {KILL_SHARE_REQUIRED:.0%} "
              f"of their non-equivalent mutants ({seconds:.0f} s)"]
    return "\n".join(lines)

"""Hostile submissions (tests/sandbox/attacks/*.py) against the real sandbox.

Each file declares the verdict it must get; whatever it tries, the learner's view must not show
hidden tests, its text must be storable, it must end in time and leave no container behind
(``tests.utils.attacks.check_attack``). Each runs under both isolations: one learner process for
the submission, and a fresh one per test. The sandbox is a fixture, so another module can run the
same suite under another container runtime (test_attacks_gvisor.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.results import CATEGORY_MESSAGES, TestStatus
from sandbox.docker_runner import DockerSandbox
from sandbox.interface import Isolation
from tests.utils.attacks import (
    ATTACKS_DIR,
    Attack,
    attack_problem,
    check_attack,
    leaks,
    load_attacks,
    parse_attack,
    unsafe_text,
)

ATTACKS = load_attacks()
MIN_ATTACKS = 40


@pytest.fixture(scope="module")
def attack_sandbox(docker_sandbox: DockerSandbox) -> DockerSandbox:
    """The sandbox the attacks run in: Docker's default runtime here."""
    return docker_sandbox


@pytest.fixture(scope="module")
def time_factor() -> float:
    """How much slower than runc this runtime may be; scales each attack's max-seconds."""
    return 1.0


@pytest.mark.docker
@pytest.mark.parametrize("isolation", list(Isolation), ids=[i.value for i in Isolation])
@pytest.mark.parametrize("attack", [attack.param(id=attack.name) for attack in ATTACKS])
def test_attack(attack: Attack, isolation: Isolation, attack_sandbox: DockerSandbox,
                time_factor: float) -> None:
    check_attack(attack, attack_sandbox, time_factor, isolation)


def test_the_suite_has_enough_well_formed_attacks() -> None:
    assert len(ATTACKS) >= MIN_ATTACKS, f"only {len(ATTACKS)} attacks in {ATTACKS_DIR}"
    for attack in ATTACKS:
        problem = attack_problem(attack.problem)  # raises for an unknown problem
        assert f"def {problem.function}(" in attack.code, f"{attack.name} never defines {problem.function}"
        assert attack.max_seconds is None or attack.max_seconds > 0
    assert any(a.under_shared for a in ATTACKS), "no attack states what sharing a process changes"


def test_a_serial_header_marks_the_attack_and_must_say_why(tmp_path: Path) -> None:
    head = "# problem: secret_lookup\n# verdict: wrong_answer\n# attack: x\n"
    (tmp_path / "alone.py").write_text(head + "# serial: it races the clock\ndef lookup(key):\n    return 0\n")
    [mark] = parse_attack(tmp_path / "alone.py").param(id="alone").marks
    assert (mark.name, mark.args) == ("serial", ("it races the clock",))
    assert not any(a.param(id=a.name).marks for a in ATTACKS if not a.serial)
    (tmp_path / "silent.py").write_text(head + "# serial:\ndef lookup(key):\n    return 0\n")
    with pytest.raises(ValueError, match="silent.py: 'serial:' needs the reason"):
        parse_attack(tmp_path / "silent.py")


def test_the_leak_check_finds_hidden_data_and_ignores_public_data() -> None:
    problem = attack_problem("secret_lookup")
    hidden = problem.hidden_tests[0]
    public = problem.public_tests[0]

    def view(first_failure: str, shown: str = "", name: str | None = None) -> dict[str, object]:
        return {"tests": [{"name": name or public.name, "actual": shown}],
                "hidden": {"total": 3, "passed": 0, "not_run": 0, "first_failure": first_failure}}

    assert leaks(problem, "", view(CATEGORY_MESSAGES[TestStatus.WRONG_ANSWER], str(public.expected))) == []
    assert leaks(problem, "", view(f"got {hidden.args[0]}")) == [hidden.args[0]]
    assert leaks(problem, "", view("", f"[{hidden.expected}]")) == [hidden.expected]
    assert leaks(problem, "", view("", name=hidden.name)) == [hidden.name]  # a short name, as a value
    # What the learner's own code holds was not learned from the judge.
    assert leaks(problem, f"KEY = {hidden.args[0]!r}", view(f"got {hidden.args[0]}")) == []
    assert unsafe_text({"a": ["ok", "nul\x00"], "b\udc80": 1}) == ["$.a[1]", "$[key]"]

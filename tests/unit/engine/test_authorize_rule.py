"""``authorize`` is the one rule of who may do what, and the listing's SQL filter agrees with it
for every pair of user and submission. SQLite in a temporary folder: no Docker, no broker."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from service.access import Action, allowed, authorize, readable_submissions
from service.catalog import sync_folders
from service.db.migrate import upgrade
from service.db.models import (
    Assignment,
    Course,
    CourseMember,
    CourseRole,
    ProblemRow,
    Role,
    Submission,
    User,
)
from service.db.session import get_engine
from service.errors import Forbidden, NotFound
from service.users import create_user
from tests.utils.service_env import FIXTURE_PROBLEMS


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    url = f"sqlite:///{tmp_path / 'judge.db'}"
    engine = get_engine(url)
    upgrade(url)
    with sessionmaker(engine, expire_on_commit=False)() as session:
        sync_folders(session, FIXTURE_PROBLEMS)
        session.commit()
        yield session
    engine.dispose()


def _users(session: Session) -> dict[str, User]:
    roles = {"learner": Role.LEARNER, "other_learner": Role.LEARNER, "owner": Role.INSTRUCTOR,
             "other_instructor": Role.INSTRUCTOR, "admin": Role.ADMIN}
    return {name: create_user(session, name, role)[0] for name, role in roles.items()}


def test_problems(session: Session) -> None:
    users = _users(session)
    shipped = session.scalars(select(ProblemRow)).first()
    assert shipped is not None and shipped.published_version_id is not None
    draft = ProblemRow(slug="a_draft", owner_id=users["owner"].id)
    session.add(draft)
    session.flush()

    for name in users:  # a published problem is for everyone to read
        authorize(users[name], Action.READ, shipped)
    authorize(users["owner"], Action.READ, draft)
    authorize(users["admin"], Action.READ, draft)
    for name in ("learner", "other_instructor"):  # someone else's draft does not exist
        with pytest.raises(NotFound, match="no problem 'a_draft'"):
            authorize(users[name], Action.READ, draft)

    authorize(users["owner"], Action.MANAGE, draft)
    authorize(users["admin"], Action.MANAGE, draft)
    with pytest.raises(Forbidden, match="do not own"):
        authorize(users["other_instructor"], Action.MANAGE, draft)
    with pytest.raises(Forbidden, match="only instructors"):
        authorize(users["learner"], Action.MANAGE, shipped)

    for name in ("owner", "other_instructor", "admin"):
        authorize(users[name], Action.AUTHOR)
    with pytest.raises(Forbidden, match="only instructors"):
        authorize(users["learner"], Action.AUTHOR)


def test_copying_someone_elses_problem_needs_it_shareable(session: Session) -> None:
    """A copy holds the hidden tests: the owner and admins copy, anyone else who authors only a
    published problem that is shipped or that its owner shares; a learner copies nothing."""
    users = _users(session)
    shipped = session.scalars(select(ProblemRow).where(ProblemRow.owner_id.is_(None))).first()
    assert shipped is not None and shipped.published_version_id is not None
    authored = ProblemRow(slug="authored", owner_id=users["owner"].id,
                          published_version_id=shipped.published_version_id)
    draft = ProblemRow(slug="a_draft", owner_id=users["owner"].id, shareable=True)
    session.add_all([authored, draft])
    session.flush()

    for name in ("owner", "admin"):
        for problem in (authored, draft, shipped):
            authorize(users[name], Action.COPY, problem)
    authorize(users["other_instructor"], Action.COPY, shipped)
    with pytest.raises(Forbidden, match="'authored' is not shareable"):
        authorize(users["other_instructor"], Action.COPY, authored)
    with pytest.raises(NotFound):  # shareable, but someone else's draft does not exist
        authorize(users["other_instructor"], Action.COPY, draft)
    authored.shareable = True
    authorize(users["other_instructor"], Action.COPY, authored)
    for problem in (authored, shipped):
        with pytest.raises(Forbidden, match="only instructors"):
            authorize(users["learner"], Action.COPY, problem)


def test_submissions_and_the_listing_filter_agree(session: Session) -> None:
    users = _users(session)
    draft = ProblemRow(slug="owned_problem", owner_id=users["owner"].id)
    session.add(draft)
    session.flush()
    shipped = session.scalars(select(ProblemRow).where(ProblemRow.published_version_id.is_not(None))).first()
    assert shipped is not None
    version = shipped.published_version_id
    submissions = [Submission(user_id=users[author].id, problem_id=problem.id, version_id=version,
                              mode="submit", code="pass", request_hash="x")
                   for author in ("learner", "other_learner", "owner")
                   for problem in (shipped, draft)]
    session.add_all(submissions)
    session.flush()

    for user in users.values():
        listed = set(session.scalars(
            select(Submission.id).join(ProblemRow, Submission.problem_id == ProblemRow.id)
            .where(readable_submissions(user))))
        by_rule = {s.id for s in submissions if allowed(user, Action.READ, s)}
        assert listed == by_rule, user.name
        # Insight filters the submissions alone, with no join to their problem: the same answers.
        alone = set(session.scalars(select(Submission.id).where(readable_submissions(user))))
        assert alone == by_rule, user.name
    learner = users["learner"]
    own = {s.id for s in submissions if s.user_id == learner.id}
    assert {s.id for s in submissions if allowed(learner, Action.READ, s)} == own
    other = next(s for s in submissions if s.user_id != learner.id)
    with pytest.raises(NotFound, match=f"no submission {other.id}"):
        authorize(learner, Action.READ, other)
    # The owner of a problem reads every submission to it; the admin reads all.
    assert all(allowed(users["owner"], Action.READ, s) for s in submissions if s.problem_id == draft.id)
    assert all(allowed(users["admin"], Action.READ, s) for s in submissions)


def test_course_instructors_read_their_assignments_submissions_in_both_forms(session: Session) -> None:
    """A course's instructor reads what its learners sent for its assignments, and nothing else of
    theirs; the rule and the listing's filter agree for every user and submission."""
    users = _users(session)
    teacher = create_user(session, "teacher", Role.INSTRUCTOR)[0]
    demoted = create_user(session, "demoted", Role.LEARNER)[0]  # a course instructor made a learner since
    shipped = session.scalars(select(ProblemRow).where(ProblemRow.published_version_id.is_not(None))).first()
    assert shipped is not None
    course = Course(title="c", join_code="code-1", created_by=teacher.id)
    other_course = Course(title="d", join_code="code-2", created_by=users["other_instructor"].id)
    course.members.extend([CourseMember(user_id=teacher.id, role=CourseRole.INSTRUCTOR.value),
                           CourseMember(user_id=demoted.id, role=CourseRole.INSTRUCTOR.value),
                           CourseMember(user_id=users["learner"].id, role=CourseRole.LEARNER.value),
                           CourseMember(user_id=users["other_learner"].id, role=CourseRole.LEARNER.value)])
    other_course.members.append(CourseMember(user_id=users["other_instructor"].id, role=CourseRole.INSTRUCTOR.value))
    session.add_all([course, other_course])
    session.flush()
    now = datetime(2030, 1, 1)
    week, elsewhere = (Assignment(course_id=c.id, title="w", opens_at=now, due_at=now + timedelta(days=7))
                       for c in (course, other_course))
    session.add_all([week, elsewhere])
    session.flush()
    sent = {(author, target): Submission(
        user_id=users[author].id, problem_id=shipped.id, version_id=shipped.published_version_id, mode="submit",
        code="pass", request_hash="x", assignment_id=None if target is None else target.id)
        for author in ("learner", "other_learner") for target in (week, elsewhere, None)}
    # A try and a run sent for the assignment are the learner's own experiments, not handed in.
    experiments = [Submission(user_id=users["learner"].id, problem_id=shipped.id,
                              version_id=shipped.published_version_id, mode=mode, code="pass",
                              request_hash="x", assignment_id=week.id) for mode in ("try", "run")]
    session.add_all([*sent.values(), *experiments])
    session.flush()
    assert not any(allowed(teacher, Action.READ, s) for s in experiments)
    assert all(allowed(users["learner"], Action.READ, s) for s in experiments)

    everyone = [*users.values(), teacher, demoted]
    for user in everyone:
        listed = set(session.scalars(
            select(Submission.id).join(ProblemRow, Submission.problem_id == ProblemRow.id)
            .where(readable_submissions(user))))
        assert listed == {s.id for s in [*sent.values(), *experiments] if allowed(user, Action.READ, s)}, user.name
    assert {key for key, s in sent.items() if allowed(teacher, Action.READ, s)} == {
        ("learner", week), ("other_learner", week)}
    assert {key for key, s in sent.items() if allowed(users["other_instructor"], Action.READ, s)} == {
        ("learner", elsewhere), ("other_learner", elsewhere)}
    assert not any(allowed(demoted, Action.READ, s) for s in sent.values())
    with pytest.raises(NotFound):
        authorize(teacher, Action.READ, sent[("learner", None)])

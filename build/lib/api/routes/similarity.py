"""Two submissions of one problem side by side under /similarity, with the line ranges that match
(for those who may see the problem's insight; ``service.similarity_reports`` decides). The pairs of
a problem worth comparing are listed under /problems/{slug}/similarity (``api.routes.insight``).
"""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import Instructor, SessionDep
from api.routes.insight import matches_out
from api.schemas.bounds import Id
from api.schemas.insight import CodeOut, SideBySideOut
from service import similarity_reports
from service.db.models import Submission

router = APIRouter(prefix="/similarity", tags=["insight"])


def _code(submission: Submission) -> CodeOut:
    return CodeOut(submission=submission.id, user=submission.user.name, problem=submission.problem.slug,
                   created_at=submission.created_at, code=submission.code)


@router.get("/{a}/{b}", response_model=SideBySideOut)
def side_by_side(a: Id, b: Id, session: SessionDep, user: Instructor) -> SideBySideOut:
    """Two submissions of one problem side by side, with the line ranges that match."""
    pair = similarity_reports.side_by_side(session, user, a, b)
    return SideBySideOut(a=_code(pair.a), b=_code(pair.b), similarity=round(pair.comparison.similarity, 4),
                         matches=matches_out(pair.comparison.matches))

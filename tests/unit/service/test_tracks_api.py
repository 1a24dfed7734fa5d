"""/tracks and a problem's place in its track, as learners see them through the API."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import WRONG, error, read
from tests.utils.courses import API, assignment_body, new_course
from tests.utils.service import REFERENCE, bearer, submit
from tests.utils.service_fixtures import Tokens


def test_tracks_show_published_problems_with_ones_own_progress(
        client: TestClient, new_user: Callable[[Role], str]) -> None:
    learner, other = new_user(Role.LEARNER), new_user(Role.LEARNER)
    tracks = client.get("/api/v1/tracks", headers=bearer(learner)).json()
    assert [t["slug"] for t in tracks] == ["lookups", "later"]
    lookups, later = tracks
    # Problems with no published version (here: no folder at all) are left out of everything.
    assert [p["slug"] for p in lookups["problems"]] == ["secret_lookup"]
    assert (lookups["solved"], lookups["total"], lookups["next"]) == (0, 1, "secret_lookup")
    assert (later["problems"], later["total"], later["next"]) == ([], 0, None)
    assert lookups["problems"][0]["progress"] is None and lookups["problems"][0]["requires"] == []

    read(client, learner, submit(client, learner, WRONG)["id"])
    one = client.get("/api/v1/tracks/lookups", headers=bearer(learner)).json()
    assert one["problems"][0]["progress"] == "attempted" and one["next"] == "secret_lookup"
    read(client, learner, submit(client, learner, REFERENCE)["id"])
    one = client.get("/api/v1/tracks/lookups", headers=bearer(learner)).json()
    assert (one["problems"][0]["progress"], one["solved"], one["next"]) == ("solved", 1, None)
    # Nobody else's progress shows.
    theirs = client.get("/api/v1/tracks/lookups", headers=bearer(other)).json()
    assert (theirs["solved"], theirs["next"]) == (0, "secret_lookup")


def test_a_problem_names_its_place_in_its_track(client: TestClient, new_user: Callable[[Role], str]) -> None:
    learner = new_user(Role.LEARNER)
    detail = client.get("/api/v1/problems/secret_lookup", headers=bearer(learner)).json()
    assert detail["track"] == {"slug": "lookups", "title": "Lookups", "position": 1, "total": 1,
                               "previous": None, "next": None}


def test_an_unknown_track_is_a_404_that_names_the_known_ones(client: TestClient,
                                                             new_user: Callable[[Role], str]) -> None:
    learner = new_user(Role.LEARNER)
    message = error(client.get("/api/v1/tracks/nope", headers=bearer(learner)), 404, "not_found")
    assert "'nope'" in message and "lookups, later" in message
    error(client.get("/api/v1/tracks/" + "x" * 65, headers=bearer(learner)), 422, "invalid_input")
    error(client.get("/api/v1/tracks"), 401, "unauthorized")


def test_an_assignment_is_built_from_a_track_in_one_step(client: TestClient, tokens: Tokens) -> None:
    course = new_course(client, tokens.instructor)
    path = f"{API}/courses/{course['id']}/assignments"
    body = {**assignment_body([]), "track": "lookups"}
    del body["problems"]
    made = client.post(path, headers=bearer(tokens.instructor), json=body)
    assert made.status_code == 201, made.text
    # The track's published problems, in its order (not_shipped has no published version).
    assert [p["slug"] for p in made.json()["problems"]] == ["secret_lookup"]
    for wrong, start in [({"track": "nope"}, "track: no track 'nope'; the tracks are: lookups, later"),
                         ({"track": "later"}, "problems: an assignment has 1 to 50 problems, not 0"),
                         ({"track": "lookups", "problems": ["secret_lookup"]}, "give problems or a track")]:
        message = error(client.post(path, headers=bearer(tokens.instructor),
                                    json={**assignment_body([]), **wrong}), 422, "invalid_input")
        assert message.startswith(start), message

"""The contract the OpenAPI document gives a client developer, held to the code.

- The results schema: a real ``Report.as_json()`` (the engine's grading of real problems, in
  the exec sandbox) validates against the response models that describe it, and they give it
  back key for key (``api.schemas.common``).
- Errors: every route documents the error model for each status it can answer, as far as its
  signature shows (a path parameter: 404; a caller: 401; a body: 422), and FastAPI's
  HTTPValidationError is gone (``api.openapi``).
- operationIds are the chosen ones, unique; every JSON body has an example that fits its schema;
  times are answered with an offset.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel

import api.schemas
from api.openapi import OPERATION_IDS
from api.schemas.common import ErrorCode, HiddenAggregate, TestResultOut
from judge.grading import grade
from judge.problems import discover, load_problem
from judge.results import HiddenPolicy, Report, TestResult, TestStatus, Verdict, Visibility
from service.errors import STATUS
from service.settings import get_settings
from tests.unit.service.exec_sandbox import ExecSandbox
from tests.unit.service.helpers import SUBMISSIONS, post_json, read
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"
METHODS = ("get", "put", "post", "delete", "patch")


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, item in schema["paths"].items()
            for method, op in item.items() if method in METHODS]


@pytest.fixture(scope="module")
def schema(client: TestClient) -> dict[str, Any]:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------------
# The results schema


def _round_trip(tests: list[dict[str, Any]]) -> None:
    for test in tests:
        model = TestResultOut.model_validate(test)
        assert model.model_dump(mode="json") == json.loads(json.dumps(test)), test["name"]


WRONG_CODE = "def {name}(*args, **kwargs):\n    print('hi')\n    return None\n"


@pytest.mark.parametrize("folder", sorted(discover(PROBLEMS))[:6], ids=lambda f: f.name)
def test_a_real_report_validates_against_the_result_models(folder: Path) -> None:
    problem = load_problem(folder)
    reports = [grade(problem, problem.reference, ExecSandbox()),
               grade(problem, WRONG_CODE.format(name=problem.function), ExecSandbox())]
    assert reports[0].verdict is Verdict.ACCEPTED and reports[1].verdict is not Verdict.ACCEPTED
    for report in reports:
        full = report.as_json(full=True)
        assert full["tests"] and any(t["visibility"] == "hidden" for t in full["tests"])
        _round_trip(full["tests"])
        for policy in HiddenPolicy:
            report.hidden_policy = policy
            learner = report.as_json()
            _round_trip(learner["tests"])
            hidden = HiddenAggregate.model_validate(learner["hidden"])
            assert hidden.model_dump(mode="json", exclude_unset=True) == learner["hidden"]
            assert (hidden.tests is not None) == (policy is HiddenPolicy.PER_TEST)


def test_every_status_and_a_try_fit_the_result_model() -> None:
    tests = [TestResult(name=f"t{i}", visibility=Visibility.PUBLIC, status=status, category=status.value,
                        seconds=0.1, args=[float("nan"), (1, 2)], kwargs={"k": {3: "x\x00"}},
                        expected={"a": float("inf")}, actual="x" * 50_000, stdout="o" * 100_000, note="n")
             for i, status in enumerate(TestStatus)]  # printed text past the budget: budget notes
    tests.append(TestResult(name="try", visibility=Visibility.CUSTOM, status=TestStatus.PASSED,
                            args=[1], kwargs={}, expected=list(range(20_000)), actual=[1]))
    report = Report(Verdict.WRONG_ANSWER, 0.1, "p", "v1", tests=tests)
    _round_trip(report.as_json(full=True)["tests"])
    assert any(t["budget_note"] for t in report.as_json(full=True)["tests"]), "the budget was not reached"


# ---------------------------------------------------------------------------------------------
# Errors


def _statuses(op: dict[str, Any]) -> set[int]:
    return {int(s) for s in op["responses"] if s.isdigit()}


def test_every_route_documents_the_errors_its_signature_shows(schema: dict[str, Any]) -> None:
    missing = []
    for path, method, op in _operations(schema):
        need = {500}
        if any(p["in"] == "path" for p in op.get("parameters", [])):
            need.add(404)
        if op.get("security"):
            need.add(401)
        if "requestBody" in op or op.get("parameters"):
            need.add(422)
        if "requestBody" in op:
            need.add(413)
        if gaps := need - _statuses(op):
            missing.append(f"{method.upper()} {path}: {sorted(gaps)}")
        for status, answer in op["responses"].items():
            if int(status) >= 400:
                assert answer["content"]["application/json"]["schema"] == {
                    "$ref": "#/components/schemas/ErrorBody"} or path == "/readyz", (path, status)
    assert not missing, missing


def test_no_framework_validation_error_is_left(schema: dict[str, Any]) -> None:
    text = json.dumps(schema)
    assert "HTTPValidationError" not in text and '"ValidationError"' not in text
    assert "#/components/schemas/ValidationError" not in text


def test_the_error_code_enum_holds_every_code() -> None:
    assert set(STATUS) <= {c.value for c in ErrorCode}


def test_a_real_error_fits_the_documented_model(client: TestClient, tokens: Tokens,
                                                schema: dict[str, Any]) -> None:
    error_schema = {**schema["components"]["schemas"]["ErrorBody"],
                    "components": schema["components"]}
    validator = _validator(error_schema)
    for response in (client.get(f"{SUBMISSIONS}/99999", headers=bearer(tokens.learner)),
                     client.get(f"{SUBMISSIONS}/x", headers=bearer(tokens.learner)),
                     client.get(SUBMISSIONS),
                     read(client, tokens.learner, 1, wait="inf"),
                     read(client, tokens.learner, 1, wait="nan"),
                     read(client, tokens.learner, 1, wait=10_000)):
        assert response.status_code in (401, 404, 422), response.text
        validator.validate(response.json())


def test_wait_beyond_the_maximum_inf_and_nan_are_refused(client: TestClient, tokens: Tokens,
                                                        schema: dict[str, Any]) -> None:
    wait = next(p for p in schema["paths"]["/api/v1/submissions/{submission_id}"]["get"]["parameters"]
                if p["name"] == "wait")
    maximum = wait["schema"]["maximum"]
    for value in ("inf", "-inf", "nan", "Infinity", str(maximum + 1)):
        response = read(client, tokens.learner, 1, wait=value)
        assert response.status_code == 422 and response.json()["error"]["param"] == "query.wait", (
            value, response.text)


def test_a_callback_url_is_a_uri_no_longer_than_the_setting(schema: dict[str, Any]) -> None:
    """A generated client types it, and schemathesis sends one; the service still reads the text."""
    for model in ("SubmissionCreate", "BatchCreate"):
        field = schema["components"]["schemas"][model]["properties"]["callback_url"]
        [text] = [option for option in field["anyOf"] if option.get("type") == "string"]
        assert text["format"] == "uri", model
        assert text["maxLength"] == get_settings().webhook_max_url_length, model
    # A batch's items take none (the batch's own is posted for every item).
    assert "callback_url" not in schema["components"]["schemas"]["BatchItem"]["properties"]


# ---------------------------------------------------------------------------------------------
# operationIds, examples, times


def test_operation_ids_are_the_chosen_ones_and_unique(schema: dict[str, Any]) -> None:
    ids = [op["operationId"] for _, _, op in _operations(schema)]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", i) for i in ids), ids
    assert set(OPERATION_IDS.values()) <= set(ids), set(OPERATION_IDS.values()) - set(ids)
    found = {(m, p): op["operationId"] for p, m, op in _operations(schema)}
    assert found[("post", "/api/v1/submissions")] == "submissions_create"
    assert found[("get", "/api/v1/submissions/{submission_id}")] == "submissions_get"
    assert found[("get", "/api/v1/submissions")] == "submissions_list"
    assert found[("get", "/api/v1/problems")] == "problems_list"


def _validator(node: dict[str, Any]) -> jsonschema_rs.Draft202012Validator:
    # OpenAPI 3.1 schemas are JSON Schema 2020-12 (the validator schemathesis uses); refs point
    # into the document's components, carried along in the node.
    return jsonschema_rs.Draft202012Validator(node, validate_formats=True)


def test_every_json_body_has_an_example_that_fits_its_schema(schema: dict[str, Any]) -> None:
    checked = 0
    for path, method, op in _operations(schema):
        bodies = [("request", op.get("requestBody", {})), *op["responses"].items()]
        for status, body in bodies:
            content = body.get("content", {}).get("application/json")
            if not content:
                continue
            assert "example" in content or "examples" in content, (method, path, status)
            example = content.get("example", next(iter(content.get("examples", {}).values()), {}))
            node = {**content["schema"], "components": schema["components"]}
            errors = list(_validator(node).iter_errors(example))
            assert not errors, (method, path, status, errors[0].message)
            checked += 1
    assert checked > 100


def _bare_times(models: list[type[BaseModel]]) -> list[str]:
    """Fields holding a datetime that is not ``UtcTime`` (which serialises with a Z)."""
    found = []
    for model in models:
        for name, info in model.model_fields.items():
            text = repr(info.annotation) + repr(info.metadata)
            if "datetime" in text and "_zulu" not in text:
                found.append(f"{model.__module__}.{model.__qualname__}.{name}")
    return found


def test_every_time_of_every_body_model_is_utc_time() -> None:
    modules = [api.schemas, *(importlib.import_module(f"api.schemas.{m.name}")
                              for m in pkgutil.iter_modules(api.schemas.__path__))]
    models = [obj for module in modules for obj in vars(module).values()
              if isinstance(obj, type) and issubclass(obj, BaseModel) and obj.__module__ == module.__name__]
    assert len(models) > 50

    class Bare(BaseModel):
        at: datetime | None

    assert _bare_times([Bare]) == [f"{__name__}.{Bare.__qualname__}.at"]  # the check sees one
    assert _bare_times(models) == []


def test_times_are_answered_with_an_offset(client: TestClient, tokens: Tokens) -> None:
    created = post_json(client, tokens.learner, {"problem": "secret_lookup",
                                                 "code": "def lookup(key):\n    return key\n"})
    assert created.status_code in (200, 202), created.text
    body = read(client, tokens.learner, created.json()["id"]).json()
    stamps = [body["created_at"], body["started_at"], body["finished_at"]]
    listed = client.get(SUBMISSIONS, headers=bearer(tokens.learner)).json()["items"][0]["created_at"]
    tokens_list = client.get("/api/v1/me/tokens", headers=bearer(tokens.learner)).json()
    stamps += [listed, *[t["created_at"] for t in tokens_list]]
    assert stamps and all(s is None or s.endswith("Z") for s in stamps), stamps
    assert body["created_at"] is not None

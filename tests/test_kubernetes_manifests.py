"""deploy/kubernetes: every manifest is valid for Kubernetes, checked against its own OpenAPI
schemas offline (kubernetes-validate, strict: an unknown field is an error, not ignored); each
container has resource limits; the workers that judge run only on sandbox nodes, with the
engine's socket; and the settings are the compose stack's (docker-compose.yml)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from sqlalchemy import make_url

FOLDER = Path(__file__).resolve().parent.parent / "deploy" / "kubernetes"
VERSIONS = ("1.29.0", "1.33.0")  # the oldest supported release we promise, and a recent one


def manifests() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted(FOLDER.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for document in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if document:
                found.append((f"{path.name}: {document['kind']} {document['metadata']['name']}", document))
    return found


@pytest.mark.parametrize("version", VERSIONS)
def test_every_manifest_is_valid_kubernetes(version: str) -> None:
    documents = manifests()
    assert {d["kind"] for _, d in documents} >= {"Namespace", "ConfigMap", "Deployment", "Service", "Ingress"}
    for name, document in documents:
        try:
            kubernetes_validate.validate(document, version, strict=True)
        except kubernetes_validate.ValidationError as exc:
            pytest.fail(f"{name} is not valid for Kubernetes {version}: {exc.message} at {list(exc.path)}")


def test_the_kustomization_names_every_manifest() -> None:
    named = yaml.safe_load((FOLDER / "kustomization.yaml").read_text(encoding="utf-8"))["resources"]
    assert sorted(named) == sorted(p.name for p in FOLDER.glob("*.yaml") if p.name != "kustomization.yaml")


def deployments() -> dict[str, dict[str, Any]]:
    return {d["metadata"]["name"]: d for _, d in manifests() if d["kind"] == "Deployment"}


def test_limits_sandbox_nodes_and_the_socket() -> None:
    found = deployments()
    assert set(found) == {"api", "worker", "validation-worker", "webhook-worker"}
    for name, deployment in found.items():
        pod = deployment["spec"]["template"]["spec"]
        [main] = pod["containers"]
        assert {"cpu", "memory"} <= set(main["resources"]["limits"]), name
        sockets = [v for v in pod["volumes"] if v.get("hostPath", {}).get("path") == "/var/run/docker.sock"]
        judges = name in ("worker", "validation-worker")
        # Only the judging workers hold the engine's socket, and only on sandbox nodes.
        assert bool(sockets) == judges, name
        assert (pod.get("nodeSelector") == {"metrics-judge/sandbox": "true"}) == judges, name
        assert {"name": "secrets", "mountPath": "/run/secrets", "readOnly": True} in main["volumeMounts"], name


def test_the_settings_are_the_compose_stacks() -> None:
    [config] = [d for _, d in manifests() if d["kind"] == "ConfigMap"]
    compose = (FOLDER.parent.parent / "docker-compose.yml").read_text(encoding="utf-8")
    in_compose = set(re.findall(r"^\s+(JUDGE_[A-Z_]+):", compose, re.MULTILINE))
    assert set(config["data"]) <= in_compose, set(config["data"]) - in_compose
    # The passwords come from the secret's files, never from the URLs.
    assert make_url(config["data"]["JUDGE_DATABASE_URL"]).password is None
    assert "@" not in config["data"]["JUDGE_BROKER_URL"]

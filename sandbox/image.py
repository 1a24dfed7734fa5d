"""Builds the sandbox image, from python:3.11-slim or offline from a debootstrap root file system.

The image bakes the whole of sandbox/inside (its Dockerfile included) and nothing else, and its
tag is a hash of that folder's file names and bytes: any change to an in-container file is a new
tag, so ``ensure_image`` builds it and a stale image is never used.

Several deployments may share one engine (JUDGE_DEPLOYMENT names each), and the same version's
image with them. Each deployment claims the image it uses with a second tag, ``HASH.NAME``; an
older image is removed only once no deployment claims it (its own claim is dropped first), and
by tag, never by id, so what another repository tags stays too.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path

import docker
from docker.errors import APIError, BuildError, DockerException, ImageNotFound

from sandbox.interface import SandboxUnavailable

HERE = Path(__file__).resolve().parent
INSIDE = HERE / "inside"
ONLINE_BASE = "python:3.11-slim"
OFFLINE_BASE = "metrics-judge-base:bookworm"
REPOSITORY = "metrics-judge-sandbox"

Progress = Callable[[str], None]


def baked_files(folder: Path = INSIDE) -> list[tuple[str, Path]]:
    """What the image holds: every file under the folder, by its path there, in a fixed order.
    Byte code is left out: Python writes it beside the sources on the host, never in the image."""
    found = []
    for path in folder.rglob("*"):
        relative = path.relative_to(folder)
        if path.is_file() and "__pycache__" not in relative.parts and path.suffix != ".pyc":
            found.append((relative.as_posix(), path))
    return sorted(found)


def image_tag(folder: Path = INSIDE) -> str:
    digest = hashlib.sha256()
    for name, path in baked_files(folder):
        # Each name and its size go in before the bytes, so no two folders hash alike by moving
        # bytes from one file to the next.
        data = path.read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode() + data)
    return f"{REPOSITORY}:{digest.hexdigest()[:12]}"


def has_image(client: docker.DockerClient, tag: str) -> bool:
    try:
        client.images.get(tag)
    except ImageNotFound:
        return False
    return True


def _online_base_ready(client: docker.DockerClient, progress: Progress) -> bool:
    if has_image(client, ONLINE_BASE):
        return True
    progress(f"pulling {ONLINE_BASE}")
    try:
        client.images.pull(ONLINE_BASE)
    except DockerException as exc:
        progress(f"no registry reachable ({str(exc).splitlines()[0][:80]}); building offline")
        return False
    return True


def build_offline_base(client: docker.DockerClient, progress: Progress) -> None:
    """Make the base image from Debian packages with debootstrap (needs root)."""
    if has_image(client, OFFLINE_BASE):
        return
    progress("building the offline base with debootstrap (about a minute)")
    done = subprocess.run(
        ["bash", str(HERE / "build_rootfs.sh"), OFFLINE_BASE], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SandboxUnavailable(f"the offline base build failed: {done.stderr.strip()[-500:]}")


def _context() -> io.BytesIO:
    """The build context: exactly the hashed files, so the tag and the image agree."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, path in baked_files():
            tar.add(path, arcname=name)
    buffer.seek(0)
    return buffer


def build_image(
    client: docker.DockerClient, offline: bool | None = None, progress: Progress = lambda _: None,
    deployment: str = "default",
) -> str:
    """Build the sandbox image; offline=None tries the registry first and falls back."""
    tag = image_tag()
    if offline is None:
        offline = not _online_base_ready(client, progress)
    if offline:
        build_offline_base(client, progress)
    base = OFFLINE_BASE if offline else ONLINE_BASE
    progress(f"building {tag} from {base}")
    try:
        client.images.build(
            fileobj=_context(), custom_context=True, tag=tag, buildargs={"BASE": base}, rm=True,
            forcerm=True, network_mode="none", pull=False,
        )
    except (BuildError, APIError) as exc:
        raise SandboxUnavailable(f"the sandbox image build failed: {exc}") from exc
    progress(f"built {tag}")
    claim_image(client, tag, deployment)
    return tag


def claim_image(client: docker.DockerClient, tag: str, deployment: str) -> None:
    """Tag ``tag`` as this deployment's, and give up this deployment's older images."""
    repository, _, version = tag.rpartition(":")
    with contextlib.suppress(APIError):
        client.images.get(tag).tag(repository, f"{version}.{deployment}")
    remove_stale_images(client, tag, deployment)


def remove_stale_images(client: docker.DockerClient, keep: str, deployment: str) -> None:
    """Drop this deployment's claims on images other than ``keep``, then remove the tags of every
    such image that no deployment claims any more (an image still in use by a container stays:
    the engine refuses, and the next build tries again)."""
    repository = keep.rpartition(":")[0]
    versions: dict[str, set[str | None]] = {}  # version -> the deployments claiming it (None: its plain tag)
    for image in client.images.list(name=repository):
        for tag in image.tags:
            name, _, rest = tag.rpartition(":")
            if name == repository:
                version, _, owner = rest.partition(".")
                versions.setdefault(version, set()).add(owner or None)
    current = keep.rpartition(":")[2]
    for version, owners in versions.items():
        if version == current:
            continue
        if deployment in owners:
            _untag(client, f"{repository}:{version}.{deployment}")
            owners.discard(deployment)
        if owners <= {None}:  # claimed by nobody now
            _untag(client, f"{repository}:{version}")


def _untag(client: docker.DockerClient, tag: str) -> None:
    with contextlib.suppress(APIError):  # in use by a container, or gone meanwhile
        client.images.remove(tag)


def ensure_image(
    client: docker.DockerClient, offline: bool | None = None, progress: Progress = lambda _: None,
    deployment: str = "default",
) -> str:
    """The current sandbox image's tag, building it first when it is missing; claimed for
    ``deployment`` either way."""
    tag = image_tag()
    if has_image(client, tag):
        claim_image(client, tag, deployment)
    else:
        build_image(client, offline, progress, deployment)
    return tag

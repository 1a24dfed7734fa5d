"""Receiving a problem upload: the body is awaited on the event loop, everything else is not.

``received`` awaits the request body (JSON bytes, or a multipart form whose file starlette spools
to disk); ``uploaded_files`` turns it into (slug, files) and is blocking, so routes call it from
the thread pool.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import BinaryIO

from fastapi import Request
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from api.schemas import ProblemUpdate
from judge.archives import files_from_archive
from judge.errors import InvalidInput, ProblemError


@dataclass(frozen=True)
class Upload:
    """A request body received in full: JSON bytes, or an archive spooled to a temporary file."""

    json_body: bytes = b""
    archive: BinaryIO | None = None
    filename: str = ""
    slug: str | None = None


@asynccontextmanager
async def received(request: Request) -> AsyncIterator[Upload]:
    """Await the body; the only part of an upload that runs on the event loop.

    Starlette spools a multipart file to a SpooledTemporaryFile (on disk past 1 MiB, the body
    itself capped by BodyLimit); its file object is passed on and read there, never as one blob.
    """
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        try:
            form = await request.form()
        except HTTPException as exc:  # starlette's 400 for a body that is not valid multipart
            raise InvalidInput(f"archive: the multipart body is malformed ({exc.detail})") from exc
        try:
            archive = form.get("archive")
            if archive is None or isinstance(archive, str):
                raise InvalidInput("archive: upload the problem folder as a file field named 'archive'")
            slug = form.get("slug")
            yield Upload(archive=archive.file, filename=archive.filename or "",
                         slug=slug if isinstance(slug, str) else None)
        finally:
            await form.close()  # deletes the spooled file now, not when the request is collected
    else:
        yield Upload(json_body=await request.body())


def uploaded_files(upload: Upload) -> tuple[str | None, dict[str, str]]:
    """(slug, files) from a JSON body or an archive; blocking, so run in the thread pool."""
    if upload.archive is not None:
        try:
            files = files_from_archive(upload.archive, upload.filename)
        except ProblemError as exc:
            raise InvalidInput(f"archive: {exc}") from exc
        return upload.slug, files
    try:
        body = json.loads(upload.json_body)
    except ValueError as exc:
        raise InvalidInput("send the problem as JSON {slug, files} or as a multipart archive") from exc
    try:
        update = ProblemUpdate.model_validate(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InvalidInput(f"{'.'.join(map(str, first['loc']))}: {first['msg']}") from exc
    slug = body.get("slug") if isinstance(body, dict) else None
    return (slug if isinstance(slug, str) else None), update.files

"""Reading an uploaded problem archive (.zip, .tar, .tar.gz, .tar.bz2, .tar.xz) member by member.

Nothing is trusted before it is counted: a tar is read as a stream through a reader that counts
the bytes it decompresses and stops at a cap, so a small bomb stops there instead of expanding;
a zip's entry count and directory size are read from its end record before zipfile parses the
directory, and each member is read with a byte cap whatever size it declares. Names, member
count and sizes are checked as each header arrives, and every refusal is a ProblemError that
names the member.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import BinaryIO, Protocol

from judge.errors import ProblemError
from judge.problem_paths import MAX_FILES, MAX_TOTAL_BYTES, FolderTree, shown

MAX_MEMBERS = 2 * MAX_FILES  # every header, folders included
# Tar headers, long-name and pax records and padding come on top of the files' own bytes.
MAX_TAR_STREAM_BYTES = MAX_TOTAL_BYTES + MAX_MEMBERS * 4096 + 64 * 1024
# A central directory entry is 46 bytes plus its name, extra field and comment.
MAX_ZIP_DIRECTORY_BYTES = MAX_MEMBERS * (46 + 255 + 1024)

# Errors the decompressors and parsers raise on damaged input (ProblemError is caught first).
_DAMAGED = (tarfile.TarError, zipfile.BadZipFile, OSError, EOFError, lzma.LZMAError, zlib.error,
            ValueError, NotImplementedError, struct.error, OverflowError, IndexError)


class _Members:
    """The files read so far, under the archive-wide caps."""

    def __init__(self) -> None:
        self.tree = FolderTree("member")
        self.files: dict[str, bytes] = {}
        self.count = 0
        self.total = 0

    def header(self, name: str) -> None:
        self.count += 1
        if self.count > MAX_MEMBERS:
            raise ProblemError(f"member {shown(name)}: an archive may hold at most {MAX_MEMBERS} members")

    def add(self, name: str, declared: int, read: Callable[[int], bytes]) -> None:
        """Read one file with read(limit), refusing it once it passes the bytes left."""
        path = self.tree.add_file(name)
        left = MAX_TOTAL_BYTES - self.total
        too_big = ProblemError(f"member {shown(name)}: the files add up to more than "
                               f"{MAX_TOTAL_BYTES // 2**20} MiB")
        if declared > left:
            raise too_big
        data = read(left + 1)
        if len(data) > left:
            raise too_big
        self.total += len(data)
        self.files[path] = data


class _Capped(io.RawIOBase):
    """A read-only file that raises once more than ``cap`` bytes have been read through it."""

    def __init__(self, inner: _Readable, cap: int) -> None:
        super().__init__()
        self.inner = inner
        self.cap = cap
        self.count = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        size = -1 if size is None else size
        room = self.cap + 1 - self.count  # one byte over is enough to know
        data = self.inner.read(room if size < 0 else min(size, room))
        self.count += len(data)
        if self.count > self.cap:
            raise _Expanded
        return data


class _Expanded(Exception):
    """The decompressed stream went past its cap."""


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def _decompressed(raw: BinaryIO) -> AbstractContextManager[_Readable]:
    """raw's tar stream, decompressing by magic number (gzip, bzip2, xz) as it is read.

    Closing the decompressor leaves raw open: the caller owns the upload.
    """
    head = raw.read(6)
    raw.seek(0)
    if head.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if head.startswith(b"BZh"):
        return bz2.BZ2File(raw, "rb")
    if head.startswith(b"\xfd7zXZ\x00"):
        return lzma.LZMAFile(raw, "rb")
    return nullcontext(raw)


def _kind(member: tarfile.TarInfo) -> str:
    kinds = [(member.issym, "a symbolic link"), (member.islnk, "a hard link"),
             (member.ischr, "a character device"), (member.isblk, "a block device"),
             (member.isfifo, "a FIFO"), (member.issparse, "a sparse file")]
    return next((text for test, text in kinds if test()), f"of tar type {member.type!r}")


def _read_tar(raw: BinaryIO, members: _Members, filename: str) -> None:
    where = "before the first member"
    try:
        with _decompressed(raw) as plain, tarfile.open(fileobj=_Capped(plain, MAX_TAR_STREAM_BYTES),
                                                       mode="r|") as archive:
            for member in archive:
                where = f"member {shown(member.name)}"
                members.header(member.name)
                if member.isdir():
                    members.tree.add_folder(member.name)
                elif not member.isreg() or member.issparse():
                    raise ProblemError(f"{where}: is {_kind(member)}; only files and folders are allowed")
                else:
                    extracted = archive.extractfile(member)
                    assert extracted is not None  # a regular member always has a file object
                    members.add(member.name, member.size, extracted.read)
                where = f"after member {shown(member.name)}"
    except _Expanded:
        raise ProblemError(f"{where}: the archive expands to more than "
                           f"{MAX_TAR_STREAM_BYTES // 2**20} MiB") from None
    except ProblemError:
        raise
    except _DAMAGED as exc:
        raise ProblemError(f"{where}: {filename or 'the upload'} is not a readable zip or tar "
                           f"archive ({exc})") from None


_END = struct.Struct("<4s4H2LH")  # end of central directory record
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_END = struct.Struct("<4sQ2H2L4Q")


def _zip_directory(raw: BinaryIO) -> tuple[int, int]:
    """(entries, directory bytes) from the end record, found the way zipfile finds it."""
    size = raw.seek(0, 2)
    tail_size = min(size, _END.size + 65535)
    raw.seek(size - tail_size)
    tail = raw.read(tail_size)
    at = len(tail) - _END.size
    if not (at >= 0 and tail[at:at + 4] == b"PK\x05\x06" and tail[-2:] == b"\x00\x00"):
        at = tail.rfind(b"PK\x05\x06")  # the record is followed by an archive comment
    if at < 0 or at + _END.size > len(tail):
        raise ProblemError("the zip has no end-of-central-directory record")
    _, disk, _, _, entries, directory, _, _ = _END.unpack_from(tail, at)
    if disk != 0:
        raise ProblemError("the zip spans several disks")
    if entries == 0xFFFF or directory == 0xFFFFFFFF:
        locator_at = size - tail_size + at - _ZIP64_LOCATOR.size
        if locator_at < 0:
            raise ProblemError("the zip64 end record is missing")
        raw.seek(locator_at)
        signature, _, end_at, _ = _ZIP64_LOCATOR.unpack(raw.read(_ZIP64_LOCATOR.size))
        raw.seek(end_at)
        record = raw.read(_ZIP64_END.size)
        if signature != b"PK\x06\x07" or len(record) < _ZIP64_END.size or record[:4] != b"PK\x06\x06":
            raise ProblemError("the zip64 end record is missing")
        entries, directory = _ZIP64_END.unpack(record)[7:9]
    return entries, directory


def _zip_kind(info: zipfile.ZipInfo) -> str | None:
    """Why a zip entry is not a regular file, or None when it is (or records no Unix mode)."""
    mode = info.external_attr >> 16
    if stat.S_IFMT(mode) in (0, stat.S_IFREG):
        return None
    return "a symbolic link" if stat.S_ISLNK(mode) else f"a special file (mode {oct(mode)})"


def _read_zip(raw: BinaryIO, members: _Members) -> None:
    where = "the end record"
    try:
        entries, directory = _zip_directory(raw)
        if entries > MAX_MEMBERS:
            raise ProblemError(f"the zip lists {entries} entries; an archive may hold at most {MAX_MEMBERS}")
        if directory > MAX_ZIP_DIRECTORY_BYTES:
            raise ProblemError(f"the zip's central directory is {directory} bytes; "
                               f"at most {MAX_ZIP_DIRECTORY_BYTES} for {MAX_MEMBERS} entries")
        where = "the central directory"
        raw.seek(0)
        with zipfile.ZipFile(raw) as archive:
            for info in archive.infolist():
                name = info.orig_filename  # zipfile cuts .filename at a NUL; the rules must see it
                where = f"member {shown(name)}"
                members.header(name)
                if info.flag_bits & 0x1:
                    raise ProblemError(f"{where}: is encrypted")
                if info.is_dir():
                    members.tree.add_folder(name)
                elif kind := _zip_kind(info):
                    raise ProblemError(f"{where}: is {kind}; only files and folders are allowed")
                else:
                    with archive.open(info) as extracted:
                        members.add(name, info.file_size, extracted.read)
    except ProblemError:
        raise
    except (*_DAMAGED, RuntimeError) as exc:
        raise ProblemError(f"{where}: the zip is damaged ({exc})") from None


def _strip_top_folder(files: dict[str, str]) -> dict[str, str]:
    """problem/a.py -> a.py when everything sits in one top-level folder (a zipped folder)."""
    tops = {name.split("/", 1)[0] for name in files}
    if len(tops) == 1 and all("/" in name for name in files):
        return {name.split("/", 1)[1]: text for name, text in files.items()}
    return files


def files_from_archive(raw: BinaryIO, filename: str = "") -> dict[str, str]:
    """The text files of a problem folder uploaded as an archive; one top-level folder is stripped.

    raw is a seekable binary file (an upload spooled to disk); it is read, never loaded whole.
    """
    members = _Members()
    raw.seek(0)
    if raw.read(4) in (b"PK\x03\x04", b"PK\x05\x06"):
        _read_zip(raw, members)
    else:
        raw.seek(0)
        _read_tar(raw, members, filename)
    files = {}
    for name, data in members.files.items():
        if "__pycache__" in name.split("/") or name.endswith(".pyc"):
            continue
        try:
            files[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ProblemError(f"member {shown(name)}: not valid UTF-8 text") from None
    return _strip_top_folder(files)

"""Problem archives are read member by member under caps; every bad archive is a ProblemError that
names the member, and a good archive of a real problem folder round-trips to the same files."""

from __future__ import annotations

import bz2
import io
import random
import stat
import struct
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from judge.archives import MAX_MEMBERS, files_from_archive
from judge.engine_settings import ROOT
from judge.errors import ProblemError
from judge.problem_paths import MAX_FILES, MAX_TOTAL_BYTES
from service.catalog import folder_files, problem_from_files
from tests.conftest import FIXTURES

FOLDERS = [FIXTURES / "problems" / "secret_lookup", ROOT / "problems" / "brevity_penalty"]


def refusal(data: bytes, filename: str = "upload") -> str:
    with pytest.raises(ProblemError) as caught:
        files_from_archive(io.BytesIO(data), filename)
    return str(caught.value)


def tar(members: list[tuple[tarfile.TarInfo, bytes | None]], mode: str = "w:gz",
        fmt: int = tarfile.PAX_FORMAT) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode, format=fmt) as archive:  # type: ignore[call-overload]
        for info, data in members:
            if data is not None:
                info.size = len(data)
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def member(name: str, kind: bytes = tarfile.REGTYPE, **fields: object) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    if "\x00" in name:  # only a pax record keeps it: the ustar name field ends at a NUL
        info.pax_headers = {"path": name}
    for key, value in fields.items():
        setattr(info, key, value)
    return info


def files_tar(names: list[str], mode: str = "w:gz") -> bytes:
    return tar([(member(name), b"x = 1\n") for name in names], mode)


def zipped(entries: list[tuple[str | zipfile.ZipInfo, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return buffer.getvalue()


# --- good archives -------------------------------------------------------------------------------


def _pack(folder: Path, kind: str, arcname: str) -> bytes:
    buffer = io.BytesIO()
    if kind == "zip":
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(folder.rglob("*")):  # folders too, as `zip -r` writes them
                archive.write(path, f"{arcname}/{path.relative_to(folder).as_posix()}")
    else:
        with tarfile.open(fileobj=buffer, mode=f"w:{kind.split('.')[-1]}") as archive:  # type: ignore[call-overload]
            archive.add(folder, arcname=arcname)
    return buffer.getvalue()


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda path: path.name)
@pytest.mark.parametrize("kind", ["zip", "tar.gz", "tar.bz2", "tar.xz"])
def test_a_real_problem_folder_round_trips(folder: Path, kind: str) -> None:
    expected = folder_files(folder)
    assert len(expected) >= 5
    for arcname in (folder.name, "."):  # a zipped folder, and `tar -C folder -czf x.tgz .`
        files = files_from_archive(io.BytesIO(_pack(folder, kind, arcname)), f"{folder.name}.{kind}")
        assert files == expected
    assert problem_from_files(files, folder.name).slug == folder.name


def test_a_plain_tar_round_trips() -> None:
    folder = FOLDERS[0]
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        archive.add(folder, arcname=folder.name)
    assert files_from_archive(io.BytesIO(buffer.getvalue())) == folder_files(folder)


# --- bombs and caps ------------------------------------------------------------------------------


def _zeros_bz2(megabytes: int) -> bytes:
    """bz2 streams of zeros, concatenated: bunzip2 and BZ2File read them as one stream, and
    building a 1 GiB bomb this way takes milliseconds instead of compressing 1 GiB."""
    one = bz2.compress(bytes(8 << 20), 9)
    return one * (megabytes // 8)


def tar_bz2_bomb(megabytes: int, kind: bytes = tarfile.REGTYPE, name: str = "bomb/zeros.bin") -> bytes:
    info = member(name, kind)
    info.size = megabytes << 20
    header = info.tobuf(format=tarfile.GNU_FORMAT)
    return bz2.compress(header, 9) + _zeros_bz2(megabytes) + bz2.compress(bytes(1024), 9)


def test_a_bz2_tar_bomb_is_refused_at_its_header() -> None:
    bomb = tar_bz2_bomb(1024)
    assert len(bomb) < 20_000  # 1 GiB of zeros
    started = time.monotonic()
    message = refusal(bomb, "bomb.tar.bz2")
    assert time.monotonic() - started < 1
    assert message == "member 'bomb/zeros.bin': the files add up to more than 20 MiB"


def test_a_bomb_in_a_long_name_record_stops_at_the_decompression_cap() -> None:
    # tarfile reads a GNU long-name record whole, whatever its header says: only the counting
    # reader under it stops this one, after the cap rather than after 1 GiB.
    bomb = tar_bz2_bomb(1024, kind=tarfile.GNUTYPE_LONGNAME, name="././@LongLink")
    started = time.monotonic()
    message = refusal(bomb, "bomb.tar.bz2")
    assert time.monotonic() - started < 3
    assert message.startswith("before the first member: the archive expands to more than 21 MiB")


def test_the_cap_counts_decompressed_bytes_after_the_last_good_member() -> None:
    good = member("p/problem.toml")
    good_data = b"slug = 'p'\n"
    good.size = len(good_data)
    long_name = member("././@LongLink", tarfile.GNUTYPE_LONGNAME)
    long_name.size = 256 << 20
    head = good.tobuf(format=tarfile.GNU_FORMAT) + good_data.ljust(512, b"\0")
    bomb = bz2.compress(head + long_name.tobuf(format=tarfile.GNU_FORMAT)) + _zeros_bz2(256)
    assert refusal(bomb).startswith("after member 'p/problem.toml': the archive expands to more than")


def test_a_member_over_the_total_is_refused_by_what_it_holds() -> None:
    big = tar([(member("p/a.txt"), b"a" * (MAX_TOTAL_BYTES // 2)),
               (member("p/b.txt"), b"b" * (MAX_TOTAL_BYTES // 2 + 1))])
    assert refusal(big) == "member 'p/b.txt': the files add up to more than 20 MiB"


def test_too_many_members_are_refused_as_the_header_arrives() -> None:
    many = tar([(member(f"p/d{i}", tarfile.DIRTYPE), None) for i in range(MAX_MEMBERS + 1)])
    assert refusal(many) == f"member 'p/d{MAX_MEMBERS}': an archive may hold at most {MAX_MEMBERS} members"
    files = files_tar([f"p/f{i}.py" for i in range(MAX_FILES + 1)])
    assert refusal(files) == f"member 'p/f{MAX_FILES}.py': a problem may hold at most {MAX_FILES} files"


def _end_record(data: bytes) -> int:
    at = data.rfind(b"PK\x05\x06")
    assert at > 0
    return at


def test_a_zip_whose_directory_claims_too_many_entries_is_refused_before_parsing_it() -> None:
    data = bytearray(zipped([("p/a.py", b"x = 1\n"), ("p/b.py", b"y = 2\n")]))
    at = _end_record(bytes(data))
    struct.pack_into("<HH", data, at + 8, 60000, 60000)  # entries on this disk, entries in all
    assert refusal(bytes(data)) == f"the zip lists 60000 entries; an archive may hold at most {MAX_MEMBERS}"
    data = bytearray(zipped([("p/a.py", b"x = 1\n")]))
    struct.pack_into("<L", data, _end_record(bytes(data)) + 12, 50_000_000)  # directory size
    assert refusal(bytes(data)).startswith("the zip's central directory is 50000000 bytes")


def test_a_zip_with_too_many_real_entries_is_refused() -> None:
    data = zipped([(f"p/f{i}.py", b"") for i in range(MAX_MEMBERS + 1)])
    assert refusal(data) == f"the zip lists {MAX_MEMBERS + 1} entries; an archive may hold at most {MAX_MEMBERS}"


def _declare_size(data: bytes, size: int) -> bytes:
    """A one-member zip with its uncompressed size rewritten in both headers."""
    patched = bytearray(data)
    struct.pack_into("<L", patched, 22, size)  # local file header
    directory = struct.unpack_from("<L", patched, _end_record(data) + 16)[0]
    struct.pack_into("<L", patched, directory + 24, size)  # central directory entry
    return bytes(patched)


def test_a_zip_member_larger_than_it_declares_is_cut_at_the_declared_size_and_refused() -> None:
    data = _declare_size(zipped([("p/zeros.txt", bytes(64 << 20))]), 100)
    assert len(data) < 100_000
    started = time.monotonic()
    message = refusal(data)
    assert time.monotonic() - started < 1
    assert message.startswith("member 'p/zeros.txt': the zip is damaged (Bad CRC-32")


def test_a_zip_member_declaring_too_much_is_refused_before_reading() -> None:
    data = zipped([("p/zeros.txt", bytes(MAX_TOTAL_BYTES + 1))])
    assert refusal(data) == "member 'p/zeros.txt': the files add up to more than 20 MiB"


# --- names ---------------------------------------------------------------------------------------

BAD_NAMES = [
    ("p/a\x00b.py", "member 'p/a\\x00b.py': has a NUL character"),
    ("p/../../etc/x.py", "member 'p/../../etc/x.py': is not a relative path inside the problem ('..' leaves it)"),
    ("/etc/x.py", "member '/etc/x.py': is absolute, not a relative path inside the problem"),
    ("p/" + "n" * 101, "has a name part of 101 bytes; at most 100"),
    ("p/" + "/".join(["d" * 60] * 5), "bytes long; a path may have at most 255"),
    ("p/" + "d/" * 8 + "x.py", "is 10 levels deep; at most 8"),
    ("p/a\nb.py", "member 'p/a\\nb.py': has a control character"),
    ("p\\x.py", "member 'p\\\\x.py': has a backslash; separate folders with /"),
]


@pytest.mark.parametrize(("name", "expected"), BAD_NAMES, ids=[
    "nul", "dotdot", "absolute", "long-part", "long-path", "deep", "newline", "backslash"])
def test_odd_member_names_are_refused_naming_them(name: str, expected: str) -> None:
    assert expected in refusal(files_tar(["p/problem.toml", name]))
    if "\x00" not in name:  # zipfile cannot write a NUL: see the next test
        assert expected in refusal(zipped([("p/problem.toml", b""), (name, b"x")]))


def test_a_nul_in_a_zip_name_is_seen_though_zipfile_cuts_the_name_there() -> None:
    data = zipped([("p/aXb.py", b"x")]).replace(b"p/aXb.py", b"p/a\x00b.py")
    assert refusal(data) == "member 'p/a\\x00b.py': has a NUL character"


@pytest.mark.filterwarnings("ignore:Duplicate name")  # zipfile warns, then writes it: what we want
@pytest.mark.parametrize("names", [
    ["p/a", "p/a/b"], ["p/a/b", "p/a"], ["p/a", "p/a"], ["p/a", "p/./a"], ["p/a/", "p/a"],
], ids=["file-then-folder", "folder-then-file", "twice", "twice-dotted", "folder-entry"])
def test_a_file_and_a_folder_with_one_name_are_refused(names: list[str]) -> None:
    entries = [(member(name.rstrip("/"), tarfile.DIRTYPE) if name.endswith("/") else member(name),
                None if name.endswith("/") else b"x") for name in names]
    message = refusal(tar(entries))
    assert message.startswith(f"member {names[1]!r}: ")
    assert any(why in message for why in ("is a file, not a folder", "also a folder", "also a file",
                                          "appears twice"))
    zip_message = refusal(zipped([(name, b"" if name.endswith("/") else b"x") for name in names]))
    assert zip_message == message


@pytest.mark.parametrize(("kind", "what"), [
    (tarfile.SYMTYPE, "a symbolic link"), (tarfile.LNKTYPE, "a hard link"),
    (tarfile.CHRTYPE, "a character device"), (tarfile.FIFOTYPE, "a FIFO"),
])
def test_links_and_devices_are_refused(kind: bytes, what: str) -> None:
    data = tar([(member("p/problem.toml"), b""), (member("p/link", kind, linkname="/etc/passwd"), None)])
    assert refusal(data) == f"member 'p/link': is {what}; only files and folders are allowed"


def test_a_zip_symlink_is_refused() -> None:
    link = zipfile.ZipInfo("p/link")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    assert refusal(zipped([(link, b"/etc/passwd")])) == (
        "member 'p/link': is a symbolic link; only files and folders are allowed")


def test_an_encrypted_zip_member_is_refused() -> None:
    data = bytearray(zipped([("p/a.py", b"x")]))
    struct.pack_into("<H", data, 6, 1)  # general purpose flag bit 0 in the local header...
    directory = struct.unpack_from("<L", data, _end_record(bytes(data)) + 16)[0]
    struct.pack_into("<H", data, directory + 8, 1)  # ...and in the central directory
    assert refusal(bytes(data)) == "member 'p/a.py': is encrypted"


@pytest.mark.parametrize("data", [b"", b"not an archive at all" * 100, b"\x1f\x8b" + b"\x00" * 100,
                                  b"BZh9" + b"\xff" * 100, b"PK\x03\x04" + b"\x00" * 100])
def test_garbage_is_a_problem_error_not_a_crash(data: bytes) -> None:
    refusal(data)


def test_a_truncated_archive_is_refused() -> None:
    data = tar([(member("p/a.py"), random.Random(0).randbytes(100_000))], "w:xz")
    assert refusal(data[: len(data) // 2], "p.tar.xz").startswith("member 'p/a.py': p.tar.xz is not a readable")


def test_a_member_that_is_not_utf8_text_is_refused() -> None:
    assert refusal(tar([(member("p/a.py"), b"\xff\xfe")])) == "member 'p/a.py': not valid UTF-8 text"


# --- the same rules for JSON uploads -------------------------------------------------------------


@pytest.mark.parametrize(("files", "expected"), [
    ({"a\x00b.py": ""}, "file 'a\\x00b.py': has a NUL character"),
    ({"../x.py": ""}, "file '../x.py': is not a relative path inside the problem"),
    ({"/x.py": ""}, "file '/x.py': is absolute"),
    ({"n" * 300: ""}, "is 300 bytes long; a path may have at most 255"),
    ({"d/" * 9 + "x": ""}, "is 10 levels deep; at most 8"),
    ({"a": "", "a/b": ""}, "file 'a/b': 'a' is a file, not a folder"),
    ({"a/b": "", "a": ""}, "file 'a': there is also a folder with this name"),
    ({"a.py": "", "./a.py": ""}, "file './a.py': appears twice"),
    ({"x\ud800.py": ""}, "is not valid UTF-8"),
    ({"x.py": "\ud800"}, "file 'x.py': not valid text (a lone surrogate at index 0)"),
    ({"": ""}, "file '': names a folder, not a file"),
])
def test_json_files_follow_the_same_path_rules(files: dict[str, str], expected: str) -> None:
    with pytest.raises(ProblemError) as caught:
        problem_from_files(files, "json_paths")
    assert expected in str(caught.value)

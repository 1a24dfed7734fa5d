"""The paths a problem folder may hold, checked one name at a time as an upload arrives.

A JSON upload and every archive member go through the same rules, so an odd name is a 422 that
names it rather than an OSError (NUL, too long, a file where a folder must go) while writing it out.
"""

from __future__ import annotations

from judge.errors import ProblemError

MAX_FILES = 200
MAX_TOTAL_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 8  # folders plus the file itself, an archive's top-level folder included
MAX_PART_BYTES = 100  # one file or folder name
MAX_PATH_BYTES = 255


def shown(name: str, limit: int = 80) -> str:
    """A name as error messages quote it: repr (NUL and control characters visible), shortened."""
    text = repr(name)
    return text if len(text) <= limit else f"{text[:limit]}…' ({len(name)} characters)"


def clean_path(name: str, what: str, folder: bool = False) -> str:
    """name as a normalised relative POSIX path ("" for the folder itself), or a ProblemError.

    ``what`` says how the author knows the name ("file", "member"); "." and empty parts are
    dropped because `tar -C folder -czf x.tgz .` writes names like "./problem.toml".
    """

    def refuse(reason: str) -> ProblemError:
        return ProblemError(f"{what} {shown(name)}: {reason}")

    if "\x00" in name:
        raise refuse("has a NUL character")
    if any(ord(char) < 32 or ord(char) == 127 for char in name):
        raise refuse("has a control character")
    if "\\" in name:
        raise refuse("has a backslash; separate folders with /")
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        raise refuse("is not valid UTF-8") from None
    if size > MAX_PATH_BYTES:
        raise refuse(f"is {size} bytes long; a path may have at most {MAX_PATH_BYTES}")
    if name.startswith("/"):
        raise refuse("is absolute, not a relative path inside the problem")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise refuse("is not a relative path inside the problem ('..' leaves it)")
    if len(parts) > MAX_DEPTH:
        raise refuse(f"is {len(parts)} levels deep; at most {MAX_DEPTH}")
    for part in parts:
        if len(part.encode("utf-8")) > MAX_PART_BYTES:
            raise refuse(f"has a name part of {len(part.encode('utf-8'))} bytes; at most {MAX_PART_BYTES}")
    if not folder and (not parts or name.endswith("/")):
        raise refuse("names a folder, not a file")
    return "/".join(parts)


class FolderTree:
    """The files and folders seen so far: refuses a duplicate, a file and a folder with one name,
    and more than MAX_FILES files, at the name that breaks the rule."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.files: set[str] = set()
        self.folders: set[str] = set()

    def _parents(self, path: str) -> list[str]:
        parts = path.split("/")
        return ["/".join(parts[:depth]) for depth in range(1, len(parts))]

    def _claim_parents(self, name: str, path: str) -> None:
        for parent in self._parents(path):
            if parent in self.files:
                raise ProblemError(f"{self.what} {shown(name)}: {parent!r} is a file, not a folder")
        self.folders.update(self._parents(path))

    def add_folder(self, name: str) -> str:
        path = clean_path(name, self.what, folder=True)
        if path in self.files:
            raise ProblemError(f"{self.what} {shown(name)}: there is also a file with this name")
        if path:
            self._claim_parents(name, path)
            self.folders.add(path)
        return path

    def add_file(self, name: str) -> str:
        path = clean_path(name, self.what)
        if path in self.files:
            raise ProblemError(f"{self.what} {shown(name)}: appears twice")
        if path in self.folders:
            raise ProblemError(f"{self.what} {shown(name)}: there is also a folder with this name")
        if len(self.files) >= MAX_FILES:
            raise ProblemError(f"{self.what} {shown(name)}: a problem may hold at most {MAX_FILES} files")
        self._claim_parents(name, path)
        self.files.add(path)
        return path

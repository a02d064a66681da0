"""The folder `twisty serve` shows: every path a request names is resolved inside it, and saving never
overwrites without being asked, never writes through a symbolic link, and never leaves half a file.

Requests are hostile until proved otherwise: a path is a relative name of a `.toml` file under the folder;
`..`, absolute paths, and links that lead out of the folder are refused with a FolderError (the page shows
its message; the server keeps serving).
"""

from __future__ import annotations

import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from twisty.limits import MAX_LEVEL_BYTES

# A listing stops here: a page of ten thousand levels would help nobody, and the walk must end.
MAX_LISTED = 2_000


class FolderError(Exception):
    """A request the folder refuses; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class LevelFolder:
    """The folder of levels a server shows and edits."""

    root: Path

    @classmethod
    def at(cls, folder: str | Path) -> LevelFolder:
        root = Path(folder).resolve()
        if not root.is_dir():
            raise FolderError(f"{folder} is not a folder")
        return cls(root)

    def resolve(self, name: object, *, must_exist: bool = True) -> Path:
        """The file a request names, inside the folder; FolderError for anything else.

        The name is relative with `/` between parts; no part may be empty, `.` or `..`; the file must end
        in .toml; and the path with every link followed must still lie inside the folder."""
        if not isinstance(name, str) or not name or len(name) > 1024 or "\x00" in name:
            raise FolderError("a level is named by its path inside the folder")
        parts = name.replace("\\", "/").split("/")
        if name.startswith("/") or any(part in ("", ".", "..") for part in parts):
            raise FolderError(f"refused: {name!r} is not a path inside the folder", 403)
        if not parts[-1].endswith(".toml"):
            raise FolderError(f"refused: {name!r} is not a .toml level file", 403)
        path = self.root.joinpath(*parts)
        real = Path(os.path.realpath(path))
        if not real.is_relative_to(self.root):
            raise FolderError(f"refused: {name!r} leads out of the folder", 403)
        if must_exist and not real.is_file():
            raise FolderError(f"no level {name!r} in the folder", 404)
        return path

    def levels(self) -> list[str]:
        """The .toml files under the folder, as relative names, sorted; links out of the folder and
        links to folders are left out (so the walk cannot loop or leave)."""
        found: list[str] = []
        for folder, subfolders, names in os.walk(self.root, followlinks=False):
            subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
            for name in sorted(names):
                if not name.endswith(".toml") or name.startswith("."):
                    continue
                path = Path(folder) / name
                if Path(os.path.realpath(path)).is_relative_to(self.root) and path.is_file():
                    found.append(path.relative_to(self.root).as_posix())
                if len(found) >= MAX_LISTED:
                    return found
        return found

    def read(self, name: object) -> str:
        return self.read_bytes(name).decode("utf-8", errors="replace")

    def read_bytes(self, name: object) -> bytes:
        """The bytes of the level file `name`: a regular file inside the folder, at most MAX_LEVEL_BYTES."""
        path = self.resolve(name)
        try:
            # Opened without blocking and checked on the open file: a FIFO put in its place would hang.
            handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            with os.fdopen(handle, "rb") as stream:
                if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                    raise FolderError(f"{name} is not a regular file", 403)
                data = stream.read(MAX_LEVEL_BYTES + 1)
        except OSError as error:
            raise FolderError(f"cannot read {name}: {error.strerror or error}", 404) from None
        if len(data) > MAX_LEVEL_BYTES:
            raise FolderError(f"{name} is larger than a level may be ({MAX_LEVEL_BYTES:,} bytes)", 413)
        return data

    def save(self, name: object, text: str, *, overwrite: bool) -> Path:
        """Write `text` to the level file `name`: through a temporary file in the same folder and
        os.replace, so a reader sees the old file or the new one, never half of one. An existing file is
        replaced only with `overwrite` (FolderError 409 otherwise, so the page can ask); a symbolic link is
        never written through."""
        path = self.resolve(name, must_exist=False)
        data = text.encode("utf-8")
        if len(data) > MAX_LEVEL_BYTES:
            raise FolderError(f"a level may be at most {MAX_LEVEL_BYTES:,} bytes", 413)
        folder = path.parent
        if not Path(os.path.realpath(folder)).is_relative_to(self.root) or not folder.is_dir():
            raise FolderError(f"refused: no folder for {name!r} inside the served folder", 403)
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None:
            if stat.S_ISLNK(mode):
                raise FolderError(f"refused: {name!r} is a symbolic link; twisty does not write through links", 403)
            if not stat.S_ISREG(mode):
                raise FolderError(f"refused: {name!r} is not a regular file", 403)
            if not overwrite:
                raise FolderError(f"{name} exists: overwrite it?", 409)
        handle, temporary = tempfile.mkstemp(prefix=".twisty-save-", suffix=".toml", dir=folder)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            # mkstemp makes the file private: an existing level keeps its mode, a new one is readable.
            os.chmod(temporary, stat.S_IMODE(mode) if mode is not None else 0o644)
            os.replace(temporary, path)
        except OSError as error:
            Path(temporary).unlink(missing_ok=True)
            raise FolderError(f"cannot save {name}: {error.strerror or error}", 500) from None
        return path

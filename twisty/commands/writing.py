"""How every command that writes files writes them, so that nothing a designer made is lost.

Every target is checked before any work starts; an existing file is replaced only with --force and never
through a symbolic link; each file is written to a temporary file in the same folder and renamed into
place, so that an interrupted run leaves only complete files. Also the options the generators share.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from twisty.errors import UsageError

MAX_COUNT = 10_000


def refuse_targets(paths: list[Path], force: bool, what: str = "levels") -> str | None:
    """Why the run may not write to `paths` (checked before any work starts), or None when it may.
    `what` names the files in the message ("levels", "pictures", ...)."""
    existing = []
    for path in paths:
        if path.is_symlink():
            return f"{path} is a symbolic link; refusing to write through it (remove it first)"
        if path.exists():
            if not path.is_file():
                return f"{path} exists and is not a regular file"
            existing.append(path)
    if existing and not force:
        others = f" (and {len(existing) - 1} more of the {len(paths)} files to write)" if len(existing) > 1 else ""
        return f"{existing[0]} already exists{others}; use --force to replace existing {what}"
    return None


def prepare_folder(folder: Path, names: Iterable[str], force: bool) -> Path:
    """The output folder, made if missing, once every file the run would write in it may be written."""
    if folder.is_symlink():
        raise UsageError(f"{folder} is a symbolic link; twisty does not write through links")
    if folder.is_dir():
        refused = refuse_targets([folder / name for name in names], force)
        if refused is not None:
            raise UsageError(refused)
    else:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise click.BadParameter(
                f"cannot create the folder: {error.strerror or error}", param_hint="'-o'"
            ) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write to the folder {folder}")
    return folder


@dataclass(frozen=True)
class Output:
    """Where a generator's files go: `folder`, under the names the run makes, or the one file `-o` named
    (`single`, for a run of one file)."""

    folder: Path
    single: str | None = None

    def path(self, name: str) -> Path:
        return self.folder / (self.single or name)


def prepare_output(out: str, names: list[str], force: bool) -> Output:
    """The target of `-o`, checked before any work: a FILE.toml (not an existing folder) for a run of
    exactly one file, which is then written under that name; anything else is a folder, made if missing."""
    target = Path(out)
    if target.suffix.lower() == ".toml" and not target.is_dir():
        if len(names) != 1:
            raise UsageError(f"-o {out} names one file, and this run makes {len(names)}: give a folder (-o DIR)")
        folder = target.parent if str(target.parent) else Path(".")
        return Output(prepare_folder(folder, [target.name], force), target.name)
    return Output(prepare_folder(target, names, force))


def file_mode() -> int:
    """The mode a plain new file gets under this process's umask (temporary files are made 0600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(path: Path, text: str | bytes, *, replace: bool, mode: int) -> None:
    """Write `text` (UTF-8 when a str) to `path` all at once or not at all: into a new temporary file in the same folder
    (created exclusively, never through a symbolic link), then renamed into place. Without `replace` the
    rename is a hard link, which fails rather than replace a file that appeared meanwhile. A rename
    replaces a symbolic link itself, never the file it points to. On any error or interruption the
    temporary file is removed."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(descriptor, "wb") as out:
            os.fchmod(out.fileno(), mode)
            out.write(text.encode("utf-8") if isinstance(text, str) else text)
            out.flush()
            os.fsync(out.fileno())
        if replace:
            if path.is_symlink():
                raise FileExistsError(errno.EEXIST, "became a symbolic link; refusing to write through it")
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)
            except OSError as error:
                if error.errno == errno.EEXIST or os.path.lexists(path):
                    raise FileExistsError(errno.EEXIST, "appeared while the level was made; not replaced") from None
                # A file system without hard links: check, then rename (the window is the rename itself).
                os.replace(temporary, path)
        with suppress(FileNotFoundError):
            os.unlink(temporary)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def check_targets(paths: list[Path], force: bool, what: str = "levels") -> None:
    """A UsageError (exit 2) when the run may not write to `paths`: called before any work starts, so that
    a run that could not write its result does not do the work first."""
    refused = refuse_targets(paths, force, what)
    if refused is not None:
        raise UsageError(refused)
    for path in paths:
        folder = path.parent if str(path.parent) else Path(".")
        if not folder.is_dir():
            raise UsageError(f"{path}: the folder {folder} does not exist")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise UsageError(f"{path}: cannot write to the folder {folder}")


def write_files(targets: Sequence[tuple[Path, str | bytes]], force: bool, what: str = "levels") -> None:
    """Write each (path, text or bytes), after checking that every one of them may be written."""
    check_targets([path for path, _ in targets], force, what)
    mode = file_mode()
    for path, text in targets:
        try:
            write_atomically(path, text, replace=force, mode=mode)
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def batch_output_options(thing: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--seed, -n COUNT, -o DIR and --force, as every generator takes them (`thing`: "level", "book", ...)."""
    options = (
        click.option(
            "--seed", type=click.IntRange(0, None), default=1, show_default=True, help=f"Seed of the first {thing}."
        ),
        click.option(
            "-n",
            "count",
            type=click.IntRange(1, MAX_COUNT),
            default=1,
            show_default=True,
            help=f"Number of {thing}s, with seeds seed, seed+1, ...",
        ),
        click.option(
            "-o",
            "out_dir",
            type=click.Path(),
            default=None,
            metavar="DIR|FILE.toml",
            help=f"Folder to write the {thing}s to (created if missing), or FILE.toml for one {thing}; without "
            "it one is printed.",
        ),
        click.option(
            "--force", is_flag=True, help=f"Replace {thing} files that already exist (never through a symbolic link)."
        ),
    )

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def require_folder_for_several(count: int, out_dir: str | None) -> None:
    """Several levels are written to a folder; only one may be printed."""
    if out_dir is None and count > 1:
        raise click.UsageError("-n above 1 needs a folder to write to (-o DIR)")

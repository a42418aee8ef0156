"""Files a run keeps (results, summaries, plots, play saves): checked before the work, then
written atomically, and never anything but a regular file.

Why one module: every output path goes through the same three steps, so the rules below hold
for ``--results``, ``--out``, ``--markdown``, ``--plot`` and ``play --save`` alike.

* **Only regular files.** A path that exists and is not a regular file (a device such as
  ``/dev/null`` or ``/dev/zero``, a named pipe, a socket, a folder) is refused before it is
  read or written: an atomic rewrite (temporary file, then rename) would *replace* a device
  node with a plain file, reading ``/dev/zero`` never ends, and opening a pipe blocks with no
  word. A run has no use for any of them (to discard output, give no option).
* **A symbolic link is written through to its target** (resolved through every link), as
  ``sed -i --follow-symlinks``, Emacs and Vim do: the user named the link on purpose (say
  ``latest.jsonl -> runs/0412.jsonl``), so the link stays a link and the file it names is the
  one updated. Renaming a temporary file over the link itself would turn it into a plain file
  and silently stop updating its target, and refusing links would break that ordinary use. The
  rules above then apply to the target.
* **Held by one process at a time** where two would lose each other's work (a results file a
  run appends to, a play save a session rewrites after every move): :func:`hold_file` takes an
  exclusive ``flock`` on ``<file>.lock`` and refuses a second holder at once. The kernel drops a
  flock with its process, so a crashed or killed holder never leaves the file locked.
* **Checked before the first game.** :func:`check_writable` creates and removes a probe file
  in the folder the atomic write will use (or the nearest existing folder above it, where the
  missing ones will be made), so a read-only, immutable or virtual folder (``/proc``) is
  refused at once rather than after hours of games. An existing file is not touched.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Callable, Iterator, Union

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: files are not locked
    fcntl = None  # type: ignore[assignment]

__all__ = ["UnsafeFileError", "atomic_writer", "check_readable", "check_writable", "check_writable_folder", "hold_file", "lock_path", "write_atomically", "write_target"]

PathLike = Union[str, "os.PathLike[str]"]


class UnsafeFileError(ValueError):
    """A path that must not be read or written as a file (a device, a pipe, a folder, a folder
    that cannot be written); the message says which and why, in one line."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refuse(path: Path, target: Path, mode: int, error: type[Exception]) -> Exception:
    via = f" (through the link to {target})" if target != path else ""
    if stat.S_ISDIR(mode):
        return error(f"{path} is a folder{via}; give a file name")
    return error(f"{path} is {_kind(mode)}{via}, not a regular file: refused, it is never read or replaced; give a file")


def write_target(path: PathLike, error: type[Exception] = UnsafeFileError) -> Path:
    """The file a write to ``path`` lands in: ``path`` itself, or for a symbolic link the file it
    points to. Raises ``error`` when that exists and is not a regular file; a new path is fine."""
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = os.stat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return target  # a new file (a path under a file is reported by the caller's checks or the write)
    except OSError as exc:  # a link loop, a folder that cannot be searched
        raise error(f"{path} cannot be used: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise _refuse(path, target, mode, error)
    return target


def check_readable(path: PathLike, error: type[Exception] = UnsafeFileError) -> Path:
    """Refuse, before reading it, an existing ``path`` that is not a regular file (``/dev/zero``
    would be read without end, a named pipe would block). Returns ``path``."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return path  # missing or unreadable: the read itself reports it
    if not stat.S_ISREG(mode):
        raise _refuse(path, Path(os.path.realpath(path)) if path.is_symlink() else path, mode, error)
    return path


def _existing_folder(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def _probe(folder: Path, name: str, shown: Path, error: type[Exception]) -> None:
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{name}.", suffix=".probe", dir=folder)
    except OSError as exc:
        raise error(f"{shown} cannot be written: {exc.strerror or exc} (in {folder})") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def check_writable(path: PathLike, error: type[Exception] = UnsafeFileError) -> Path:
    """Prove now that ``path`` can be written later: its target (:func:`write_target`) is a
    regular file or new, and a probe file can be made (and is removed) in the folder the
    atomic write uses, or in the nearest existing folder above it. Returns the target."""
    path = Path(path)
    target = write_target(path, error)
    folder = _existing_folder(target.parent if str(target.parent) else Path("."))
    if not folder.is_dir():
        raise error(f"{folder} is a file, so {path} cannot be written")
    _probe(folder, target.name, path, error)
    return target


def check_writable_folder(path: PathLike, error: type[Exception] = UnsafeFileError) -> Path:
    """Prove now that files can be written in the folder ``path`` (made later if missing)."""
    path = Path(path)
    folder = _existing_folder(path)
    if not folder.is_dir():
        raise error(f"{folder} is a file, so {path} cannot be a folder")
    _probe(folder, "spymaster-ai", path, error)
    return path


def _umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_writer(path: PathLike, mode: str = "w", *, fsync: bool = False, private: bool = False) -> Iterator[IO]:
    """A handle to write ``path``'s new content: a temporary file next to the target, renamed
    over it when the block ends without error (a crash leaves the old or the new file, never
    half of one), removed otherwise. Follows a symbolic link to its target and refuses a
    target that is not a regular file (:func:`write_target`). An existing file keeps its
    permissions; a new one gets those ``open`` would give, or only the owner's if ``private``."""
    target = write_target(path)
    folder = target.parent if str(target.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        try:
            os.fchmod(fd, stat.S_IMODE(os.stat(target).st_mode))
        except FileNotFoundError:
            if not private:
                os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as handle:
            yield handle
            handle.flush()
            if fsync:
                os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_atomically(path: PathLike, data: Union[str, bytes], *, fsync: bool = False, private: bool = False) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` through :func:`atomic_writer`; returns the
    file written (the target of a link)."""
    with atomic_writer(path, "wb" if isinstance(data, bytes) else "w", fsync=fsync, private=private) as handle:
        handle.write(data)
    return write_target(path)


def lock_path(path: PathLike) -> Path:
    """The lock file of ``path`` (:func:`hold_file`): ``<path>.lock`` beside it."""
    path = Path(path)
    return path.with_name(path.name + ".lock")


@contextlib.contextmanager
def hold_file(path: PathLike, refuse: Callable[[str], Exception]) -> Iterator[None]:
    """Hold ``path`` while the block runs: an exclusive, non-blocking ``flock`` on ``<path>.lock``.

    Why: two processes that each rewrite a file from what they read lose one another's work
    (a run's games, a session's moves); the second is refused at once instead, with
    ``refuse(who)`` raised, where ``who`` is " (process N)" naming the holder, or "" when
    unknown. The kernel drops a flock with its process, so a killed or crashed holder never
    leaves the file locked (its stale lock file is simply taken over). The lock file is removed
    before it is unlocked, and a holder that locked a file since removed tries again, so no
    lock files pile up and two processes never hold two different lock files. One mechanism
    for every such file: the simulator's results files and play's save files alike.
    """
    if fcntl is None:  # pragma: no cover
        yield
        return
    lock = lock_path(path)
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            raise refuse(f" (process {holder})" if holder.isdigit() else "") from None
        try:
            current = os.path.samestat(os.fstat(fd), os.stat(lock))
        except FileNotFoundError:
            current = False
        if current:
            break
        os.close(fd)  # a holder removed it as we opened it: lock the new one
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(lock)
        os.close(fd)

"""Private working copies of a notebook's folder, so that replaying its cells changes nothing.

`private_copy` builds the copy in a temporary folder and removes it afterwards. Small
entries are copied; entries that do not fit the copy budget (a folder of 1 GB of data) are
symbolic links to the originals, so building the copy costs about the same whatever the
data weigh. Reads by relative path see the same bytes as in the original folder.

A link must never let a write reach the original. `install_guard`, run inside the replay
kernel (`KernelSession` does it when its ``cwd`` is a `WorkCopy`), adds an audit hook that
acts before any write-intent file operation made through Python's ``open``, ``os`` and
``shutil`` (and ``sqlite3.connect``) on a path inside the copy: a linked file is first
replaced by a private copy of itself ("copy-up"; an empty file when the open truncates it),
and a linked folder by a real folder whose entries are links to the original's ("entry by
entry"). Removing, renaming or replacing a linked entry only touches the link.

Not prevented: libraries that open files themselves in C (HDF5, TensorFlow's file layer)
writing to a linked file (`WorkCopy.changed_originals` tells afterwards), and writes by
absolute path to the original folder.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["WorkCopy", "private_copy", "install_guard", "guard_expression", "COPY_LIMIT_BYTES"]

#: Bytes of regular files copied at most; entries beyond the budget are linked.
COPY_LIMIT_BYTES = 200 * 2**20


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkCopy:
    """A private working copy of ``source`` at ``path`` (removed when its context ends).

    It is path-like: ``open(os.path.join(work, "a.csv"))`` and ``KernelSession(work)`` work.
    """

    source: Path
    path: Path
    copied_bytes: int
    copied: int  # entries copied (files and folders, counted at the level they were decided)
    linked: tuple[str, ...]  # entries linked to the originals, relative to ``path``
    stamps: tuple[tuple[str, int, int], ...] = ()  # (linked entry, size, mtime_ns) at the start

    def __fspath__(self) -> str:
        return str(self.path)

    def changed_originals(self) -> tuple[str, ...]:
        """Linked entries whose original changed since the copy was made.

        The guard keeps Python's writes off the originals; a library writing through a link
        in C (HDF5, TensorFlow's file layer) is not seen by it, but shows here.
        """
        return tuple(rel for rel, size, mtime in self.stamps
                     if _stamp(self.source / rel) != (size, mtime))

    def describe(self) -> str:
        """One line for reports: where the copy is and what was linked."""
        linked = f", {len(self.linked)} large entr{'y' if len(self.linked) == 1 else 'ies'} " \
                 f"linked read-only" if self.linked else ""
        size = f"{self.copied_bytes / 2**20:.1f} MiB" if self.copied_bytes >= 2**20 \
            else f"{self.copied_bytes / 2**10:.0f} KiB"
        return f"a private copy of {self.source} ({size} copied{linked}; removed afterwards)"


@contextmanager
def private_copy(folder: Path | str, *, prefix: str = "crashpredict-", name: str | None = None,
                 copy_limit: int = COPY_LIMIT_BYTES) -> Iterator[WorkCopy]:
    """Yield a `WorkCopy` of ``folder`` in a new temporary folder; remove it afterwards.

    Args:
        folder: the folder to copy (usually a notebook's folder).
        prefix: prefix of the temporary folder's name.
        name: the copy's own folder name (default: ``folder``'s), so that paths such as
            ``../<name>/data.csv`` keep working.
        copy_limit: bytes copied at most; files and folders beyond it are linked.

    Raises:
        NotADirectoryError: ``folder`` is not a folder.

    Example:
        >>> with private_copy("case") as work:
        ...     with KernelSession(work) as kernel:
        ...         kernel.run("open('out.txt', 'w').write('x')")   # lands in the copy
    """
    source = Path(folder).resolve()
    if not source.is_dir():
        raise NotADirectoryError(f"{folder}: not a folder")
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        root = Path(os.path.realpath(tmp)) / (name or source.name or "work")
        root.mkdir()
        budget = _Budget(copy_limit, skip=os.path.realpath(tmp))
        linked: list[str] = []
        _fill(source, root, source, budget, linked, "")
        yield WorkCopy(source=source, path=root, copied_bytes=copy_limit - budget.left,
                       copied=budget.entries, linked=tuple(linked),
                       stamps=tuple((rel, *_stamp(source / rel)) for rel in linked))
    finally:
        _remove(tmp)


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (-1, -1)
    return (st.st_size, st.st_mtime_ns)


class _Budget:
    __slots__ = ("left", "entries", "skip")

    def __init__(self, left: int, skip: str) -> None:
        self.left = left
        self.entries = 0
        self.skip = skip  # the copy itself, when the folder holds the temporary folder


def _scan(folder: str, skip: str) -> list[os.DirEntry[str]]:
    with os.scandir(folder) as entries:
        return [e for e in entries if os.path.realpath(e.path) != skip]


def _tree_size(folder: str, cap: int, skip: str) -> int:
    """Bytes of regular files under ``folder`` (links not followed); stops past ``cap``."""
    total = 0
    stack = [folder]
    while stack:
        try:
            entries = _scan(stack.pop(), skip)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    total += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue
            if total > cap:
                return total
    return total


def _fill(src: Path, dst: Path, top: Path, budget: _Budget, linked: list[str], rel: str) -> None:
    """Copy the entries of ``src`` into ``dst`` while they fit the budget; link the rest."""
    files, folders = [], []
    for entry in _scan(str(src), budget.skip):
        try:
            if entry.is_symlink():
                _relink(entry.path, dst / entry.name, top)
            elif entry.is_dir(follow_symlinks=False):
                folders.append((_tree_size(entry.path, budget.left, budget.skip), entry))
            elif entry.is_file(follow_symlinks=False):
                files.append((entry.stat(follow_symlinks=False).st_size, entry))
        except OSError:
            continue
    # smallest first: as many entries as possible are real copies
    for size, entry in sorted(files, key=lambda t: (t[0], t[1].name)):
        if size <= budget.left and _copied(entry.path, dst / entry.name):
            budget.left -= size
            budget.entries += 1
        else:
            os.symlink(entry.path, dst / entry.name)
            linked.append(rel + entry.name)
    for size, entry in sorted(folders, key=lambda t: (t[0], t[1].name)):
        if size <= budget.left:
            (dst / entry.name).mkdir()
            _fill(Path(entry.path), dst / entry.name, top, budget, linked, f"{rel}{entry.name}/")
            shutil.copymode(entry.path, dst / entry.name)
            budget.entries += 1
        else:
            os.symlink(entry.path, dst / entry.name, target_is_directory=True)
            linked.append(rel + entry.name)


def _copied(src: str, dst: Path) -> bool:
    """Copy a file; False when it cannot be read (it is linked instead: reads fail alike)."""
    try:
        shutil.copy2(src, dst, follow_symlinks=False)
        return True
    except PermissionError:
        dst.unlink(missing_ok=True)
        return False


def _relink(link: str, dst: Path, top: Path) -> None:
    """Recreate a symbolic link of the original folder in the copy.

    A relative link that stays inside the folder is kept as it is (it then points into the
    copy); one that leaves the folder is made absolute so it still reaches its target.
    """
    target = os.readlink(link)
    if not os.path.isabs(target):
        resolved = os.path.normpath(os.path.join(os.path.dirname(link), target))
        if not _within(resolved, str(top)):
            target = resolved
    os.symlink(target, dst)


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _remove(tmp: str) -> None:
    def retry(func: Any, path: str, exc_info: Any) -> None:
        # a cell may have made a folder read-only; give it back its write bit and retry once
        try:
            parent = os.path.dirname(path)
            os.chmod(parent, os.stat(parent).st_mode | stat.S_IRWXU)
            if func in (os.rmdir, os.unlink, os.remove):
                func(path)
        except OSError:
            pass

    shutil.rmtree(tmp, onerror=retry)


# ---- the guard, installed inside the replay kernel ---------------------------------------

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_GUARDS: dict[str, _Guard] = {}


class _Guard:
    """The audit hook: makes linked entries private before a write reaches them."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.pid = os.getpid()
        self.lock = threading.RLock()
        self.local = threading.local()
        self.actions = {
            "open": self._open,
            "os.remove": lambda a: self._own(a[0], final=False),
            "os.rmdir": lambda a: self._own(a[0], final=True),
            "os.mkdir": lambda a: self._own(a[0], final=False),
            "os.rename": lambda a: (self._own(a[0], final=False), self._own(a[1], final=False)),
            "os.link": lambda a: self._own(a[1], final=False),
            "os.symlink": lambda a: self._own(a[1], final=False),
            "os.chmod": lambda a: self._own(a[0], final=True),
            "os.chown": lambda a: self._own(a[0], final=True),
            "os.utime": lambda a: self._own(a[0], final=True),
            "os.truncate": lambda a: self._own(a[0], final=True),
            "os.chdir": lambda a: self._own(a[0], final=True),
            "shutil.rmtree": lambda a: self._own(a[0], final=True),
            "sqlite3.connect": lambda a: self._own(a[0], final=True),
        }

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        action = self.actions.get(event)
        # a fork (the dry run) has its own sandbox; our own file operations raise events too
        if action is None or os.getpid() != self.pid or getattr(self.local, "busy", False):
            return
        self.local.busy = True
        try:
            with self.lock:
                action(args)
        except Exception:  # never break the user's call; the worst case is today's behaviour
            pass
        finally:
            self.local.busy = False

    def _open(self, args: tuple[Any, ...]) -> None:
        path, _mode, flags = args
        if not isinstance(flags, int) or not flags & _WRITE_FLAGS:
            return
        # O_EXCL fails on an existing entry anyway: only its folders need to be real
        self._own(path, final=not flags & os.O_EXCL, truncate=bool(flags & os.O_TRUNC))

    def _own(self, path: Any, *, final: bool, truncate: bool = False) -> None:
        """Make every linked folder on ``path`` real; with ``final``, its last entry too."""
        if isinstance(path, int) or path is None:
            return
        full = os.path.normpath(os.path.join(os.getcwd(), os.fsdecode(path)))
        if not _within(full, self.root) or full == self.root:
            return
        parts = full[len(self.root) + 1:].split(os.sep)
        current = self.root
        for i, part in enumerate(parts):
            current = os.path.join(current, part)
            last = i == len(parts) - 1
            if not os.path.islink(current):
                if not os.path.isdir(current):
                    return
                continue
            target = os.path.realpath(current)
            if _within(target, self.root):
                current = target
                continue
            if last and not final:
                return
            if os.path.isdir(target):
                _materialise(current, target)
            elif last and os.path.exists(target):
                _copy_up(current, target, truncate)
            else:
                return


def _materialise(link: str, target: str) -> None:
    """Replace a link to a folder by a real folder of links to its entries."""
    tmp = f"{link}.crashpredict-{os.getpid()}"
    os.mkdir(tmp)
    for entry in os.scandir(target):
        os.symlink(os.path.join(target, entry.name), os.path.join(tmp, entry.name))
    shutil.copymode(target, tmp)
    os.unlink(link)
    os.rename(tmp, link)


def _copy_up(link: str, target: str, truncate: bool) -> None:
    """Replace a link to a file by a private copy (empty when the open truncates it)."""
    tmp = f"{link}.crashpredict-{os.getpid()}"
    if truncate:
        open(tmp, "wb").close()
    else:
        shutil.copyfile(target, tmp)
    shutil.copymode(target, tmp)
    os.replace(tmp, link)


def install_guard(root: str) -> None:
    """Install the audit hook for the work copy at ``root`` in this process (once)."""
    root = os.path.realpath(root)
    if root in _GUARDS:
        return
    guard = _Guard(root)
    _GUARDS[root] = guard
    sys.addaudithook(guard)


def guard_expression(root: Path | str) -> str:
    """A user expression that installs the guard in a kernel without binding names."""
    return (f"__import__('crashpredict._workdir', fromlist=['install_guard'])"
            f".install_guard({str(root)!r})")

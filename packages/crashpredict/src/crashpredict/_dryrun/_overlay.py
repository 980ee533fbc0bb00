"""Copy-on-write files for a dry run's child: writes go to a private overlay, reads see it.

A cell that writes an output file, creates a folder, renames or removes a file does so in
the overlay, a mirror of the file system under the child's private directory: the real
path ``/home/u/out.csv`` becomes ``<overlay>/home/u/out.csv``. A file is copied up on its
first write (unless the write truncates it), a removed path is remembered as deleted, and
every read in the same child (``open``, ``os.stat``, ``os.listdir``, ``os.scandir``,
``os.path.exists``, pathlib through them) sees the overlay first. Nothing reaches the real
disk, and the parent never sees the overlay: the parent removes the whole private
directory after the run.

`Overlay.install` patches ``builtins.open``/``io.open`` and the ``os`` and ``shutil``
functions in the child only. Code that captured the originals at import time (``from os
import remove``, ``tarfile``'s ``bltn_open``) or that writes from C is not redirected: the
audit hook of `_sandbox` and Landlock (`_confine`) refuse those writes instead.

`Overlay.report` says what the cell would have written: paths and sizes.
"""

from __future__ import annotations

import builtins
import errno
import io
import os
import shutil
import sys
import stat as st
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["Overlay"]

_PASS_PREFIXES = ("/proc/", "/sys/", "/dev/")
_MAX_REPORT = 20


def _text(path: Any) -> str | None:
    """The path as text, or None for an fd or something that is no path."""
    if isinstance(path, int):
        return None
    try:
        return os.fsdecode(os.fspath(path))
    except TypeError:
        return None


class _Entry:
    """A ``os.DirEntry`` look-alike for an entry merged from the overlay and the disk."""

    def __init__(self, name: str, path: str, real: str, lstat: Callable[..., Any],
                 stat: Callable[..., Any]) -> None:
        self.name, self.path = name, path
        self._real, self._lstat, self._stat = real, lstat, stat

    def inode(self) -> int:
        return self._lstat(self._real).st_ino

    def stat(self, *, follow_symlinks: bool = True) -> Any:
        return (self._stat if follow_symlinks else self._lstat)(self._real)

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        try:
            return st.S_ISDIR(self.stat(follow_symlinks=follow_symlinks).st_mode)
        except OSError:
            return False

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        try:
            return st.S_ISREG(self.stat(follow_symlinks=follow_symlinks).st_mode)
        except OSError:
            return False

    def is_symlink(self) -> bool:
        try:
            return st.S_ISLNK(self._lstat(self._real).st_mode)
        except OSError:
            return False

    def __fspath__(self) -> str:
        return self.path

    def __repr__(self) -> str:
        return f"<DirEntry {self.name!r}>"


class _Scan:
    def __init__(self, entries: list[_Entry]) -> None:
        self._it: Iterator[_Entry] = iter(entries)

    def __iter__(self) -> _Scan:
        return self

    def __next__(self) -> _Entry:
        return next(self._it)

    def __enter__(self) -> _Scan:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._it = iter(())


class Overlay:
    """The child's private copy-on-write view of the file system."""

    def __init__(self, private_dir: str) -> None:
        self.private_dir = os.path.realpath(private_dir)
        self.root = os.path.join(self.private_dir, "overlay")
        self.deleted: set[str] = set()
        self.events: dict[str, str] = {}  # real path -> what happened, in order
        self.baseline: dict[str, tuple[int, int]] = {}  # held-open copies: (size, mtime)
        self._os: dict[str, Any] = {}
        self._open: Any = io.open

    # ---- paths ----------------------------------------------------------------------

    def real(self, path: str) -> str:
        """The absolute real path ``path`` names (a path inside the overlay maps back)."""
        full = os.path.abspath(path)
        if full == self.root:
            return "/"
        if full.startswith(self.root + os.sep):
            return full[len(self.root):]
        return full

    def passthrough(self, full: str) -> bool:
        return full == self.private_dir or full.startswith(self.private_dir + os.sep) or \
            full.startswith(_PASS_PREFIXES)

    def shadow(self, full: str) -> str:
        return self.root + full

    def _is_deleted(self, full: str) -> bool:
        probe = full
        while True:
            if probe in self.deleted:
                return True
            parent = os.path.dirname(probe)
            if parent == probe:
                return False
            probe = parent

    def _exists_in_shadow(self, full: str) -> bool:
        return self._lexists(self.shadow(full))

    # Internal helpers use the original functions: the patched ones would redirect again.
    def _lexists(self, path: str) -> bool:
        try:
            self._os["lstat"](path)
        except (OSError, ValueError):
            return False
        return True

    def _mode(self, path: str) -> int:
        try:
            return self._os["stat"](path).st_mode
        except (OSError, ValueError):
            return 0

    def _isdir(self, path: str) -> bool:
        return st.S_ISDIR(self._mode(path))

    def _isfile(self, path: str) -> bool:
        return st.S_ISREG(self._mode(path))

    def _makedirs(self, path: str) -> None:
        if self._isdir(path):
            return
        self._makedirs(os.path.dirname(path))
        try:
            self._os["mkdir"](path)
        except FileExistsError:
            pass

    def _copy_file(self, source: str, target: str) -> None:
        with self._open(source, "rb") as src, self._open(target, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
        self._os["chmod"](target, st.S_IMODE(self._os["stat"](source).st_mode) | 0o600)

    def _copy_tree(self, source: str, target: str) -> None:
        self._os["mkdir"](target)
        for name in self._os["listdir"](source):
            src, dst = os.path.join(source, name), os.path.join(target, name)
            mode = self._os["lstat"](src).st_mode
            if st.S_ISDIR(mode):
                self._copy_tree(src, dst)
            elif st.S_ISREG(mode):
                self._copy_file(src, dst)

    def _remove_tree(self, path: str) -> None:
        if not st.S_ISDIR(self._os["lstat"](path).st_mode):
            self._os["remove"](path)
            return
        for name in self._os["listdir"](path):
            self._remove_tree(os.path.join(path, name))
        self._os["rmdir"](path)

    def _overlaid(self, path: Any) -> tuple[Any, str | None]:
        """``(text, real path)`` of a path the overlay handles; ``(None, None)`` for one it
        leaves alone (not a path, or the dry run's private folder and the passthroughs)."""
        text = _text(path)
        if text is None:
            return None, None
        full = self.real(text)
        return (None, None) if self.passthrough(full) else (text, full)

    def for_read(self, path: Any) -> Any:
        """The path a read of ``path`` must use: its overlay copy, or the real one."""
        text, full = self._overlaid(path)
        if full is None:
            return path
        if self._exists_in_shadow(full):
            return self.shadow(full)
        if self._is_deleted(full) or not self._lexists(full):
            raise self._missing(text)
        return full

    def _missing(self, shown: Any) -> OSError:
        """The error for a path that is not there: ENOTDIR when a parent is a file."""
        full = self.real(os.fsdecode(shown))
        probe = os.path.dirname(full)
        while probe != os.path.dirname(probe):
            if self.exists(probe):
                if not self._isdir(self.for_read(probe)):
                    return NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), shown)
                break
            probe = os.path.dirname(probe)
        return FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), shown)

    def exists(self, full: str) -> bool:
        if self._exists_in_shadow(full):
            return True
        return not self._is_deleted(full) and self._lexists(full)

    def for_write(self, path: Any, *, content: bool = True, what: str = "wrote") -> Any:
        """The overlay path a write of ``path`` uses, copied up first when ``content``."""
        text, full = self._overlaid(path)
        if full is None:
            return path
        target = self.shadow(full)
        if self._isdir(target) or (not self._lexists(target) and not self._is_deleted(full)
                                   and self._isdir(full)):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), text)
        self._ensure_parent(full)
        if not self._lexists(target) and content and not self._is_deleted(full) \
                and self._isfile(full):
            self._copy_file(full, target)
        self._forget_deleted(full)
        self.events.setdefault(full, what)
        return target

    def for_write_dir(self, path: Any) -> Any:
        """The overlay path of a folder that C code will write files into (CatBoost's
        ``train_dir``): made in the overlay, as the real run would make it (its parent
        must exist, as for a file)."""
        text, full = self._overlaid(path)
        if full is None:
            return path
        if self._lexists(full) and not self._isdir(full) and not self._is_deleted(full):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), text)
        self._ensure_parent(full)
        self._makedirs(self.shadow(full))
        self._forget_deleted(full)
        self.events.setdefault(full, "made")
        return self.shadow(full)

    def hold(self, path: str, *, content: bool = True) -> str:
        """Copy ``path`` up for a file the kernel holds open for writing (see `_confine`)."""
        target = self.for_write(path, content=content, what="held open")
        info = self._os["stat"](target)
        self.baseline[self.real(path)] = (info.st_size, info.st_mtime_ns)
        return target

    def _forget_deleted(self, full: str) -> None:
        """``full`` is made anew: no longer deleted, but what the disk had under it stays so."""
        if not self._is_deleted(full):
            return
        self.deleted.discard(full)
        if self._isdir(full):
            for name in self._os["listdir"](full):
                self.deleted.add(os.path.join(full, name))

    def _ensure_parent(self, full: str) -> None:
        parent = os.path.dirname(full)
        if not self.exists(parent):
            raise self._missing(parent)
        self._makedirs(self.shadow(parent))

    # ---- the patched functions --------------------------------------------------------

    def open(self, file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if _text(file) is None or not isinstance(mode, str):
            return self._open(file, mode, *args, **kwargs)
        if set(mode) & set("wax+"):
            full = self.real(_text(file) or "")
            if "x" in mode and not self.passthrough(full) and self.exists(full):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), _text(file))
            file = self.for_write(file, content=not set(mode) & set("wx"))
        else:
            file = self.for_read(file)
        return self._open(file, mode, *args, **kwargs)

    def os_open(self, path: Any, flags: int, mode: int = 0o777, *, dir_fd: Any = None) -> int:
        if dir_fd is not None or _text(path) is None:
            return self._os["open"](path, flags, mode, dir_fd=dir_fd)
        writes = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
        if flags & writes:
            full = self.real(_text(path) or "")
            if flags & os.O_CREAT and flags & os.O_EXCL and not self.passthrough(full) \
                    and self.exists(full):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), _text(path))
            path = self.for_write(path, content=not flags & os.O_TRUNC)
        else:
            path = self.for_read(path)
        return self._os["open"](path, flags, mode)

    def _reader(self, name: str) -> Callable[..., Any]:
        original = self._os[name]

        def read(path: Any, *args: Any, **kwargs: Any) -> Any:
            if kwargs.get("dir_fd") is not None:
                return original(path, *args, **kwargs)
            return original(self.for_read(path), *args, **kwargs)
        return read

    def _changer(self, name: str, what: str) -> Callable[..., Any]:
        original = self._os[name]

        def change(path: Any, *args: Any, **kwargs: Any) -> Any:
            if kwargs.get("dir_fd") is not None or _text(path) is None:
                return original(path, *args, **kwargs)
            full = self.real(_text(path) or "")
            if self.passthrough(full):
                return original(path, *args, **kwargs)
            source = self.for_read(path)  # a missing or deleted path raises here
            if source == full and self._isdir(full):
                self._makedirs(self.shadow(full))  # a folder: its attributes, not its files
            elif source == full:
                return original(self.for_write(path, what=what), *args, **kwargs)
            self.events.setdefault(full, what)
            return original(self.shadow(full), *args, **kwargs)
        return change

    def listdir(self, path: Any = ".") -> list[Any]:
        if _text(path) is None:
            return self._os["listdir"](path)
        names = self._names(_text(path) or ".")
        return [os.fsencode(n) for n in names] if isinstance(path, bytes) else names

    def _names(self, text: str) -> list[str]:
        full = self.real(text)
        if self.passthrough(full):
            return self._os["listdir"](text)
        found: dict[str, None] = {}
        in_shadow = self._isdir(self.shadow(full))
        real_ok = not self._is_deleted(full) and self._isdir(full)
        if not in_shadow and not real_ok:
            return self._os["listdir"](self.for_read(text))  # raises the right error
        if real_ok:
            found.update(dict.fromkeys(self._os["listdir"](full)))
        if in_shadow:
            found.update(dict.fromkeys(self._os["listdir"](self.shadow(full))))
        sep = "" if full.endswith(os.sep) else os.sep
        return [n for n in found if self.exists(full + sep + n)]

    def scandir(self, path: Any = ".") -> Any:
        if _text(path) is None:
            return self._os["scandir"](path)
        text = _text(path) or "."
        entries = [_Entry(name, os.path.join(text, name), os.path.join(text, name),
                          self.lstat, self.stat) for name in self._names(text)]
        return _Scan(entries)

    def stat(self, path: Any, *args: Any, **kwargs: Any) -> Any:
        return self._reader("stat")(path, *args, **kwargs)

    def lstat(self, path: Any, *args: Any, **kwargs: Any) -> Any:
        return self._reader("lstat")(path, *args, **kwargs)

    def mkdir(self, path: Any, mode: int = 0o777, *, dir_fd: Any = None) -> None:
        if dir_fd is not None or _text(path) is None:
            return self._os["mkdir"](path, mode, dir_fd=dir_fd)
        full = self.real(_text(path) or "")
        if self.passthrough(full):
            return self._os["mkdir"](path, mode)
        if self.exists(full):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), _text(path))
        self._ensure_parent(full)
        self._os["mkdir"](self.shadow(full), mode)
        self._forget_deleted(full)
        self.events.setdefault(full, "created folder")
        return None

    def remove(self, path: Any, *, dir_fd: Any = None, _dir: bool = False) -> None:
        name = "rmdir" if _dir else "remove"
        if dir_fd is not None or _text(path) is None:
            return self._os[name](path, dir_fd=dir_fd)
        full = self.real(_text(path) or "")
        if self.passthrough(full):
            return self._os[name](path)
        if not self.exists(full):
            raise self._missing(_text(path))
        is_dir = st.S_ISDIR(self.lstat(path).st_mode)
        if is_dir != _dir:
            code = errno.EISDIR if is_dir else errno.ENOTDIR
            raise OSError(code, os.strerror(code), _text(path))
        if _dir and self._names(full):
            raise OSError(errno.ENOTEMPTY, os.strerror(errno.ENOTEMPTY), _text(path))
        if self._exists_in_shadow(full):
            self._os[name](self.shadow(full))
        self._forget(full, "removed folder" if _dir else "removed")
        return None

    def _forget(self, full: str, what: str) -> None:
        """Mark ``full`` gone: hidden when it exists on disk, else as if never made."""
        if self._lexists(full) and not self._is_deleted(full):
            self.deleted.add(full)
            self.events[full] = what
        else:
            self.events.pop(full, None)
            for path in [p for p in self.events if p.startswith(full + os.sep)]:
                del self.events[path]

    def rmdir(self, path: Any, *, dir_fd: Any = None) -> None:
        return self.remove(path, dir_fd=dir_fd, _dir=True)

    def rmtree(self, path: Any, ignore_errors: bool = False, onerror: Any = None, **_kw: Any) -> None:
        full = self.real(_text(path) or "")
        try:
            if self.passthrough(full):
                return self._remove_tree(full)
            if not self.exists(full):
                raise self._missing(_text(path))
            if not st.S_ISDIR(self.lstat(full).st_mode):
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), _text(path))
        except OSError:
            if ignore_errors:
                return None
            raise
        if self._exists_in_shadow(full):
            self._remove_tree(self.shadow(full))
        self._forget(full, "removed folder")
        return None

    def rename(self, src: Any, dst: Any, *, src_dir_fd: Any = None, dst_dir_fd: Any = None,
               _replace: bool = False) -> None:
        name = "replace" if _replace else "rename"
        if src_dir_fd is not None or dst_dir_fd is not None or None in (_text(src), _text(dst)):
            return self._os[name](src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)
        full_src, full_dst = self.real(_text(src) or ""), self.real(_text(dst) or "")
        if self.passthrough(full_src) and self.passthrough(full_dst):
            return self._os[name](src, dst)
        source = self.for_read(src)  # a missing source raises here
        if full_src == full_dst:
            return None
        self._check_rename(full_src, full_dst, self._isdir(source), _text(dst) or "")
        if self.passthrough(full_dst):
            target = dst
        else:
            self._ensure_parent(full_dst)
            target = self.shadow(full_dst)
        if self._lexists(target):
            self._remove_tree(target)
        if self._isdir(source):
            self._copy_merged(full_src, target)
        else:
            self._copy_file(source, target)
        if self._exists_in_shadow(full_src):
            self._remove_tree(self.shadow(full_src))
        if not self.passthrough(full_src):
            self._forget(full_src, f"renamed to {full_dst}")
        self._forget_deleted(full_dst)
        self.events.setdefault(full_dst, "wrote")
        return None

    def _check_rename(self, full_src: str, full_dst: str, src_dir: bool, shown: str) -> None:
        """Raise what rename(2) raises for these two paths, as the overlay sees them."""
        if src_dir and full_dst.startswith(full_src + os.sep):
            raise OSError(errno.EINVAL, os.strerror(errno.EINVAL), shown)
        if full_src.startswith(full_dst + os.sep):  # onto its own (non-empty) ancestor
            raise OSError(errno.ENOTEMPTY, os.strerror(errno.ENOTEMPTY), shown)
        if not self.exists(full_dst):
            return
        dst_dir = self._isdir(self.for_read(full_dst))
        if src_dir and not dst_dir:
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), shown)
        if dst_dir and not src_dir:
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), shown)
        if dst_dir and self._names(full_dst):
            raise OSError(errno.ENOTEMPTY, os.strerror(errno.ENOTEMPTY), shown)

    def _copy_merged(self, full: str, target: str) -> None:
        """Copy the folder ``full`` as the overlay sees it (disk and overlay) to ``target``."""
        self._os["mkdir"](target)
        for name in self._names(full):
            child = os.path.join(full, name)
            source = self.for_read(child)
            mode = self._os["lstat"](source).st_mode
            if st.S_ISDIR(mode):
                self._copy_merged(child, os.path.join(target, name))
            elif st.S_ISREG(mode):
                self._copy_file(source, os.path.join(target, name))

    def replace(self, src: Any, dst: Any, **kwargs: Any) -> None:
        return self.rename(src, dst, _replace=True, **kwargs)

    def access(self, path: Any, mode: int, **kwargs: Any) -> bool:
        try:
            return self._reader("access")(path, mode, **kwargs)
        except OSError:  # missing in the overlay's view
            return False

    def chdir(self, path: Any) -> None:
        return self._os["chdir"](self.for_read(path))

    def install(self) -> None:
        """Patch the file functions of this (child) process; irreversible."""
        for name in ("open", "stat", "lstat", "listdir", "scandir", "mkdir", "makedirs", "remove",
                     "unlink", "rmdir", "rename", "replace", "chmod", "utime", "truncate",
                     "access", "chdir", "readlink"):
            self._os[name] = getattr(os, name)
        self._makedirs(self.root)
        patches = {
            "open": self.os_open, "stat": self.stat, "lstat": self.lstat,
            "listdir": self.listdir, "scandir": self.scandir, "mkdir": self.mkdir,
            "remove": self.remove, "unlink": self.remove, "rmdir": self.rmdir,
            "rename": self.rename, "replace": self.replace, "chdir": self.chdir,
            "chmod": self._changer("chmod", "changed mode"),
            "utime": self._changer("utime", "changed times"),
            "truncate": self._changer("truncate", "wrote"),
            "access": self.access, "readlink": self._reader("readlink"),
        }
        for name, function in patches.items():
            setattr(os, name, function)
        builtins.open = io.open = self.open
        # IPython puts its own ``open`` in the user's namespace, which calls the ``io.open``
        # it captured at import: point that one at the overlay too
        shell_module = sys.modules.get("IPython.core.interactiveshell")
        if shell_module is not None and getattr(shell_module, "io_open", None) is not None:
            shell_module.io_open = self.open
        shutil.rmtree = self.rmtree  # its fd-based walk bypasses the os functions

    # ---- the evidence -----------------------------------------------------------------

    def report(self) -> tuple[str, ...]:
        """What the cell would have written, one line per path (sizes of written files)."""
        lines = []
        for full, what in self.events.items():
            if what == "held open":
                try:
                    info = self._os["stat"](self.shadow(full))
                except OSError:
                    continue
                if (info.st_size, info.st_mtime_ns) == self.baseline.get(full):
                    continue  # open for writing in the kernel, untouched by the cell
                what = "wrote"
            if what in ("wrote", "changed mode", "changed times"):
                target = self.shadow(full)
                if not self._lexists(target):
                    continue  # written, then removed or renamed away
                if what == "wrote" and self._isfile(target):
                    what = f"wrote {self._os['stat'](target).st_size} bytes to"
                elif what == "wrote":
                    what = "created folder"
            lines.append(f"{what} {full}")
        if len(lines) > _MAX_REPORT:
            lines = lines[:_MAX_REPORT - 1] + [f"... and {len(lines) - _MAX_REPORT + 1} more"]
        return tuple(lines)

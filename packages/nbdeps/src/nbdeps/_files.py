"""Bounded reads of input files and safe replacement of output files.

A path on a command line may name anything: ``/dev/zero`` (a read never ends), a FIFO (an
``open`` blocks until some writer comes), a 300 MiB file of NULs. `read_bounded` opens
without blocking, refuses anything but a regular file and stops at a size limit.
`replace_file` writes a temporary file beside the target and renames it over the target
only when the target is missing or a regular file, so ``-o /dev/null`` or ``-o FIFO`` is
refused instead of turning the node into a file.

crashpredict and benchkit use these too (nbdeps is their common base); nbpatch, a leaf,
keeps its own copy.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from .errors import NbdepsError

__all__ = ["NOTEBOOK_LIMIT", "file_kind", "read_bounded", "replace_file"]

_MIB = 1 << 20
#: bytes a notebook file may have (outputs with images make big but real notebooks)
NOTEBOOK_LIMIT = 256 * _MIB
# O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer; on a regular
# file it changes nothing. Windows has neither FIFOs nor the flag.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words: ``a named pipe (FIFO)``, ``a character device``..."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _mib(size: int) -> str:
    if size < _MIB:
        return f"{size} bytes"
    return f"{size / _MIB:.1f} MiB" if size % _MIB else f"{size // _MIB} MiB"


def _refuse_kind(name: str, mode: int, error: type[Exception]) -> None:
    if not stat.S_ISREG(mode):
        raise error(f"{name}: is {file_kind(mode)}, not a regular file")


def read_bounded(path: str | os.PathLike[str], *, limit: int, what: str = "file",
                 error: type[Exception] = NbdepsError) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    The file is looked at before it is opened (a device is never opened), opened without
    blocking (a FIFO cannot hold the caller) and looked at again through the open file
    descriptor (it cannot be swapped in between); a file that grows past ``limit`` while
    it is read is refused too.

    Args:
        path: the file a user named.
        limit: the most bytes accepted.
        what: the kind of file, for the size message (``notebook``, ``label file``).
        error: the exception class raised, called with one message naming the file.

    Raises:
        error: the file is missing, unreadable, not a regular file (a directory, a FIFO, a
            device, a socket) or larger than ``limit``.

    Example:
        >>> read_bounded("/dev/zero", limit=10)
        Traceback (most recent call last):
        nbdeps.errors.NbdepsError: /dev/zero: is a character device, not a regular file
    """
    name = os.fspath(path)
    try:
        _refuse_kind(name, os.stat(name).st_mode, error)
        fd = os.open(name, _OPEN_FLAGS)
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except OSError as exc:
        raise error(f"{name}: cannot read the file ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        _refuse_kind(name, info.st_mode, error)
        if info.st_size > limit:
            raise error(f"{name}: {_mib(info.st_size)}, over the {_mib(limit)} limit for a {what}")
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise error(f"{name}: cannot read the file ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise error(f"{name}: grew past the {_mib(limit)} limit for a {what} while being read")
    return data


def replace_file(path: str | os.PathLike[str], content: bytes | Callable[[str], object], *,
                 error: type[Exception] = NbdepsError) -> None:
    """Write ``path`` whole or not at all: a temporary file beside it, renamed over it.

    Only a missing path or a regular file is replaced (a symbolic link to one is replaced
    by the new file, as ``os.replace`` does); a directory, a FIFO or a device such as
    ``/dev/null`` is refused and left as it was. The new file gets the usual mode of a new
    file (0666 less the umask), and the temporary file is removed whatever happens.

    Args:
        path: the file to write.
        content: the bytes, or a function that writes the file at the path it is given.
        error: the exception class raised, called with one message naming the file.

    Raises:
        error: ``path`` exists and is not a regular file, or cannot be written.
    """
    out = Path(path)
    name = os.fspath(path)
    try:
        mode = os.stat(out).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise error(f"{name}: cannot write ({exc.strerror or exc})") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise error(f"{name}: cannot write: is {file_kind(mode)}, not a regular file "
                    "(left as it was)")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp",
                                   dir=out.parent if str(out.parent) else ".")
    except OSError as exc:
        raise error(f"{name}: cannot write into {out.parent} ({exc.strerror or exc})") from None
    try:
        if callable(content):
            os.close(fd)
            content(tmp)
        else:
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; an output file is not
        os.replace(tmp, out)
    except OSError as exc:
        _unlink(tmp)
        raise error(f"{name}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        _unlink(tmp)
        raise


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass

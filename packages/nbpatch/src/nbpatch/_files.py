"""Bounded reads of input files, and the check that an output path may be replaced.

A path on the command line may name anything: ``/dev/zero`` (a read never ends), a FIFO (an
``open`` blocks until some writer comes), a 300 MiB file of NULs, or, as ``-o``,
``/dev/null`` (which a rename would turn into a regular file). nbpatch is a leaf and
imports no sibling, so it keeps this small copy of what nbdeps offers its dependents.
"""

from __future__ import annotations

import os
import stat

from .errors import NbpatchError

__all__ = ["NOTEBOOK_LIMIT", "REPLY_LIMIT", "read_bounded", "refuse_non_regular"]

_MIB = 1 << 20
#: bytes a notebook (or a patch, which may carry a whole notebook) may have
NOTEBOOK_LIMIT = 256 * _MIB
#: bytes an LLM or tool reply may have
REPLY_LIMIT = 16 * _MIB
# O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer; on a regular
# file it changes nothing. Windows has neither FIFOs nor the flag.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _kind(mode: int) -> str:
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "not a regular file"


def _mib(size: int) -> str:
    if size < _MIB:
        return f"{size} bytes"
    return f"{size / _MIB:.1f} MiB" if size % _MIB else f"{size // _MIB} MiB"


def _regular(name: str, mode: int, error: type[Exception]) -> None:
    if not stat.S_ISREG(mode):
        raise error(f"{name}: cannot read: is {_kind(mode)}, not a regular file")


def read_bounded(path: str | os.PathLike[str], *, limit: int, what: str,
                 error: type[Exception] = NbpatchError) -> bytes:
    """The bytes of the regular file at ``path``, refusing more than ``limit`` of them.

    The file is looked at before it is opened (a device is never opened), opened without
    blocking (a FIFO cannot hold the caller) and looked at again through the descriptor.

    Raises:
        error: the file is missing, unreadable, not a regular file or over ``limit``; the
            message names it and says which (``what`` names the kind of file).
    """
    name = os.fspath(path)
    try:
        _regular(name, os.stat(name).st_mode, error)
        fd = os.open(name, _OPEN_FLAGS)
    except FileNotFoundError:
        raise error(f"{name}: cannot read (no such file)") from None
    except OSError as exc:
        raise error(f"{name}: cannot read ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        _regular(name, info.st_mode, error)
        if info.st_size > limit:
            raise error(f"{name}: cannot read: {_mib(info.st_size)}, over the {_mib(limit)} "
                        f"limit for a {what}")
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise error(f"{name}: cannot read ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise error(f"{name}: cannot read: grew past the {_mib(limit)} limit for a {what}")
    return data


def refuse_non_regular(path: str | os.PathLike[str], error: type[Exception] = NbpatchError) -> None:
    """Refuse to replace ``path`` when it exists and is not a regular file.

    A rename over a FIFO or over ``/dev/null`` would replace the node with a regular file;
    a symbolic link to a regular file is fine (the link is replaced, as ``os.replace`` does).

    Raises:
        error: ``path`` is a folder, a FIFO, a device or a socket (followed through links).
    """
    name = os.fspath(path)
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise error(f"{name}: cannot write ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        raise error(f"{name}: cannot write: is {_kind(mode)}, not a regular file "
                    "(left as it was)")

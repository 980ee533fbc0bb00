"""The replay kernel's jail: a launcher that starts a Jupyter kernel inside `_jail`.

::

    python -m crashpredict._dryrun._jailkernel --private DIR --ipc DIR --cwd DIR \\
        [--writable DIR]... [--quiet] -- KERNEL-ARGV...

`KernelSession` puts it in front of the kernelspec's argv. It must be the first thing the
new process does (``unshare`` of a user namespace needs a single-threaded caller). The
process tree, all in one process group (jupyter_client starts the launcher as the leader
of a new session and signals that group)::

    launcher   the caller's PID namespace; new user, mount, net, IPC, UTS namespaces
     └ pid 1   the new PID namespace: builds the copy-on-write root (`build_root`, with
       │       the ``--ipc`` and ``--writable`` folders bind-mounted as they are, and
       │       terminals of its own for ``!cmd``: `_terminals`), then only waits
       └ kernel  pid 2: dies with pid 1, no capabilities (bounding set too; a root
                 kernel keeps CAP_SETFCAP in its namespace, see `_drop_capabilities`),
                 exec of ARGV

What a cell can reach from the kernel: a copy-on-write view of the whole file system whose
writes stay in memory and vanish with the namespace (Python, C and subprocesses alike),
the ``--ipc`` folder (its Unix sockets are how the client outside talks to it) and the
``--writable`` ones (`KernelSession` names the private copy of the notebook's folder: it is
disposable, and there large outputs go to its disk rather than to memory, and folders
rename as on any disk), no network interface (TCP loopback included), no process outside
the namespace.

Signals:

- SIGINT (jupyter_client's interrupt, sent to the group) reaches the kernel directly; the
  launcher and pid 1 ignore it, set after their fork (SIG_IGN would survive the exec);
- SIGTERM is forwarded: launcher -> pid 1 -> kernel;
- SIGKILL of the group kills the launcher and pid 1 (from an ancestor namespace SIGKILL
  always reaches it), and with pid 1 every process of the namespace;
- when the launcher's parent (the client) ends, the launcher kills pid 1 (it watches the
  parent through a pidfd, not ``PR_SET_PDEATHSIG``, which fires when the *thread* that
  started it ends); pid 1 and the kernel die with their parents.

Exit status: each waiting process ends as the process below it ended. pid 1 cannot die of
a signal it sends itself, so it exits with 128 + the signal, and the launcher turns that
back into the signal. The kernelspec's ``JPY_PARENT_PID`` is set to 1 for the kernel (its
parent is pid 1 in the namespace; ipykernel would otherwise take pid 1 for a dead parent
and exit). A jail the system refuses (`JailError`: no user namespaces, overlayfs refused)
ends the launcher with `JAIL_REFUSED` and one line on stderr starting with
`REFUSAL_PREFIX`; nothing runs unconfined.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import select
import signal
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import _jail

__all__ = ["JAIL_REFUSED", "REFUSAL_PREFIX", "launcher_argv", "main", "watch_effects"]

#: The launcher's exit code when the jail was refused.
JAIL_REFUSED = 120
#: How the launcher's one line on stderr about a refused jail starts.
REFUSAL_PREFIX = "crashpredict: the replay kernel's jail was refused: "
_EXEC_FAILED = 127
#: The one capability a root kernel keeps (see `_drop_capabilities`).
CAP_SETFCAP = 31
_MS_NOSUID, _MS_NOEXEC = 2, 8


def launcher_argv(*, private: str, ipc: str, cwd: str, writable: Sequence[str] = (),
                  quiet: bool = True) -> list[str]:
    """The command line to put in front of a kernel's argv."""
    return [sys.executable, "-m", "crashpredict._dryrun._jailkernel", "--private", private,
            "--ipc", ipc, "--cwd", cwd, *(a for w in writable for a in ("--writable", w)),
            *(["--quiet"] if quiet else []), "--"]


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m crashpredict._dryrun._jailkernel")
    parser.add_argument("--private", required=True,
                        help="a folder of the launcher's own (the jail's tmpfs is mounted in it)")
    parser.add_argument("--ipc", required=True,
                        help="the folder of the kernel's sockets, writable in the jail")
    parser.add_argument("--cwd", required=True, help="the kernel's working folder")
    parser.add_argument("--writable", action="append", default=[],
                        help="a folder the kernel may write as it is (repeatable)")
    parser.add_argument("--quiet", action="store_true",
                        help="the kernel's stdout and stderr go to /dev/null (the launcher's "
                             "own message about a refused jail stays on stderr)")
    parser.add_argument("kernel", nargs=argparse.REMAINDER, help="-- then the kernel's argv")
    args = parser.parse_args(argv)
    if args.kernel[:1] == ["--"]:
        args.kernel = args.kernel[1:]
    if not args.kernel:
        parser.error("no kernel command after --")
    return args


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Start the kernel in its jail. Never returns: the kernel's process execs the kernel,
    the two above it exit as it ended."""
    args = _parse(sys.argv[1:] if argv is None else argv)
    client = _pidfd(os.getppid())
    if client is None:  # no pidfd: the thread that started the launcher must live as long
        _jail.die_with_parent()
    try:
        _jail.unshare_namespaces()
        pid = os.fork()
    except OSError as exc:
        _refuse(exc)
    if pid:
        _supervise(pid, decode=True, client=client)
    _close(client)
    _jail.die_with_parent()
    try:
        _jail.build_root(args.private, cwd=args.cwd, writable=[args.ipc, *args.writable],
                         gpu=True)
        _terminals()
        pid = os.fork()
    except OSError as exc:
        _refuse(exc)
    if pid:
        _supervise(pid)
    _jail.die_with_parent()
    try:
        _drop_capabilities()
    except OSError as exc:
        _refuse(exc)
    _exec(args.kernel, quiet=args.quiet)


def _terminals() -> None:
    """Give the jail's ``/dev`` a private devpts instance and ``/dev/ptmx``.

    IPython runs ``!cmd`` on a pseudo-terminal (pexpect): without them, every shell
    escape of a replayed cell fails with "out of pty devices". The dry run needs none (it
    starts no process). A new instance holds only the jail's own terminals; where it
    cannot be mounted, shell escapes fail as they would without it, nothing else.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        os.makedirs("/dev/pts", 0o755, exist_ok=True)
        if libc.mount(b"devpts", b"/dev/pts", b"devpts", ctypes.c_ulong(_MS_NOSUID | _MS_NOEXEC),
                      b"newinstance,ptmxmode=0666,mode=0620") != 0:
            return
        if not os.path.lexists("/dev/ptmx"):
            os.symlink("pts/ptmx", "/dev/ptmx")
    except OSError:
        pass


def _drop_capabilities() -> None:
    """Drop every capability, bounding set included, but what root may do to files
    (`_jail.ROOT_FILE_CAPS`: a root kernel's writes, all into the overlay, succeed or fail
    as they would for real) and `CAP_SETFCAP`, for a root kernel.

    The dry run in the kernel jails its fork in user namespaces of its own and maps root
    there, which Linux (5.12 on) allows only when the creator holds ``CAP_SETFCAP``
    (``parent_could_setfcap``). Kept in the jail's user namespace, it lets the kernel set
    file capabilities on files it may write, which are the overlay's in-memory copies,
    and which grant nothing past this bounding set.
    """
    if os.geteuid() != 0:
        _jail.drop_capabilities()
        return
    _jail.drop_capabilities((*_jail.ROOT_FILE_CAPS, CAP_SETFCAP))


def _refuse(exc: OSError) -> NoReturn:
    text = " ".join(str(exc).split()) or type(exc).__name__
    try:
        os.write(2, f"{REFUSAL_PREFIX}{text}\n".encode(errors="replace"))
    except OSError:
        pass
    os._exit(JAIL_REFUSED)


def _exec(argv: list[str], *, quiet: bool) -> NoReturn:
    env = dict(os.environ)
    # ipykernel exits when its parent looks gone: here its parent is pid 1 of the namespace.
    env["JPY_PARENT_PID"] = "1"
    report = 2
    if quiet:
        report = os.dup(2)  # close-on-exec: only a failing exec writes to it
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)
    try:
        os.execvpe(argv[0], argv, env)
    except OSError as exc:
        try:
            os.write(report, f"crashpredict: cannot start the kernel {argv[0]!r}: "
                             f"{exc.strerror or exc}\n".encode(errors="replace"))
        except OSError:
            pass
    os._exit(_EXEC_FAILED)


# ---- the waiting processes ---------------------------------------------------------------------

def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid) if pid > 1 else None
    except (AttributeError, OSError):  # Linux < 5.3, or the parent is gone already
        return None


def _close(fd: int | None) -> None:
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass


def _supervise(pid: int, *, decode: bool = False, client: int | None = None) -> NoReturn:
    """Wait for ``pid`` and end as it ended; forward SIGTERM to it, ignore SIGINT.

    Holds no descriptor of the kernel's (its sockets, the client's pipes) and is not
    dumpable (no core dump; the kernel, of the same user, cannot ptrace it). Reaps every
    child, as pid 1 of a namespace must (orphans of the jail are its children). With
    ``client``, a pidfd of the launcher's parent: when the parent ends first, ``pid`` (pid 1
    of the namespace) is killed, and with it the namespace.
    """
    keep = client if client is not None else -1
    os.closerange(0, max(keep, 0))
    os.closerange(keep + 1, 1 << 16)
    _jail.undumpable()  # the kernel may not ptrace pid 1, which holds the namespace's powers
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the group's interrupt is the kernel's

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    signal.signal(signal.SIGTERM, forward)
    child = _pidfd(pid) if client is not None else None
    if client is not None and child is not None:
        while True:
            ready, _, _ = select.select([child, client], [], [])
            if child in ready:
                break
            if client in ready:  # the client is gone: so is the kernel
                forward(signal.SIGKILL, None)
                break
    while True:
        try:
            done, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(1)
        if done == pid:
            _end_as(os.waitstatus_to_exitcode(status), decode=decode)


def _end_as(code: int, *, decode: bool) -> NoReturn:
    """Exit with ``code``, or die of the signal it stands for (see the module docstring)."""
    sig = -code if code < 0 else (code - 128 if decode and 128 < code < 128 + 65 else 0)
    if sig and os.getpid() != 1:
        try:
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the kernel's crash, not ours
        except (OSError, ValueError):
            pass
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):  # SIGKILL, SIGSTOP: no disposition to reset
            pass
        os.kill(os.getpid(), sig)
    os._exit(128 + sig if sig else code & 0xFF)


# ---- in the jailed kernel: what the jail changes for a cell ------------------------------------

_WATCH: dict[str, object] = {"on": False, "tried": None}


def watch_effects(on: bool) -> str | None:
    """In the jailed kernel: start (``True``) or stop (``False``) noting the first thing a
    cell tries whose outcome the jail changes, and return what was noted since the start.

    Noted: the network (a connection, a bind or a datagram on an internet socket, a name
    look-up: the jail has no interface) and a signal to a process outside the kernel's
    own (its parent, pid 1, every process, a process group: the jail has none of them).
    What a subprocess does is not seen. One audit hook, installed once, off in between.
    """
    tried = _WATCH["tried"] if not on else None
    _WATCH["tried"] = None
    _WATCH["on"] = on
    if on and not _WATCH.get("installed"):
        _WATCH["installed"] = True
        sys.addaudithook(_note_effect)
    return tried if isinstance(tried, str) else None


_INET = (2, 10)  # AF_INET, AF_INET6
_LOOKUPS = ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex",
            "socket.gethostbyaddr", "socket.getnameinfo")


def _note_effect(event: str, args: tuple[object, ...]) -> None:
    if not _WATCH["on"] or _WATCH["tried"] is not None:
        return
    tried = None
    if event in ("socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"):
        if getattr(args[0], "family", None) in _INET:
            tried = f"the network ({event} {args[1]!r})" if len(args) > 1 else "the network"
    elif event in _LOOKUPS:
        tried = f"the network (a name look-up of {args[0]!r})"
    elif event == "os.kill" and len(args) == 2 and isinstance(args[0], int):
        if args[0] <= 1 or args[0] == os.getppid():
            tried = f"a signal to a process outside the kernel (os.kill({args[0]}, {args[1]}))"
    elif event == "os.killpg":
        tried = f"a signal to a process group (os.killpg{args!r})"
    if tried is not None:
        _WATCH["tried"] = tried[:300]


if __name__ == "__main__":
    main()

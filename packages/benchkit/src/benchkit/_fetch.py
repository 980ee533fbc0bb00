"""``benchkit junobench fetch DIR``: download JunoBench and lay it out as benchkit reads it.

JunoBench (Wang et al., 2025, CC BY 4.0) is published as a public GitHub repository; its
archive is downloaded over HTTPS with the standard library, checked (a readable zip or
tar, its CRCs, optionally a SHA-256 the user pins), extracted into a temporary folder
beside ``DIR`` refusing any entry that would land outside it (absolute paths, ``..``,
links pointing out, devices), arranged as one folder per case, checked with
`load_cases`, and only then renamed to ``DIR``: an interrupted or refused fetch leaves
nothing behind.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import stat
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from benchkit.errors import BenchkitError

#: the benchmark's public repository (the paper's artifact)
JUNOBENCH_REPOSITORY = "https://github.com/PELAB-LiU/JunoBench"
#: what ``fetch`` downloads unless told otherwise: the default branch as a zip archive
JUNOBENCH_URL = f"{JUNOBENCH_REPOSITORY}/archive/HEAD.zip"
#: environment variable naming another archive URL (a mirror, a pinned release, a test server)
URL_ENV = "BENCHKIT_JUNOBENCH_URL"
#: the archive, and everything extracted from it, may not exceed this many bytes
MAX_BYTES = 20 * 2**30
MAX_MEMBERS = 200_000
_CHUNK = 1 << 20
_SOURCE_FILE = ".junobench-source.json"

Progress = Callable[[str], None]


class FetchError(BenchkitError):
    """A download that failed, an archive refused, or a destination that cannot be used."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Fetched:
    """What ``fetch_junobench`` put where."""

    folder: Path
    cases: int
    url: str
    sha256: str
    bytes: int


def fetch_junobench(dest: str | Path, *, url: str | None = None, sha256: str | None = None,
                    timeout: float = 60, max_bytes: int = MAX_BYTES,
                    progress: Progress | None = None) -> Fetched:
    """Download JunoBench into ``dest`` (which must not exist, or be an empty folder).

    Args:
        dest: the folder to create; it ends up holding one folder per case.
        url: the archive (zip or tar, optionally compressed) to download; default the
            ``BENCHKIT_JUNOBENCH_URL`` environment variable, else `JUNOBENCH_URL`.
        sha256: if given, the archive's SHA-256 must equal it.
        timeout: seconds without data before the download is given up.
        max_bytes: the archive, and what it unpacks to, may not exceed this.
        progress: called with a line of text now and then.

    Raises:
        FetchError: no network, a refused or corrupt archive, no case in it, or ``dest``
            not usable; nothing is left behind.
    """
    dest = Path(dest)
    url = url or os.environ.get(URL_ENV) or JUNOBENCH_URL
    say = progress or (lambda line: None)
    _check_destination(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{dest.name}-fetch-", dir=dest.parent))
    try:
        archive = work / "archive"
        digest, size = _download(url, archive, timeout=timeout, max_bytes=max_bytes, say=say)
        if sha256 and digest.lower() != sha256.strip().lower():
            raise FetchError(f"{url}: SHA-256 {digest} is not the expected {sha256.strip()}")
        say(f"downloaded {size / 2**20:.1f} MB, SHA-256 {digest}; extracting")
        tree = work / "tree"
        tree.mkdir()
        extract_safely(archive, tree, max_bytes=max_bytes, name=url)
        archive.unlink()
        root = arrange_cases(tree, work / "cases")
        try:
            from benchkit._cases import load_cases  # nbformat loads only when it is needed

            count = len(load_cases(root))
        except BenchkitError as exc:
            raise FetchError(f"{url}: the archive holds no usable case: {exc}") from None
        (root / _SOURCE_FILE).write_text(json.dumps(
            {"url": url, "sha256": digest, "bytes": size, "cases": count,
             "fetched": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, indent=2) + "\n")
        try:
            if dest.is_dir():
                dest.rmdir()  # empty (checked above); the rename needs the name free
            os.replace(root, dest)
        except OSError as exc:
            raise FetchError(f"{dest}: cannot put the cases there: {exc.strerror or exc}") from None
        return Fetched(folder=dest, cases=count, url=url, sha256=digest, bytes=size)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _check_destination(dest: Path) -> None:
    if dest.is_dir():
        if any(dest.iterdir()):
            raise FetchError(f"{dest}: already exists and is not empty; choose a new folder")
    elif dest.exists() or dest.is_symlink():
        raise FetchError(f"{dest}: exists and is not a folder")


def _download(url: str, target: Path, *, timeout: float, max_bytes: int,
              say: Progress) -> tuple[str, int]:
    if not url.startswith(("https://", "http://", "file://")):
        raise FetchError(f"{url}: not an http(s) or file URL")
    import urllib.error  # imported here: urllib.request (http, ssl, email) costs `benchkit
    import urllib.request  # --version` a fifth of its start, and only fetch needs it

    request = urllib.request.Request(url, headers={"User-Agent": "benchkit-junobench-fetch"})
    digest, size, shown = hashlib.sha256(), 0, 0
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response, target.open("wb") as out:
            while chunk := response.read(_CHUNK):
                size += len(chunk)
                if size > max_bytes:
                    raise FetchError(f"{url}: the archive is larger than {max_bytes} bytes")
                digest.update(chunk)
                out.write(chunk)
                if size - shown >= 50 * _CHUNK:
                    shown = size
                    say(f"  {size / 2**20:.0f} MB")
    except urllib.error.HTTPError as exc:
        raise FetchError(f"cannot download {url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise FetchError(f"cannot download {url}: {reason} (no network? give a reachable "
                         f"mirror with --url or {URL_ENV})") from None
    return digest.hexdigest(), size


# ---------------------------------------------------------------- safe extraction

def _safe_parts(name: str, archive: str) -> tuple[str, ...]:
    """The path parts of an archive entry, refusing any that could leave the folder."""
    path = name.replace("\\", "/")
    parts = PurePosixPath(path).parts
    if not parts or path.startswith("/") or (parts[0].endswith(":") and len(parts[0]) == 2) \
            or any(p == ".." for p in parts) or "\0" in path:
        raise FetchError(f"{archive}: refused: entry {name!r} would be written outside the folder")
    return tuple(p for p in parts if p not in ("", "."))


def _link_stays_inside(parts: tuple[str, ...], target: str) -> bool:
    if target.startswith("/") or "\\" in target:
        return False
    depth = len(parts) - 1  # the link's folder, relative to the root
    for part in PurePosixPath(target).parts:
        depth += -1 if part == ".." else 0 if part == "." else 1
        if depth < 0:
            return False
    return True


def extract_safely(archive: Path, into: Path, *, max_bytes: int = MAX_BYTES, name: str = "") -> None:
    """Unpack a zip or tar archive into ``into``, refusing the whole archive if any entry
    is absolute, climbs out with ``..``, is a link pointing outside, or is a device;
    or if it unpacks to more than ``max_bytes``.

    Raises:
        FetchError: the archive is corrupt, refused, or of an unknown kind.
    """
    name = name or str(archive)
    if zipfile.is_zipfile(archive):
        _extract_zip(archive, into, max_bytes, name)
    elif tarfile.is_tarfile(archive):
        _extract_tar(archive, into, max_bytes, name)
    else:
        raise FetchError(f"{name}: not a zip or tar archive")


def _extract_zip(archive: Path, into: Path, max_bytes: int, name: str) -> None:
    try:
        with zipfile.ZipFile(archive) as zf:
            members = zf.infolist()
            _check_totals(len(members), sum(m.file_size for m in members), max_bytes, name)
            links = []
            for m in members:
                parts = _safe_parts(m.filename, name)
                mode = m.external_attr >> 16
                if stat.S_ISLNK(mode):
                    target = zf.read(m).decode("utf-8", "replace")
                    if not _link_stays_inside(parts, target):
                        raise FetchError(f"{name}: refused: link {m.filename!r} points outside the folder")
                    links.append((parts, target))
                elif parts and not m.is_dir():
                    path = into.joinpath(*parts)
                    path.parent.mkdir(parents=True, exist_ok=True)
                    with zf.open(m) as src, path.open("wb") as out:  # CRC checked on read
                        shutil.copyfileobj(src, out, _CHUNK)
                elif parts:
                    into.joinpath(*parts).mkdir(parents=True, exist_ok=True)
            for parts, target in links:  # last, so no file is ever written through a link
                path = into.joinpath(*parts)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.symlink_to(target)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, NotImplementedError) as exc:
        raise FetchError(f"{name}: corrupt archive: {exc}") from None


def _extract_tar(archive: Path, into: Path, max_bytes: int, name: str) -> None:
    try:
        with tarfile.open(archive) as tf:
            members = tf.getmembers()
            _check_totals(len(members), sum(m.size for m in members if m.isfile()), max_bytes, name)
            for m in members:
                parts = _safe_parts(m.name, name)
                if m.issym() and not _link_stays_inside(parts, m.linkname):
                    raise FetchError(f"{name}: refused: link {m.name!r} points outside the folder")
                if m.islnk():
                    _safe_parts(m.linkname, name)
                if not (m.isfile() or m.isdir() or m.issym() or m.islnk()):
                    raise FetchError(f"{name}: refused: {m.name!r} is not a file, folder or link")
            # the standard library's "data" filter repeats these checks as a second line
            tf.extractall(into, filter="data")
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise FetchError(f"{name}: corrupt or refused archive: {exc}") from None


def _check_totals(count: int, size: int, max_bytes: int, name: str) -> None:
    if count > MAX_MEMBERS:
        raise FetchError(f"{name}: refused: {count} entries (at most {MAX_MEMBERS})")
    if size > max_bytes:
        raise FetchError(f"{name}: refused: unpacks to {size} bytes (at most {max_bytes})")


# ---------------------------------------------------------------- layout

def arrange_cases(tree: Path, root: Path) -> Path:
    """Lay the extracted ``tree`` out as benchkit reads it and return that folder.

    If every case folder (``<case>/<case>_reproduced.ipynb``) sits in one folder, that
    folder is the root, with the label sheets beside them. Case folders spread over
    several folders (grouped by library, say) are gathered under ``root``, and notebooks
    lying loose (``<case>_reproduced.ipynb`` next to each other) each get a case folder.
    JunoBench's label sheet (``*.xlsx``/``*.csv``) is put at the root when it is elsewhere.

    Raises:
        FetchError: no case found, or two cases with the same name.
    """
    found = sorted(p.parent for p in tree.rglob("*_reproduced.ipynb")
                   if not p.is_symlink() and ".ipynb_checkpoints" not in p.parts)
    foldered = [d for d in found if (d / f"{d.name}_reproduced.ipynb").is_file()]
    loose = sorted({p for d in found for p in d.glob("*_reproduced.ipynb")
                    if p.parent.name != p.name.removesuffix("_reproduced.ipynb")})
    if not foldered and not loose:
        raise FetchError("the archive holds no case (no <case>/<case>_reproduced.ipynb)")
    parents = {d.parent for d in foldered}
    if len(parents) == 1 and not loose:
        return _with_sheets(parents.pop(), tree)
    root.mkdir()
    names: set[str] = set()
    for d in foldered:
        _claim(names, d.name)
        shutil.move(str(d), root / d.name)
    for notebook in loose:
        case = notebook.name.removesuffix("_reproduced.ipynb")
        _claim(names, case)
        (root / case).mkdir()
        for version in (*_versions(), "original"):
            path = notebook.with_name(f"{case}_{version}.ipynb")
            if path.is_file():
                shutil.move(str(path), root / case / path.name)
    return _with_sheets(root, tree)


def _claim(names: set[str], name: str) -> None:
    if name in names:
        raise FetchError(f"the archive holds two cases named {name!r}")
    names.add(name)


def _with_sheets(root: Path, tree: Path) -> Path:
    """Copy label sheets from anywhere in the tree to ``root`` when it has none."""
    if any(root.glob("*.xlsx")) or any(root.glob("*.csv")):
        return root
    for sheet in sorted(tree.rglob("*.xlsx")) + sorted(tree.rglob("*.csv")):
        if sheet.is_file() and not sheet.is_symlink() and _is_label_sheet(sheet):
            shutil.copy2(sheet, root / sheet.name)
    return root


def _is_label_sheet(path: Path) -> bool:
    """A sheet with JunoBench's case-name column (``nb_name``)."""
    try:
        if path.suffix == ".xlsx":
            from benchkit._xlsx import read_xlsx_rows

            rows = read_xlsx_rows(path)
            return bool(rows) and "nb_name" in rows[0]
        with path.open(newline="", encoding="utf-8-sig", errors="replace") as fh:
            return "nb_name" in next(csv.reader(fh), [])
    except Exception:  # an unreadable sheet is just not a label sheet
        return False


def _versions() -> tuple[str, ...]:
    from benchkit._cases import VERSIONS  # imported late: _cases loads nbformat (seconds)

    return VERSIONS

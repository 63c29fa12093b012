"""`lunchbox sim` under hostile arguments and signals: every bad path is refused
before the run starts with one line and a fix (never a traceback, never a crash record in the
save), SIGTERM and Ctrl-C stop a headless run with the save file intact, FIFOs never block,
and key scripts are bounded."""

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from lunchbox.errors import LunchboxError
from lunchbox.sim import hw as sim_hw
from lunchbox.sim.script import compile_script


def refused(r, *words):
    """A one-line error with a fix, a non-zero exit, no traceback."""
    assert r.returncode != 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    lines = [line for line in r.stderr.splitlines() if line.startswith("lunchbox sim:")]
    assert len(lines) == 1, r.stderr
    assert "fix:" in r.stderr
    for w in words:
        assert w in lines[0], r.stderr
    return lines[0]


def test_screenshot_that_is_a_folder_or_under_a_file(tmp_path, run_lunchbox):
    nvm = tmp_path / "nvm.bin"
    (tmp_path / "afile").write_text("x")
    for shot, why in ((tmp_path, "is a folder"), (tmp_path / "afile" / "s.png", "is a file")):
        r = run_lunchbox("sim", "--headless", "--nvm", str(nvm), "--keys", "ok",
                     "--screenshot", str(shot))
        refused(r, "--screenshot", why)
        assert not nvm.exists()  # refused before the run started


def test_shot_word_to_a_folder_refused_before_running(tmp_path, run_lunchbox):
    nvm = tmp_path / "nvm.bin"
    r = run_lunchbox("sim", "--headless", "--nvm", str(nvm), "--keys",
                 "wait:200 shot:{} ok".format(tmp_path))
    refused(r, "shot:", "is a folder")
    assert not nvm.exists()


def test_shot_that_fails_while_running_is_no_firmware_crash(tmp_path, monkeypatch):
    # The check before the run cannot foresee every failure (a disk that fills up): a save
    # that fails inside the firmware's loop must end the run with the tool's message, not
    # go through the firmware's crash handler (which would record a crash in the save).
    from lunchbox import sim

    nvm = tmp_path / "nvm.bin"
    s = sim.Simulator("pico-display-pack", nvm_path=str(nvm), mode="headless")
    import pygame

    def full(surface, path):
        raise pygame.error("No space left on device (disk-full-marker)")

    monkeypatch.setattr(pygame.image, "save", full)
    try:
        with pytest.raises(LunchboxError, match="cannot save the screenshot .*disk-full"):
            s.run_script("wait:300 shot:{} wait:300".format(tmp_path / "s.png"))
    finally:
        s.close()
    assert b"disk-full-marker" not in nvm.read_bytes()  # no crash record
    assert s.starts == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_nvm_folder_under_a_file_or_fifo(tmp_path, run_lunchbox):
    (tmp_path / "afile").write_text("x")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for nvm, why in ((tmp_path, "is a folder"), (tmp_path / "afile" / "nvm.bin", "is a file"),
                     (fifo, "a pipe")):
        r = run_lunchbox("sim", "--headless", "--nvm", str(nvm), "--keys", "ok", timeout=30)
        refused(r, "--nvm", why)
    assert (tmp_path / "afile").read_text() == "x"


def test_home_that_is_a_file_or_unusable(tmp_path, run_lunchbox):
    home = tmp_path / "home-file"
    home.write_text("not a folder")
    r = run_lunchbox("sim", "--headless", "--keys", "ok", env={"HOME": str(home)})
    assert "HOME=" in refused(r, "save file") + r.stderr and "--nvm" in r.stderr
    # a home folder nobody can create folders in (even root cannot under /proc)
    r = run_lunchbox("sim", "--headless", "--keys", "ok", env={"HOME": "/proc/self/fdinfo"})
    refused(r)
    assert "--nvm" in r.stderr


LONG_SCRIPT = " ".join(["next*1000 prev*1000"] * 5)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_headless_run_stops_on_sigterm_and_ctrl_c(tmp_path, signum, run_lunchbox):
    nvm = tmp_path / "nvm.bin"
    proc = run_lunchbox.popen("sim", "--headless", "--nvm", str(nvm), "--keys", LONG_SCRIPT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not nvm.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # well inside the script (10,000 presses: several seconds)
        assert proc.poll() is None
        sent = time.monotonic()
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signum, err
    assert took < 10 and "Traceback" not in err  # at the next idle: well under a second here
    assert "stopped by" in err and "is complete" in err
    assert len(nvm.read_bytes()) == sim_hw.NVM_SIZE
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize("mode", ["--window", "--terminal"])
def test_window_and_terminal_modes_stop_on_sigterm(tmp_path, mode, run_lunchbox):
    import select

    nvm = tmp_path / "nvm.bin"
    master, slave = os.openpty()  # the terminal mode draws into it; the window mode ignores it
    proc = run_lunchbox.popen("sim", mode, "--nvm", str(nvm), stdin=slave, stdout=slave,
                              stderr=subprocess.PIPE)
    os.close(slave)

    def drain(seconds, until=lambda: False):
        end = time.monotonic() + seconds
        while time.monotonic() < end and not until():
            if select.select([master], [], [], 0.05)[0]:
                try:
                    os.read(master, 65536)
                except OSError:
                    return

    try:
        drain(60, until=nvm.exists)
        drain(1.0)
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        # at the next idle: after the first screen is drawn, which takes a few seconds
        # of pure-Python drawing on a loaded machine
        drain(30, until=lambda: proc.poll() is not None)  # returns early when it exits
        try:
            proc.wait(timeout=30)
            stopped = True
        except subprocess.TimeoutExpired:
            stopped = False
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    err = proc.stderr.read().decode()
    assert stopped, "still running 30 s after SIGTERM"
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "stopped by SIGTERM" in err and "Traceback" not in err
    assert len(nvm.read_bytes()) == sim_hw.NVM_SIZE


def test_script_length_is_bounded():
    from lunchbox.sim.script import MAX_SCRIPT_MS

    t = compile_script("wait:600000 wait:600000 wait:500000")
    assert t[-1][0] <= MAX_SCRIPT_MS + 1000
    for bad in ("wait:600000*1000", "wait:600000 " * 4, "next*1000 " * 200, "ok " * 30000):
        with pytest.raises(LunchboxError, match="key script"):
            compile_script(bad)


def test_script_too_long_refused_by_the_command(tmp_path, run_lunchbox):
    r = run_lunchbox("sim", "--headless", "--nvm", str(tmp_path / "n.bin"), "--keys",
                 "wait:600000*1000", timeout=20)
    refused(r, "key script", "minutes")


def test_good_save_with_junk_appended_is_kept(tmp_path):
    path = tmp_path / "nvm.bin"
    good = bytes((i * 7) & 0xFF for i in range(sim_hw.NVM_SIZE))
    path.write_bytes(good + b"junk after the save")
    nvm = sim_hw.FileNvm(str(path))
    assert bytes(nvm.data) == good
    assert path.read_bytes() == good  # the file is the 4 KB nvm again
    path.write_bytes(good[:100])  # a short file: what is there is kept, the rest erased
    assert bytes(sim_hw.FileNvm(str(path)).data) == good[:100] + b"\xff" * (
        sim_hw.NVM_SIZE - 100)


def test_nvm_path_not_utf8_refused_before_anything_is_made(tmp_path, run_lunchbox):
    nvm = os.fsencode(str(tmp_path)) + b"/caf\xe9.bin"
    r = run_lunchbox(b"sim", b"--headless", b"--nvm", nvm, b"--keys", b"ok", text=False,
                     timeout=60)
    err = r.stderr.decode("utf-8", "backslashreplace")
    assert r.returncode == 2 and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("lunchbox sim:")]
    assert len(lines) == 1 and "--nvm is not valid UTF-8" in lines[0] and "\\xe9" in lines[0]
    assert os.listdir(tmp_path) == []  # no save file made


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_garbage_in_the_sim_link_file(tmp_path, run_lunchbox):
    # what --sim reads to find a running simulator: bytes that are no path, a FIFO, a device,
    # a path to something that is no terminal; one line each, nothing hangs, nothing changes
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "plain.txt").write_text("x")
    cases = {"garbage": b"\xff\xfe\x00garbage\n", "empty": b"", "nul": b"/dev/\x00tty\n",
             "two lines": b"/dev/null\n/dev/null\n", "huge": b"/" * (1 << 20),
             "a file": str(tmp_path / "plain.txt").encode(), "a FIFO": str(fifo).encode()}
    links = {}
    for name, data in cases.items():
        links[name] = tmp_path / (name.replace(" ", "-") + ".link")
        links[name].write_bytes(data)
    links["the link file a FIFO"] = fifo
    links["the link file a device"] = Path("/dev/zero")
    before = {p: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    for name, link in links.items():
        for command in ("pull", "push"):
            argv = [command, "--sim"] + (["--db", str(tmp_path / "g.db")]
                                         if command == "pull" else ["--clock"])
            r = run_lunchbox(*argv, env={"LUNCHBOX_SIM_LINK": str(link)}, timeout=30)
            assert r.returncode == 1 and "Traceback" not in r.stderr, (name, r.stderr)
            lines = [ln for ln in r.stderr.splitlines() if ln.startswith("lunchbox " + command)]
            assert len(lines) == 1 and "fix:" in r.stderr, (name, r.stderr)
    assert {p: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before
    assert not (tmp_path / "g.db").exists()


def test_the_sim_link_file_is_written_aside_under_a_unique_name(tmp_path, monkeypatch):
    # the user's own "sim-link.tmp" (or a second simulator's temporary) is never overwritten
    from lunchbox.records import link as hostlink

    monkeypatch.setenv(hostlink.SIM_LINK_ENV, str(tmp_path / "sim-link"))
    (tmp_path / "sim-link.tmp").write_bytes(b"the user's own file\n")
    (tmp_path / "victim").write_bytes(b"precious\n")
    (tmp_path / "sim-link").symlink_to(tmp_path / "victim")  # replaced, not written through
    hostlink.announce_sim_link("/dev/pts/99")
    assert hostlink.read_sim_link() == "/dev/pts/99"
    assert (tmp_path / "sim-link.tmp").read_bytes() == b"the user's own file\n"
    assert (tmp_path / "victim").read_bytes() == b"precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sim-link", "sim-link.tmp", "victim"]

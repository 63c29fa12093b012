"""`lunchbox sim` as a user runs it: the command line, the key-script language, the terminal
renderer (under a pseudo-terminal), the window mode (SDL's dummy driver) and the data-channel
pty."""

import os
import select
import subprocess
import time
from pathlib import Path

import pytest

from lunchbox.errors import LunchboxError
from lunchbox.sim.script import compile_script
from lunchbox.sim.term import parse_keys, pick_factor, render_lines

ROOT = Path(__file__).resolve().parent.parent


# the key-script language

def test_script_timeline():
    t = compile_script("next long:back wait:500 ok*2 shot:a.png reset")
    keys = [a for _t, a in t if a[0] == "key"]
    assert keys == [("key", 1, True), ("key", 1, False), ("key", 3, True), ("key", 3, False),
                    ("key", 2, True), ("key", 2, False), ("key", 2, True), ("key", 2, False)]
    times = [tm for tm, _a in t]
    assert times == sorted(times)
    down = [tm for tm, a in t if a == ("key", 3, True)][0]
    up = [tm for tm, a in t if a == ("key", 3, False)][0]
    assert up - down == 1000  # long: a second
    assert t[-1][1] == ("end",) and ("reset",) in [a for _t, a in t]
    assert ("shot", "a.png") in [a for _t, a in t]


def test_script_aliases_and_hold():
    t = compile_script("up, down enter esc hold:ok:250")
    keys = [a[1] for _t, a in t if a[0] == "key" and a[2]]
    assert keys == [0, 1, 2, 3, 2]
    downs = [tm for tm, a in t if a[0] == "key"]
    assert downs[-1] - downs[-2] == 250


@pytest.mark.parametrize("bad,message", [
    ("jump", "unknown button"), ("wait:soon", "not a number"), ("long:ok:5", "long:NAME"),
    ("hold:ok", "hold:NAME:MS"), ("next*0", "repeat count"), ("shot:", "file name"),
    ("wait:-5", "out of range"),
])
def test_script_errors(bad, message):
    with pytest.raises(LunchboxError, match=message) as err:
        compile_script("next " + bad)
    assert err.value.hint


# the command line

def test_headless_screenshot_and_print(tmp_path, run_lunchbox, nvm):
    shot = tmp_path / "aqua.png"
    r = run_lunchbox("sim", "--headless", "--nvm", nvm, "--keys",
                 "next next ok next ok ok next*5 ok", "--screenshot", str(shot), "--print-screen")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:2] == ["Strength", "?"] and "1 Walrus" in lines
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import pygame

    img = pygame.image.load(str(shot))
    assert img.get_size() == (240, 135)
    # the nvm file was kept: the next run offers to resume
    r = run_lunchbox("sim", "--headless", "--nvm", nvm, "--print-screen")
    assert r.stdout.splitlines()[0] == "Resume game?"
    r = run_lunchbox("sim", "--headless", "--nvm", nvm, "--erase-nvm",
                 "--keys", "wait:3000", "--print-screen")
    assert r.stdout.splitlines()[0] == "Lunchbox"


def test_a_screenshot_never_writes_through_a_link(tmp_path, run_lunchbox, nvm):
    """--screenshot onto a symlink is refused in one line; the file it points to is kept."""
    mine = tmp_path / "mine.txt"
    mine.write_text("keep me")
    link = tmp_path / "shot.png"
    link.symlink_to(mine)
    r = run_lunchbox("sim", "--headless", "--nvm", nvm, "--keys", "wait:500",
                     "--screenshot", str(link))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "link" in r.stderr and len(r.stderr.strip().splitlines()) <= 2, r.stderr
    assert mine.read_text() == "keep me" and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != nvm.split("/")[-1]) == \
        ["mine.txt", "shot.png"]  # no temporary left beside it


def test_bad_arguments_exit_with_a_hint(tmp_path, run_lunchbox, nvm):
    r = run_lunchbox("sim", "--headless", "--nvm", nvm, "--keys", "fly")
    assert r.returncode == 1
    assert "unknown button 'fly'" in r.stderr and "fix:" in r.stderr
    r = run_lunchbox("sim", "--terminal", "--screenshot", str(tmp_path / "x.png"))
    assert r.returncode == 1 and "--headless" in r.stderr
    r = run_lunchbox("sim", "--headless", "--profile", "no-such-board", "--nvm", nvm)
    assert r.returncode != 0 and "no-such-board" in r.stderr
    assert "Traceback" not in r.stderr


def test_readme_shots(tmp_path, run_lunchbox):
    r = run_lunchbox("sim", "--readme-shots", str(tmp_path))
    assert r.returncode == 0, r.stderr
    names = sorted(p.name for p in tmp_path.iterdir())
    assert {"aqua-brunch-display-pack.png", "aqua-brunch-ssd1306.png",
            "menu-display-pack.png", "menu-ssd1306.png",
            "space-lunch-turn-display-pack.png", "space-lunch-end-ssd1306.png"} <= set(names)
    # exactly the pictures of the README's table, as the help says
    import re

    readme = (ROOT / "README.md").read_text()
    shown = {m for m in re.findall(r"\(docs/img/([\w-]+\.png)\)", readme)
             if not m.startswith("stats-")}
    assert set(names) == shown and len(names) == 26
    assert "every picture of the README's table" in " ".join(
        run_lunchbox("sim", "--help").stdout.split())
    import pygame

    assert pygame.image.load(str(tmp_path / "menu-ssd1306.png")).get_size() == (384, 192)
    # the committed README pictures are what the firmware draws now (`make screenshots`)
    committed = ROOT / "docs" / "img"
    for name in names:
        fresh = pygame.surfarray.array3d(pygame.image.load(str(tmp_path / name)))
        kept = pygame.surfarray.array3d(pygame.image.load(str(committed / name)))
        assert (fresh == kept).all(), "docs/img/{} is out of date: run make screenshots".format(
            name)


# the terminal renderer

# how the README writes a key the terminal reads (the other spellings are the same key)
KEY_WORDS = {b"\x1b[A": "Up arrow", b"\x1b[D": "Left", b"\x1b[B": "Down arrow",
             b"\x1b[C": "Right", b"\r": "Enter", b" ": "Space", b"\x7f": "Backspace",
             b"\x1b": "Esc", b"u": "`u`", b"o": "`o`", b"q": "`q`", b"\x03": "Ctrl-C"}
ROWS = {"prev": "previous", "next": "next", "ok": "OK", "long-ok": "OK", "back": "back",
        "undo": "undo (a long back)", "quit": "quit the simulator"}


def test_the_readme_gives_every_key_the_terminal_reads():
    from lunchbox.sim.term import KEYS

    lines = (ROOT / "README.md").read_text().splitlines()
    start = lines.index("| the box's button | in the window | in the terminal |")
    table = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        table[cells[0]] = cells[2]
    assert set(table) == set(ROWS.values())
    said = {action for action in KEYS.values()}
    assert said == set(ROWS)  # a new key action needs a row
    for key, action in KEYS.items():
        if key in KEY_WORDS:
            assert KEY_WORDS[key] in table[ROWS[action]], (key, action, table[ROWS[action]])
    assert "long OK" in table["OK"]


def test_parse_keys():
    assert parse_keys(b"\x1b[A\x1b[B\x1b[C\x1b[D\r \x7f\x1bu o q") == [
        "prev", "next", "next", "prev", "ok", "ok", "back", "back", "undo", "ok", "long-ok",
        "ok", "quit"]
    assert parse_keys(b"\x1b[5~x") == []  # an unused escape sequence and stray bytes


def test_pick_factor():
    assert pick_factor(240, 135, 250, 80) == 1
    assert pick_factor(240, 135, 120, 40) == 2
    assert pick_factor(128, 64, 80, 24) == 2


def test_render_lines_half_blocks():
    import numpy as np

    rgb = np.zeros((4, 4, 3), dtype=np.uint8)
    rgb[0, 0] = (255, 0, 0)  # top-left pixel red
    lines = render_lines(rgb)
    assert len(lines) == 2
    assert lines[0].count("\u2580") == 4
    assert lines[0].startswith("\x1b[38;2;255;0;0m\x1b[48;2;0;0;0m")
    mono = np.zeros((4, 4, 3), dtype=np.uint8)
    mono[1, 1] = (255, 255, 255)
    grey = render_lines(mono, 2, mono=True)[0]
    level = int(grey.split("38;2;")[1].split(";")[0])
    assert level > 50  # one lit pixel in a 2x2 block stays visible, as grey


def test_terminal_taps_queue_behind_a_held_key(simulate):
    """A terminal has no key-up: each key is a tap. Backspace typed while the 900 ms "u"
    (undo = a long back) is still held must come after it, not vanish into it."""
    sim = simulate("pico-display-pack", None)
    sim.tap(3, 900)  # u
    sim.clock.advance(300)
    sim.tap(3)  # Backspace
    sim.tap(1)  # an arrow: another button is not held up
    seen = sim.buttons.poll()
    for _ in range(120):
        sim.clock.advance(10)
        sim._release_due()
        seen += [(sim.clock(), b, p) for b, p, _at in sim.buttons.poll()]
    assert seen == [(3, True, None), (1, True, None), (380, 1, False),
                    (900, 3, False), (920, 3, True), (1000, 3, False)]


def test_terminal_mode_under_a_pty(run_lunchbox, nvm):
    master, slave = os.openpty()
    proc = run_lunchbox.popen("sim", "--terminal", "--profile", "pico-ssd1306-5btn", "--nvm", nvm,
                              stdin=slave, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    out = b""

    def read_for(seconds):
        nonlocal out
        end = time.time() + seconds
        while time.time() < end:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    return

    try:
        read_for(6)
        first = len(out)
        assert "\u2580".encode() in out and b"\x1b[38;2;" in out
        os.write(master, b"\x1b[B")  # next: the menu redraws
        read_for(1.5)
        assert len(out) > first
        os.write(master, b"q")
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


def test_window_mode_with_keyboard_events(nvm):
    import pygame

    from lunchbox.sim import Simulator

    sim = Simulator("pico-display-pack", nvm_path=nvm, mode="window")
    assert sim.driver.window is not None
    posted = []

    def post_keys():
        # the window's keyboard: Down, Down, Enter opens Aqua Brunch's list; then close it
        if not posted:
            for key in (pygame.K_DOWN, pygame.K_DOWN, pygame.K_RETURN):
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
                pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key))
            posted.append(sim.clock())
        elif sim.clock() - posted[0] > 500:
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    original = sim._pump_window

    def pump():
        post_keys()
        original()

    sim._pump_window = pump
    sim.run_interactive()
    assert sim.texts()[:2] == ["Aqua Brunch", "Scoreboard"]
    assert sim.driver.window.get_size() == (720, 405 + 24)  # 3x, and the LED strip
    sim.close()


def test_data_channel_pty(simulate, nvm):
    sim = simulate("pico-display-pack", None, nvm, link=True)
    host = os.open(sim.link.path, os.O_RDWR | os.O_NOCTTY)
    try:
        from lunchbox.records import linkproto as lp

        os.write(host, lp.encode(lp.HELLO, 1) + lp.encode(lp.GAME, 2) + lp.encode(lp.LIST, 3,
                                                                                 bytes(4)))
        sim.run_script("wait:100")
        time.sleep(0.1)
        got = lp.Parser().feed(os.read(host, 4096))
        assert [(t, tag) for t, tag, _ in got] == [(0x81, 1), (0x88, 2), (0x82, 3)]
        hello = lp.parse_hello(got[0][2])
        assert (hello.firmware, hello.profile, hello.waiting) == ("0.1.0", "pico-display-pack", 0)
        assert got[1][2] == b"" and got[2][2] == b"\x00"  # no game, no records
    finally:
        os.close(host)

"""What many test files share: the firmware on sys.path, no window or sound, the reference
displays, a simulator started on a key script, an nvm file, a user's own profile file,
folders standing in for the board's drives (CIRCUITPY and the RPI-RP2 bootloader), and a
web server on 127.0.0.1 standing in for a download site."""

import http.server
import os
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

# The firmware's own modules (companion, boot, code) import as they do on CIRCUITPY, but at the
# END of sys.path: firmware/code.py must never shadow the stdlib `code` module that pdb imports.
ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = str(ROOT / "firmware")
if FIRMWARE not in sys.path:
    sys.path.append(FIRMWARE)

# Before any test imports pygame: tests never open a window or play a sound.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest  # noqa: E402 (after the paths and SDL settings)
from profiles_under_test import PROFILES  # noqa: E402 (the reference displays)


def pytest_collection_modifyitems(items):
    """The long emulator runs first: each xdist group (a lane's profile, the emulated board)
    is one unit of work of up to a minute or two, and handed out last it kept one core busy
    alone at the end while the other had nothing left (make test's two cores ~89 % used).
    Started first, the short tests fill in around them. The order within each part stays."""
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)


@pytest.fixture(autouse=True)
def no_mpy_cross_from_outside(monkeypatch, tmp_path_factory):
    """`lunchbox sync` compiles to .mpy with CircuitPython's mpy-cross from the user's cache,
    PATH or a download: in tests none of those reach outside (an empty cache of the test's
    own, no PATH lookup, downloads to a refused local port), so syncs ship .py with a warning
    unless a test gives its own compiler."""
    from lunchbox.device import mpycross, mpycross_get

    monkeypatch.setenv("LUNCHBOX_CACHE", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setattr(mpycross, "ON_PATH", None)
    monkeypatch.setattr(mpycross_get, "BASE", "http://127.0.0.1:9/")


# --- the simulator ---------------------------------------------------------------------------

@pytest.fixture(params=PROFILES)
def profile(request):
    """Each reference display in turn."""
    return request.param


@pytest.fixture
def nvm(tmp_path):
    """The path of a fresh nvm file (``lunchbox sim --nvm``): erased until something saves."""
    return str(tmp_path / "nvm.bin")


@pytest.fixture
def nvm_store():
    """``nvm_store(path)``: the firmware's Store over an nvm file, as the device reads its own
    flash; every write goes straight to the file (host/lunchbox/sim/hw.py FileNvm)."""
    from companion.store.store import Store
    from lunchbox.sim.hw import FileNvm

    return lambda path: Store(FileNvm(str(path)))


@pytest.fixture
def simulate():
    """``simulate(profile, script, nvm=None, **kw)``: the firmware started on a headless
    simulator (``lunchbox sim --headless``), the key script pressed (docs/simulator.md); the
    simulator is returned to be looked at, and closed after the test (its link, if any).
    script=None: the simulated board only, the firmware not started. kw goes to Simulator;
    cls= a subclass of it."""
    from lunchbox.sim import Simulator

    started = []

    def simulate(profile, script="", nvm=None, cls=Simulator, **kw):
        sim = cls(profile, nvm_path=nvm, mode="headless", **kw)
        started.append(sim)
        if script is not None:
            sim.run_script(script)
        return sim
    yield simulate
    for sim in started:
        sim.close()


@pytest.fixture
def apps(monkeypatch):
    """The firmware's Apps started during the test, oldest first: the firmware starts a fresh
    App for each game, as the board gives each game a fresh VM (firmware/companion/app/main.py),
    so apps[-1] is the one on screen."""
    from companion.app import loop as app_module

    started = []
    original = app_module.App.__init__

    def init(self, *a, **kw):
        started.append(self)
        original(self, *a, **kw)

    monkeypatch.setattr(app_module.App, "__init__", init)
    return started


class Command:
    """`python -m lunchbox ARGS` as a user runs it from the checkout, with no display (SDL's
    dummy drivers, no X or Wayland to find) and the test's environment plus ``env``. Called:
    the finished run, its output captured (text=False: as bytes; args may be bytes too)."""

    NO_DISPLAY = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "DISPLAY": "",
                  "WAYLAND_DISPLAY": ""}

    def environment(self, env=None):
        return dict(os.environ, **self.NO_DISPLAY, **(env or {}))

    def argv(self, *args):
        return [sys.executable, "-m", "lunchbox", *args]

    def __call__(self, *args, env=None, timeout=120, text=True, **kw):
        return subprocess.run(self.argv(*args), capture_output=True, text=text,
                              env=self.environment(env), timeout=timeout, cwd=str(ROOT), **kw)

    def popen(self, *args, env=None, **kw):
        """The run started, not waited for (a test that signals it or reads it live)."""
        return subprocess.Popen(self.argv(*args), env=self.environment(env), cwd=str(ROOT),
                                **kw)


@pytest.fixture
def run_lunchbox():
    """The lunchbox command (Command)."""
    return Command()


@pytest.fixture
def cut_saves(tmp_path):
    """``cut_saves(sim, script, rng, n, at_least=0)``: run ``script`` on ``sim`` (its nvm in
    memory) recording every save (a slice written to nvm: at least ``at_least`` of them);
    then, for ``n`` saves picked by ``rng``, yield (the nvm before it, how many of its bytes
    were written, the path of an nvm file as a power cut after those left it: a prefix of
    the new bytes over the old)."""
    from lunchbox.sim import hw as sim_hw

    def run(sim, script, rng, n, at_least=0):
        writes = []

        class Recording(sim_hw.FileNvm):
            def __setitem__(self, index, value):
                writes.append((bytes(self.data), index, bytes(value)))
                sim_hw.FileNvm.__setitem__(self, index, value)

        sim.nvm.__class__ = Recording
        sim.run_script(script)
        saves = [w for w in writes if isinstance(w[1], slice)]
        assert len(saves) >= max(n, at_least), "the script saved {} times".format(len(saves))
        for before, index, value in rng.sample(saves, n):
            cut = rng.randrange(0, len(value) + 1)
            image = bytearray(before)
            start = index.start or 0
            image[start:start + cut] = value[:cut]
            path = tmp_path / "cut.bin"
            path.write_bytes(bytes(image))
            yield before, cut, str(path)
    return run


# --- profiles --------------------------------------------------------------------------------

@pytest.fixture
def user_profile(tmp_path):
    """``user_profile(base, (old, new), ..., name="mine")``: the path of a user's own profile
    file, a committed profile's text with each old text replaced (it must be there: an edit
    that does nothing would test the committed profile instead)."""
    from lunchbox.hardware.profiles import PROFILES_DIR

    def write(base, *edits, name="mine"):
        text = (PROFILES_DIR / (base + ".toml")).read_text()
        for old, new in edits:
            assert old in text, "{!r} is not in {}.toml".format(old, base)
            text = text.replace(old, new)
        path = tmp_path / (name + ".toml")
        path.write_text(text)
        return str(path)
    return write


# --- the board's drives ----------------------------------------------------------------------

def boot_out(version="10.0.0", date="2025-09-15", board="Raspberry Pi Pico with rp2040",
             board_id="raspberry_pi_pico", uid=None):
    """boot_out.txt as CircuitPython writes it on CIRCUITPY at every start."""
    text = "Adafruit CircuitPython {} on {}; {}\nBoard ID:{}\n".format(version, date, board,
                                                                     board_id)
    return text + ("UID:{}\n".format(uid) if uid else "")


class FakeDrives:
    """Folders under one media folder standing in for the drives a board shows over USB:
    CIRCUITPY (boot_out.txt says which CircuitPython) and the UF2 bootloader's RPI-RP2
    (INFO_UF2.TXT says which chip). Each maker returns the folder's Path."""

    boot_out = staticmethod(boot_out)
    BOOT_OUT = boot_out()
    BOOT_OUT_9 = boot_out("9.2.2", "2024-12-02")
    INFO_RP2040 = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
    INFO_RP2350 = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n"

    def __init__(self, media):
        self.media = Path(media)

    def at(self, folder):
        """The drives under another media folder (``folder`` below this one, made empty)."""
        (self.media / folder).mkdir(parents=True, exist_ok=True)
        return FakeDrives(self.media / folder)

    def volume(self, label, files=()):
        """A folder named ``label`` holding ``files`` (name -> text or bytes)."""
        d = self.media / label
        d.mkdir(parents=True, exist_ok=True)
        for name, data in dict(files).items():
            path = d / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(data, bytes):
                path.write_bytes(data)
            else:
                path.write_text(data)
        return d

    def circuitpy(self, label="CIRCUITPY", boot=BOOT_OUT, files=()):
        """CIRCUITPY as a fresh CircuitPython leaves it (boot_out.txt; none when boot is
        None), plus ``files``."""
        files = dict(files)
        if boot is not None:
            files["boot_out.txt"] = boot
        return self.volume(label, files)

    def rpi_rp2(self, label="RPI-RP2", info=INFO_RP2040):
        """The UF2 bootloader's drive, as BOOTSEL at power-up shows it."""
        return self.volume(label, {"INFO_UF2.TXT": info, "INDEX.HTM": "<html>"})


@pytest.fixture
def fake_drives(tmp_path):
    """Drives made on demand in the test's own folder (FakeDrives)."""
    return FakeDrives(tmp_path)


# --- a download site -------------------------------------------------------------------------

class LocalWeb:
    """An HTTP server on 127.0.0.1 standing in for a download site (no network needed).
    ``serve(answer)`` starts it and returns its base URL; ``answer(path)`` gives the body
    (bytes), None for a 404, or (body, sent): only ``sent`` bytes of it under the full
    Content-Length (a download cut short). ``hits``: the paths asked for."""

    # the opener a test downloads with: a proxy set in the environment must not catch
    # loopback requests
    open = staticmethod(urllib.request.build_opener(urllib.request.ProxyHandler({})).open)

    def __init__(self):
        self.hits = []
        self.servers = []

    def serve(self, answer):
        web = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # (http.server's name)
                web.hits.append(self.path)
                body = answer(self.path)
                if body is None:
                    self.send_error(404, "Not Found")
                    return
                body, sent = body if isinstance(body, tuple) else (body, len(body))
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[:sent])

            def log_message(self, *args):
                pass

        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        self.servers.append(httpd)
        return "http://127.0.0.1:{}".format(httpd.server_address[1])

    @staticmethod
    def refused():
        """The base URL of a port nobody listens on: the connection is refused."""
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        return "http://127.0.0.1:{}".format(port)

    def stop(self):
        for httpd in self.servers:
            httpd.shutdown()
            httpd.server_close()


@pytest.fixture
def web():
    """A LocalWeb, stopped after the test."""
    w = LocalWeb()
    yield w
    w.stop()

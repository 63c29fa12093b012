"""Where `lunchbox sync` gets CircuitPython's own mpy-cross when the user names none: the
pinned Adafruit build for this computer, downloaded once into the cache
(``download.cache_dir()``/mpy-cross) and checked on every use.

The URLs follow CircuitPython's release workflows (.github/workflows/build-mpy-cross.yml and
build.yml at tags 9.2.2 and 10.0.3): ``bin/mpy-cross/{os}/mpy-cross-{os}-{version}.{ext}`` in
Adafruit's S3 bucket, the macOS build as ``macos/mpy-cross-macos-{version}-universal``.
Adafruit publishes no checksums for them, so the table holds none (fill one only from the
real file, never from memory). Without a pinned digest the first download is trusted
(trust on first use) only if it runs here and its --version names the pinned CircuitPython
release; its SHA-256 is then recorded in the cache (``sha256.json``) and every later use,
and every later download of the same file, must match it.
"""

import json
import os
import platform
import shutil
import stat
import tempfile

from ..errors import LunchboxError
from . import download

ADAFRUIT = "https://adafruit-circuit-python.s3.amazonaws.com/bin/mpy-cross/"
BASE = ADAFRUIT  # where the builds are fetched from (the tests point it at a local server)
# this computer's system -> the folder and file-name ending of its build
_BUILDS = {
    "linux-amd64": "linux-amd64/mpy-cross-linux-amd64-{v}.static",
    "linux-aarch64": "linux-aarch64/mpy-cross-linux-aarch64-{v}.static-aarch64",
    "linux-raspbian": "linux-raspbian/mpy-cross-linux-raspbian-{v}.static-raspbian",
    "macos": "macos/mpy-cross-macos-{v}-universal",
    "windows": "windows/mpy-cross-windows-{v}.static.exe",
}
# (platform.system(), platform.machine().lower()) -> build; armv6l/armv7l: the raspbian
# build is made with the Raspberry Pi (ARMv6 hard-float) toolchain (Makefile.static-raspbian)
_MACHINES = {
    ("Linux", "x86_64"): "linux-amd64", ("Linux", "amd64"): "linux-amd64",
    ("Linux", "aarch64"): "linux-aarch64", ("Linux", "arm64"): "linux-aarch64",
    ("Linux", "armv7l"): "linux-raspbian", ("Linux", "armv6l"): "linux-raspbian",
    ("Darwin", "x86_64"): "macos", ("Darwin", "arm64"): "macos",
    ("Windows", "amd64"): "windows", ("Windows", "x86_64"): "windows",
}


# board's CircuitPython major version -> (the release whose mpy-cross is fetched, {build:
# sha256}: empty, since none is published). 9.2.2 is the release the real-interpreter tests
# run; 10.0.3 the newest 10.0.x tag.
PINNED = {9: ("9.2.2", {}), 10: ("10.0.3", {})}
TRUST = "sha256.json"
HINT = ("pass a CircuitPython mpy-cross with --mpy-cross PATH (circuitpython.org lists one per "
        "version and OS), or --py to ship .py without this warning")


def platform_key(system=None, machine=None):
    """The build for this computer ("linux-amd64", "macos", ...), or None."""
    system = system or platform.system()
    machine = (machine or platform.machine()).lower()
    return _MACHINES.get((system, machine))


def folder(cache=None):
    return os.path.join(cache or download.cache_dir(), "mpy-cross")


def pinned(major, table=None, key=None, base=None):
    """(release, url, sha256 or None) of the pinned build for ``major`` on this computer;
    LunchboxError saying why there is none."""
    table = PINNED if table is None else table
    if major not in table:
        raise LunchboxError("lunchbox has no pinned mpy-cross for CircuitPython {}.x (it "
                            "knows {})".format(major, ", ".join(
                                "{}.x".format(m) for m in sorted(table))), hint=HINT)
    key = key or platform_key()
    if key not in _BUILDS:
        raise LunchboxError("CircuitPython publishes no mpy-cross for this computer ({} "
                            "{})".format(platform.system(), platform.machine()), hint=HINT)
    release, digests = table[major]
    url = (base or BASE) + _BUILDS[key].format(v=release)
    return release, url, (digests.get(key) or "").lower() or None


def _trusted(where):
    try:
        with open(os.path.join(where, TRUST), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _record(where, name, digest):
    data = _trusted(where)
    data[name] = digest
    tmp = os.path.join(where, TRUST + ".new")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(where, TRUST))


def _executable(path):
    mode = os.stat(path).st_mode
    if not mode & stat.S_IXUSR:
        os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def _cache_error(where, e):
    return LunchboxError("cannot use the cache folder {}: {}".format(
        where, getattr(e, "strerror", None) or e), hint="set LUNCHBOX_CACHE to a writable "
                         "folder, or " + HINT)


def cached(major, check, cache=None, table=None, key=None, base=None):
    """The cached pinned build for ``major`` if it is there and matches its pinned or recorded
    digest, checked by ``check(path, release, label)`` (-> the tool; ``label`` names it in
    messages). None when there is none to use (a copy that does not match is removed, to be
    downloaded again)."""
    release, url, digest = pinned(major, table, key, base)
    where = folder(cache)
    name = url.rsplit("/", 1)[-1]
    path = os.path.join(where, name)
    if not os.path.isfile(path):
        return None
    expected = digest or _trusted(where).get(name)
    if not expected or download.sha256_file(path) != expected:
        try:
            os.remove(path)  # damaged, or a download whose check never finished
        except OSError as e:
            raise _cache_error(where, e) from None
        return None
    try:
        _executable(path)
    except OSError:
        pass  # check() says "not executable"
    return check(path, release, "the cached mpy-cross {}".format(path))


def fetch(major, check, cache=None, table=None, key=None, base=None, progress=None,
          timeout=30, opener=None):
    """Download the pinned build for ``major`` into the cache and check it (see the module
    docstring); returns (tool, url, digest, basis): what the digest was checked against,
    "pinned", "recorded" (at the first download) or "first" (this one: now recorded).
    LunchboxError when any step fails; nothing is left in the cache then."""
    release, url, digest = pinned(major, table, key, base)
    where = folder(cache)
    name = url.rsplit("/", 1)[-1]
    try:
        os.makedirs(where, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".download-", dir=where)
    except OSError as e:
        raise _cache_error(where, e) from None
    try:
        kwargs = {"opener": opener} if opener else {}
        got_path = download.fetch(url, digest, tmp, progress=progress, timeout=timeout,
                                  what="an mpy-cross", hint=HINT, **kwargs)
        got = download.sha256_file(got_path)
        recorded = None if digest else _trusted(where).get(name)
        if recorded and got != recorded:
            raise LunchboxError(
                "the download of {} does not match the SHA-256 recorded at its first download "
                "(got {}, recorded {}); it was discarded".format(url, got, recorded),
                hint="if Adafruit replaced the file, delete {} to trust the new one; or "
                     "{}".format(os.path.join(where, TRUST), HINT))
        try:
            _executable(got_path)
        except OSError as e:
            raise _cache_error(where, e) from None
        tool = check(got_path, release, "the download of {}".format(url))
        path = os.path.join(where, name)
        first = not digest and not recorded
        try:
            os.replace(got_path, path)
            if first:
                _record(where, name, got)
        except OSError as e:
            download._discard(path)  # never a cached copy without its record
            raise _cache_error(where, e) from None
        tool.path = path
        return tool, url, got, "pinned" if digest else "recorded" if recorded else "first"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

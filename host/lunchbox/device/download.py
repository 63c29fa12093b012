"""The pinned CircuitPython release per board, downloaded once into a cache and verified.

PINNED is the one table of URLs and SHA-256 digests. A digest of None means nobody has
checked that file yet: `lunchbox flash` then refuses to download it and asks for --uf2 FILE,
because an unverified firmware download is exactly what the digest is there to prevent.
Fill a digest only from the real file (see docs/host-tool.md), never from memory.
"""

import hashlib
import http.client
import os
import sys
import urllib.error
import urllib.request

from ..errors import LunchboxError

# The one CircuitPython the project tests and measures on (the lane's UF2 in tests/cp/)
CIRCUITPYTHON_VERSION = "9.2.2"
_BASE = "https://downloads.circuitpython.org/bin/{board}/en_US/adafruit-circuitpython-{board}-en_US-{version}.uf2"


def _url(board):
    return _BASE.format(board=board, version=CIRCUITPYTHON_VERSION)


# board id -> (url, sha256 or None when not yet verified by someone online)
PINNED = {
    "raspberry_pi_pico": (_url("raspberry_pi_pico"), None),
    "raspberry_pi_pico_w": (_url("raspberry_pi_pico_w"), None),
    "raspberry_pi_pico2": (_url("raspberry_pi_pico2"), None),
    "raspberry_pi_pico2_w": (_url("raspberry_pi_pico2_w"), None),
}

MAX_BYTES = 16 * 1024 * 1024
_CHUNK = 64 * 1024


def cache_dir(env=None, platform=None):
    env = os.environ if env is None else env
    platform = platform or sys.platform
    if env.get("LUNCHBOX_CACHE"):
        return env["LUNCHBOX_CACHE"]
    if platform.startswith("win") and env.get("LOCALAPPDATA"):
        return os.path.join(env["LOCALAPPDATA"], "lunchbox", "Cache")
    home = env.get("HOME") or os.path.expanduser("~")
    if platform == "darwin":
        return os.path.join(home, "Library", "Caches", "lunchbox")
    return os.path.join(env.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"), "lunchbox")


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def pinned(board, table=None):
    """(url, sha256) for ``board``; LunchboxError when there is none or it is unverified."""
    table = PINNED if table is None else table
    if board not in table:
        raise LunchboxError(
            "no pinned CircuitPython release for board {!r}".format(board),
            hint="download CircuitPython {} for your board from circuitpython.org and run "
                 "`lunchbox flash --uf2 FILE`".format(CIRCUITPYTHON_VERSION))
    url, digest = table[board]
    if not digest:
        raise LunchboxError(
            "the pinned CircuitPython {} for {} has no verified SHA-256 yet, so it will not "
            "be downloaded".format(CIRCUITPYTHON_VERSION, board),
            hint="download {} yourself and run `lunchbox flash --uf2 FILE` (or fill its "
                 "digest in lunchbox/device/download.py's PINNED table, see "
                 "docs/host-tool.md)".format(url))
    return url, digest.lower()


def fetch(url, sha256, cache, progress=None, timeout=30, opener=urllib.request.urlopen,
          what="a UF2", hint="pass a downloaded file with --uf2 FILE"):
    """The path of the verified file for ``url`` in ``cache``, downloading it if needed.

    ``progress(done, total)`` is called while downloading (total may be None). ``sha256``
    None: no digest to check (the caller verifies the file some other way), so a copy
    already in ``cache`` is never trusted and the file is always downloaded. ``what`` and
    ``hint`` name the file and the way round a failure in the messages.
    """
    name = url.rstrip("/").rsplit("/", 1)[-1] or "download.uf2"
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, name)
    if os.path.exists(path):
        if sha256 and sha256_file(path) == sha256:
            return path
        os.remove(path)  # a stale or damaged copy: fetch it again
    part = path + ".part"
    h = hashlib.sha256()
    done = 0
    try:
        with opener(url, timeout=timeout) as response, open(part, "wb") as out:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            if total is not None and total > MAX_BYTES:
                raise LunchboxError("{} is {} bytes: too big for {}".format(url, total, what))
            while True:
                chunk = response.read(_CHUNK)
                if not chunk:
                    break
                done += len(chunk)
                if done > MAX_BYTES:
                    raise LunchboxError("{} is over {} bytes: too big for {}".format(
                        url, MAX_BYTES, what))
                h.update(chunk)
                out.write(chunk)
                if progress:
                    progress(done, total)
    except urllib.error.HTTPError as e:
        _discard(part)
        raise LunchboxError("downloading {} failed: HTTP {} {}".format(url, e.code, e.reason),
                            hint=hint) from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
        _discard(part)
        reason = getattr(e, "reason", None) or getattr(e, "strerror", None) or e
        raise LunchboxError("cannot download {}: {}".format(url, reason),
                            hint="check the network, or " + hint) from None
    except BaseException:
        _discard(part)
        raise
    if total is not None and done != total:
        # urllib returns a short body without an error when the connection drops
        _discard(part)
        raise LunchboxError("the download of {} was cut short ({} of {} bytes); it was "
                            "discarded".format(url, done, total),
                            hint="check the network and try again, or " + hint)
    if sha256 and h.hexdigest() != sha256:
        _discard(part)
        raise LunchboxError(
            "the download of {} does not match its pinned SHA-256 (got {}, expected {}); "
            "it was discarded".format(url, h.hexdigest(), sha256),
            hint="try again later, or " + hint)
    os.replace(part, path)
    return path


def _discard(path):
    try:
        os.remove(path)
    except OSError:
        pass

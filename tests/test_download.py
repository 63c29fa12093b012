"""The pinned-release download, against a real HTTP server on 127.0.0.1."""

import hashlib
import os

import pytest

from lunchbox.device import download
from lunchbox.errors import LunchboxError

BODY = bytes(range(256)) * 1000


def answer(path):
    if path.startswith("/missing"):
        return None
    return BODY[:-1] + b"X" if path.startswith("/tampered") else BODY


@pytest.fixture
def server(web):
    return web.serve(answer)


DIGEST = hashlib.sha256(BODY).hexdigest()

def test_download_verified_and_cached(server, tmp_path, web):
    seen = []
    url = server + "/fw/adafruit-circuitpython-x.uf2"
    path = download.fetch(url, DIGEST, str(tmp_path), opener=web.open,
                          progress=lambda d, t: seen.append((d, t)))
    assert open(path, "rb").read() == BODY
    assert seen[-1] == (len(BODY), len(BODY))
    assert not os.path.exists(path + ".part")
    # second time: from the cache, no request
    assert download.fetch(url, DIGEST, str(tmp_path), opener=web.open) == path
    assert len(web.hits) == 1


def test_damaged_cache_is_fetched_again(server, tmp_path, web):
    url = server + "/fw/a.uf2"
    path = download.fetch(url, DIGEST, str(tmp_path), opener=web.open)
    with open(path, "r+b") as f:
        f.write(b"junk")
    assert download.fetch(url, DIGEST, str(tmp_path), opener=web.open) == path
    assert open(path, "rb").read() == BODY
    assert len(web.hits) == 2


def test_hash_mismatch_discarded(server, tmp_path, web):
    with pytest.raises(LunchboxError, match="does not match its pinned SHA-256"):
        download.fetch(server + "/tampered/a.uf2", DIGEST, str(tmp_path), opener=web.open)
    assert os.listdir(tmp_path) == []


def test_http_error(server, tmp_path, web):
    with pytest.raises(LunchboxError, match="HTTP 404") as err:
        download.fetch(server + "/missing/a.uf2", DIGEST, str(tmp_path), opener=web.open)
    assert "--uf2" in err.value.hint
    assert os.listdir(tmp_path) == []


def test_unreachable(tmp_path, web):
    # a port nobody listens on: connection refused, no network needed
    with pytest.raises(LunchboxError, match="cannot download") as err:
        download.fetch(web.refused() + "/a.uf2", DIGEST, str(tmp_path), timeout=2,
                       opener=web.open)
    assert "--uf2" in err.value.hint


def test_unverified_pin_refused():
    table = {"raspberry_pi_pico": ("http://127.0.0.1/x.uf2", None)}
    with pytest.raises(LunchboxError, match="no verified SHA-256") as err:
        download.pinned("raspberry_pi_pico", table)
    assert "--uf2 FILE" in err.value.hint
    with pytest.raises(LunchboxError, match="no pinned CircuitPython"):
        download.pinned("feather_m0", table)
    assert download.pinned("b", {"b": ("u", "AB" * 32)}) == ("u", "ab" * 32)


def test_real_table_has_no_invented_digests():
    for board, (url, digest) in download.PINNED.items():
        assert board in url and url.endswith(".uf2")
        assert digest is None or len(digest) == 64


def test_cache_dir():
    assert download.cache_dir({"LUNCHBOX_CACHE": "/c"}) == "/c"
    assert download.cache_dir({"HOME": "/h"}, "linux") == "/h/.cache/lunchbox"
    assert download.cache_dir({"HOME": "/h", "XDG_CACHE_HOME": "/x"}, "linux") == "/x/lunchbox"
    assert download.cache_dir({"HOME": "/h"}, "darwin") == "/h/Library/Caches/lunchbox"

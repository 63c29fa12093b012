"""The pinned-release download, against a real HTTP server on 127.0.0.1."""

import hashlib
import http.server
import os
import threading
import urllib.request

import pytest

from lunchbox import download
from lunchbox.errors import LunchboxError

BODY = bytes(range(256)) * 1000


class _Handler(http.server.BaseHTTPRequestHandler):
    hits = []

    def do_GET(self):  # (http.server's name)
        _Handler.hits.append(self.path)
        if self.path.startswith("/missing"):
            self.send_error(404, "Not Found")
            return
        body = BODY
        if self.path.startswith("/tampered"):
            body = BODY[:-1] + b"X"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    _Handler.hits.clear()
    yield "http://127.0.0.1:{}".format(httpd.server_address[1])
    httpd.shutdown()
    httpd.server_close()


DIGEST = hashlib.sha256(BODY).hexdigest()
# a proxy set in the environment must not catch loopback requests
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({})).open


def test_download_verified_and_cached(server, tmp_path):
    seen = []
    url = server + "/fw/adafruit-circuitpython-x.uf2"
    path = download.fetch(url, DIGEST, str(tmp_path), opener=NO_PROXY,
                          progress=lambda d, t: seen.append((d, t)))
    assert open(path, "rb").read() == BODY
    assert seen[-1] == (len(BODY), len(BODY))
    assert not os.path.exists(path + ".part")
    # second time: from the cache, no request
    assert download.fetch(url, DIGEST, str(tmp_path), opener=NO_PROXY) == path
    assert len(_Handler.hits) == 1


def test_damaged_cache_is_fetched_again(server, tmp_path):
    url = server + "/fw/a.uf2"
    path = download.fetch(url, DIGEST, str(tmp_path), opener=NO_PROXY)
    with open(path, "r+b") as f:
        f.write(b"junk")
    assert download.fetch(url, DIGEST, str(tmp_path), opener=NO_PROXY) == path
    assert open(path, "rb").read() == BODY
    assert len(_Handler.hits) == 2


def test_hash_mismatch_discarded(server, tmp_path):
    with pytest.raises(LunchboxError, match="does not match its pinned SHA-256"):
        download.fetch(server + "/tampered/a.uf2", DIGEST, str(tmp_path), opener=NO_PROXY)
    assert os.listdir(tmp_path) == []


def test_http_error(server, tmp_path):
    with pytest.raises(LunchboxError, match="HTTP 404") as err:
        download.fetch(server + "/missing/a.uf2", DIGEST, str(tmp_path), opener=NO_PROXY)
    assert "--uf2" in err.value.hint
    assert os.listdir(tmp_path) == []


def test_unreachable(tmp_path):
    # a port nobody listens on: connection refused, no network needed
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(LunchboxError, match="cannot download") as err:
        download.fetch("http://127.0.0.1:{}/a.uf2".format(port), DIGEST, str(tmp_path),
                       timeout=2, opener=NO_PROXY)
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

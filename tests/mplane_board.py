"""The MicroPython lane's board side: which real MicroPython UF2 a profile boots (tests/mp/),
and the littlefs file system MicroPython finds at the end of the Pico's flash, built here from
the file set a MicroPython board gets (host/lunchbox/device/mpfiles.py). tests/cplane.py runs
it through the same driver and protocol as the CircuitPython lane (tests/cp/lane.js, with
``--runtime micropython``): cplane.run("pico-ssd1306-5btn-mp", [...]) boots this.

(tests/mplane.py is the other MicroPython lane: the WebAssembly port, for the portable code.)
"""

import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MP = ROOT / "tests" / "mp"

sys.path.insert(0, str(ROOT / "host"))
from lunchbox.device import mpfiles  # noqa: E402
from lunchbox.hardware import profiles  # noqa: E402

# the build each profile's runtime and display name (profiles.firmware_build): its UF2
UF2 = {
    "micropython": MP / "RPI_PICO-20241129-v1.24.1.uf2",
    "micropython-pimoroni": MP / "pico-v1.23.0-1-pimoroni-micropython.uf2",
}
# The littlefs both builds mount at / (asked of each in the lane: rp2.Flash().ioctl(4, 0) and
# ioctl(5, 0), tests/test_mp_lane.py checks it): 352 blocks of 4 KB, 1,408 KB, the last part of
# the 2 MB flash (from 0x0A0000). MicroPython's lfs2 settings (extmod/vfs_lfsx.c, VfsLfs2's
# defaults): read and program size 32, lookahead 32, cache 4 x 32, block_cycles 100, names up
# to 255. The on-disk version is written as littlefs 2.0's, which every MicroPython reads.
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
LFS = dict(read_size=32, prog_size=32, lookahead_size=32, cache_size=128, block_cycles=100,
           name_max=255, disk_version=0x00020000)


def uf2_for(profile):
    return UF2[profiles.firmware_build(profile)]


def board_files(profile_name, mpy=True, trace=True, hold=0, extra=None, files=None,
                bare=False):
    """(profile, board path -> bytes): mpfiles.board_files, with the trace switched on in
    settings.toml as the CircuitPython lane does; ``files`` put over the set (compiled with
    it); ``bare``: only ``files`` and settings.toml (a test's own main.py, no firmware)."""
    profile = profiles.load_profile(profile_name)
    from cplane import traced  # (cplane imports this module where a profile is MicroPython's)

    settings = traced(mpfiles.settings_for(profile), trace, hold, extra)
    if bare:
        return profile, dict(files or {}, **{"settings.toml": settings})
    return profile, mpfiles.board_files(profile, mpy=mpy, files=files, settings=settings)


def littlefs_image(files, path):
    """The littlefs image of ``files`` (board path -> bytes), as long as MicroPython's area."""
    import littlefs

    fs = littlefs.LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, **LFS)
    for rel in sorted(files):
        if "/" in rel:
            fs.makedirs(rel.rsplit("/", 1)[0], exist_ok=True)
        with fs.open(rel, "wb") as f:
            f.write(files[rel])
    Path(path).write_bytes(bytes(fs.context.buffer))
    return path


def image_for(profile_name, cache, mpy=True, hold=0, extra=None, files=None, bare=False):
    """(profile, image path, files): built once per distinct file set (by content hash)."""
    profile, files = board_files(profile_name, mpy=mpy, hold=hold, extra=extra, files=files,
                                 bare=bare)
    h = hashlib.sha256(repr((BLOCK_SIZE, BLOCK_COUNT, sorted(LFS.items()))).encode())
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + hashlib.sha256(files[rel]).digest())
    path = Path(cache) / "littlefs-{}.img".format(h.hexdigest()[:16])
    if not path.exists():
        tmp = path.with_suffix(".tmp{}".format(os.getpid()))
        littlefs_image(files, tmp)
        os.replace(tmp, path)
    return profile, path, files

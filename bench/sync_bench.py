"""Bytes written and time for `lunchbox sync` of the full tree (first, no-change, one-file
change), next to `rsync -rc` on the same folders.

Run from the repo root: .venv/bin/python bench/sync_bench.py
The "drive" is a folder in a temp directory (not a FAT volume on USB): the times show the
tool's own cost; on a real CIRCUITPY every byte written also costs flash time, which is why
the bytes-written column is the one that matters.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from lunchbox.device import fileset, sync
from lunchbox.hardware import profiles

PROFILE = "pico-display-pack"
CHANGED = "companion/__init__.py"


class Counting:
    """A sync hook that counts the files put in place and their bytes."""

    def __init__(self):
        self.bytes = 0
        self.files = 0

    def __call__(self, op, path, tmp):
        if op == "replace":  # the file written aside is complete: it is renamed into place
            self.files += 1
            self.bytes += os.path.getsize(tmp)


def lunchbox_run(drive, files):
    c = Counting()
    t = time.perf_counter()
    sync.sync(drive, files, meta={"firmware_version": "bench"}, hook=c)
    return c.bytes, c.files, time.perf_counter() - t


def stage(folder, files):
    for rel, data in files.items():
        p = Path(folder, *rel.split("/"))
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.exists() or p.read_bytes() != data:
            p.write_bytes(data)


def rsync_run(src, dst):
    t = time.perf_counter()
    out = subprocess.run(["rsync", "-rc", "--stats", src + "/", dst + "/"],
                         capture_output=True, text=True, check=True).stdout
    elapsed = time.perf_counter() - t
    sent = files = 0
    for line in out.splitlines():
        if line.startswith("Total transferred file size:"):
            sent = int(line.split(":")[1].split()[0].replace(",", "").replace(".", ""))
        if line.startswith("Number of regular files transferred:"):
            files = int(line.split(":")[1].strip().replace(",", "").replace(".", ""))
    return sent, files, elapsed


def main():
    profile = profiles.load_profile(PROFILE)
    files = fileset.build(profile, profiles.render_settings(profile))
    total = sum(len(d) for d in files.values())
    changed = dict(files)
    changed[CHANGED] = files[CHANGED] + b"# bench change\n"
    print("full tree ({}): {} files, {} KiB".format(PROFILE, len(files), total // 1024))
    rsync = shutil.which("rsync")
    with tempfile.TemporaryDirectory() as tmp:
        drive = os.path.join(tmp, "CIRCUITPY")
        os.mkdir(drive)
        rows = [("first sync", files), ("no-change sync", files),
                ("one-file-change sync", changed)]
        results = [(name,) + lunchbox_run(drive, fs) for name, fs in rows]
        if rsync:
            src = os.path.join(tmp, "src")
            dst = os.path.join(tmp, "rsync-drive")
            os.mkdir(dst)
            rs = []
            for _, fs in rows:
                stage(src, fs)
                rs.append(rsync_run(src, dst))
    print("{:<22} {:>14} {:>7} {:>9}   {:>14} {:>7} {:>9}".format(
        "", "lunchbox bytes", "files", "ms", "rsync -rc bytes", "files", "ms"))
    for i, (name, nbytes, nfiles, secs) in enumerate(results):
        right = "{:>14} {:>7} {:>9.1f}".format(rs[i][0], rs[i][1], rs[i][2] * 1000) if rsync \
            else "   (rsync not installed)"
        print("{:<22} {:>14} {:>7} {:>9.1f}   {}".format(name, nbytes, nfiles, secs * 1000,
                                                        right))
    print("lunchbox bytes include its manifest ({}, rewritten once per changing sync) and "
          "its small journal ({}); a no-change sync writes nothing.".format(
              sync.MANIFEST, sync.PENDING))
    if not rsync:
        print("rsync is not installed here: `apt-get install rsync` to see the comparison")


if __name__ == "__main__":
    main()

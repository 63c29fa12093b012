"""Print firmware/mplib's figures on MicroPython's WebAssembly port (not a Pico: its times
say how the scenes compare, the Pico's come from the MicroPython lane).

    .venv/bin/python tests/mp/render/figures.py

- draw: the mean time of a whole screen's draw into the framebuffer (the send not counted),
  warm (glyphs, tiles and palette pens kept from the refresh before: every refresh but a
  screen's first) and cold (all made again);
- heap: the renderer's modules once imported, and what it holds after drawing each scene
  (glyphs, cut tiles, palette pens), measured in a bounded heap one interpreter call a step
  (the port frees what a call allocated only in a later call).
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # tests/
sys.path.insert(0, str(HERE))

import mplane  # noqa: E402

ROOT = HERE.parents[2]
LIBS = mplane.PORTABLE_LIBS + tuple(sorted((ROOT / "firmware" / "mplib").glob("*.py")))


def run(**kw):
    res = mplane.run(libs=LIBS, tests_dir=HERE, timeout=1800, **kw)
    if res.failed:
        raise SystemExit(res.report())
    return res.output


def main():
    out = run(code="import mp_figures\nmp_figures.times()", heap=1024 * 1024)
    print("draw, ms (WebAssembly port)   warm   cold")
    for line in out.splitlines():
        if line.startswith("@@TIME "):
            _, kind, name, warm, cold = line.split()
            print("  {:8} {:18} {:6.1f} {:6.1f}".format(kind, name, int(warm) / 1000,
                                                         int(cold) / 1000))
    import scenes

    n = 6 + 9 * len(scenes.SCENES) * len(scenes.DISPLAYS) + 7 * 2  # mp_figures._plan's steps
    out = run(imports=["mp_step"] * n, heap=2048 * 1024, bounded=True)
    print("heap, bytes")
    for line in out.splitlines():
        if line.startswith("@@HEAP "):
            print("  " + line[7:])


if __name__ == "__main__":
    main()

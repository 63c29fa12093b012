"""The generated hardware docs: up to date with the profiles, deterministic, and faithful to them
(every pin in the profile appears in the wiring table and the diagram)."""

import re
import shutil
import xml.etree.ElementTree as ET

import pytest

from lunchbox import cli
from lunchbox.hardware import enclosure, pins, profiles, wiring

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(params=profiles.list_profiles())
def profile(request):
    return profiles.load_profile(request.param)


def profile_pins(p):
    """Every (GP pin, what) the profile assigns."""
    out = [(pin, "display " + role) for role, pin in p["display"]["pins"].items()]
    out += [(b["pin"], "button " + b["role"]) for b in p["buttons"]]
    leds = p.get("leds", {})
    out += [(pin, "rgb") for pin in leds.get("rgb", [])]
    if "neopixel" in leds:
        out.append((leds["neopixel"], "neopixel"))
    return out


def test_committed_docs_are_up_to_date():
    stale = wiring.stale_files()
    assert stale == [], "run `lunchbox profile docs` and commit: {}".format(stale)


def test_docs_check_command_passes():
    assert cli.main(["profile", "docs", "--check"]) == 0


def test_output_is_deterministic(profile):
    assert wiring._wiring_svg(profile) == wiring._wiring_svg(profiles.load_profile(profile["id"]))
    assert wiring.readme_block([profile]) == wiring.readme_block([profile])


def test_wiring_table_lists_every_pin(profile):
    table = wiring.wiring_table(profile)
    rows = [r.split("|")[1:-1] for r in table.splitlines()[2:]]
    by_signal = {r[3].strip(): r for r in rows}
    for pin, what in profile_pins(profile):
        assert pin in by_signal, "{} ({}) missing from the wiring table".format(pin, what)
        assert by_signal[pin][2].strip() == str(pins.header_pin(pin))
    # every wired part has a ground
    for part in {r[0].strip() for r in rows if "on the pack" not in r[5]}:
        assert any(r[0].strip() == part and r[3].strip() == "GND" for r in rows), part


def test_ssd1306_wiring_is_3v3_and_i2c0():
    rows = wiring.wiring_table(profiles.load_profile("pico-ssd1306-5btn"))
    assert "| VCC | 36 | 3V3(OUT) |" in rows
    assert "| SDA | 6 | GP4 | I2C0 SDA |" in rows
    assert "| SCL | 7 | GP5 | I2C0 SCL |" in rows
    assert not [line for line in rows.splitlines() if "SSD1306" in line and "| VBUS |" in line]


def test_svg_is_wellformed_and_shows_every_pin(profile):
    svg = wiring.wiring_svg(profile)
    root = ET.fromstring(svg)
    width, height = int(root.get("width")), int(root.get("height"))
    texts = [t.text for t in root.iter(SVG + "text")]
    for pin, _ in profile_pins(profile):
        assert pin in texts
    wired = [w for w in wiring.wires(profile) if w.wired]
    lines = root.findall(SVG + "polyline")
    assert len(lines) == len(wired)
    for line in lines:
        for point in line.get("points").split():
            x, y = (int(v) for v in point.split(","))
            assert 0 <= x <= width and 0 <= y <= height
    optional = [w for w in wired if w.optional]
    assert len([ln for ln in lines if ln.get("stroke-dasharray")]) == len(optional)


def test_svg_wires_of_different_nets_never_share_a_line(profile):
    # Two wires running along the same line would be ambiguous: only one net per line.
    root = ET.fromstring(wiring.wiring_svg(profile))
    wired = [w for w in wiring.wires(profile) if w.wired]
    segments = []
    for w, line in zip(wired, root.findall(SVG + "polyline")):
        pts = [tuple(int(v) for v in p.split(",")) for p in line.get("points").split()]
        segments += [(w.header, a, b) for a, b in zip(pts, pts[1:])]
    for i, (net1, a1, b1) in enumerate(segments):
        for net2, a2, b2 in segments[i + 1:]:
            if net1 == net2:
                continue
            for axis in (0, 1):  # horizontal (same y) then vertical (same x)
                fixed = 1 - axis
                if a1[fixed] == b1[fixed] == a2[fixed] == b2[fixed]:
                    lo1, hi1 = sorted((a1[axis], b1[axis]))
                    lo2, hi2 = sorted((a2[axis], b2[axis]))
                    assert min(hi1, hi2) <= max(lo1, lo2), (net1, net2, a1, b1, a2, b2)


def test_bom_total_adds_up(profile):
    table = wiring.bom_table(profile)
    total = sum(i["qty"] * i["usd"] for i in profile["bom"])
    without = sum(i["qty"] * i["usd"] for i in profile["bom"] if not i.get("optional"))
    assert "about ${:.0f}; about ${:.0f} without".format(total, without) in table
    assert table.count("*(optional)*") == sum(1 for i in profile["bom"] if i.get("optional"))
    assert "2026" in table


def test_readme_has_one_block_per_profile():
    text = wiring.README.read_text()
    assert text.count(wiring.BEGIN) == 1 and text.count(wiring.END) == 1
    for pid in profiles.list_profiles():
        assert "](wiring/{}.svg)".format(pid) in text
        assert (wiring.WIRING_DIR / (pid + ".svg")).is_file()


@pytest.fixture
def docs_copy(tmp_path):
    readme = tmp_path / "README.md"
    shutil.copy(wiring.README, readme)
    wiring_dir = tmp_path / "wiring"
    shutil.copytree(wiring.WIRING_DIR, wiring_dir)
    shutil.copytree(wiring.HARDWARE_DIR / "enclosure", tmp_path / "enclosure")
    return readme, wiring_dir


def test_stale_svg_is_caught_and_fixed(docs_copy):
    readme, wiring_dir = docs_copy
    assert wiring.stale_files(readme, wiring_dir) == []
    svg = wiring_dir / "pico-display-pack.svg"
    svg.write_text(svg.read_text().replace("GP22", "GP21"))
    (wiring_dir / "old-profile.svg").write_text("<svg/>")
    assert wiring.stale_files(readme, wiring_dir) == [svg, wiring_dir / "old-profile.svg"]
    wiring.write_docs(readme, wiring_dir)
    assert wiring.stale_files(readme, wiring_dir) == []
    assert not (wiring_dir / "old-profile.svg").exists()


def test_stale_readme_table_is_caught_and_hand_text_kept(docs_copy):
    readme, wiring_dir = docs_copy
    text = readme.read_text()
    readme.write_text(text.replace("| GP19 | SPI0 MOSI |", "| GP11 | SPI0 MOSI |", 1))
    assert wiring.stale_files(readme, wiring_dir) == [readme]
    wiring.write_docs(readme, wiring_dir)
    assert readme.read_text() == text
    hand = text[:text.index(wiring.BEGIN)]
    assert "## Assembly" in hand and "## Power at the table" in hand


def test_readme_without_a_block_gets_one(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# Hardware\n")
    wiring.write_docs(readme, tmp_path / "wiring")
    text = readme.read_text()
    assert text.startswith("# Hardware\n\n" + wiring.BEGIN)
    assert wiring.stale_files(readme, tmp_path / "wiring") == []


# --- the command ------------------------------------------------------------------------------

def test_profile_list_and_validate(capsys):
    assert cli.main(["profile", "list"]) == 0
    out = capsys.readouterr().out
    assert all(pid in out for pid in profiles.list_profiles())
    assert cli.main(["profile", "validate"]) == 0
    assert capsys.readouterr().out.count(": ok") == len(profiles.list_profiles())


def test_profile_validate_reports_a_broken_file(user_profile, capsys):
    path = user_profile("pico-ssd1306-5btn", ('scl = "GP5"', 'scl = "GP3"'))
    assert cli.main(["profile", "validate", path]) == 1
    out = capsys.readouterr()
    assert re.search(r"GP4 is I2C0, SCL GP3 is I2C1", out.out)
    assert "have problems" in out.err


def test_profile_show_settings(capsys):
    assert cli.main(["profile", "show", "pico2-display-pack", "--settings"]) == 0
    out = capsys.readouterr().out
    assert out == profiles.render_settings(profiles.load_profile("pico2-display-pack"))


def test_profile_show_unknown(capsys):
    assert cli.main(["profile", "show", "pico-nothing"]) == 1
    assert "pico-display-pack" in capsys.readouterr().err


# --- the battery ------------------------------------------------------------------------------

def test_a_battery_profile_draws_the_lipo_shim(profile):
    """A profile with [power] battery = "lipo" (every build here: its BOM has the SHIM and the
    cell) shows the SHIM's connections: USB's 5 V in to charge, the cell out on VSYS, ground;
    dashed (optional), in the table and the diagram."""
    assert profile["power"]["battery"] == "lipo"
    assert any("LiPo SHIM" in b["part"] and b.get("optional") for b in profile["bom"])
    shim = [w for w in wiring.wires(profile) if w.part == wiring.SHIM]
    assert [(w.pico, w.header) for w in shim] == [("VBUS", 40), ("VSYS", 39), ("GND", 38)]
    assert all(w.optional and w.wired and "no wire" in w.note for w in shim)
    table = wiring.wiring_table(profile)
    assert "| {} | VSYS (cell) | 39 | VSYS |".format(wiring.SHIM) in table
    root = ET.fromstring(wiring.wiring_svg(profile))
    wired = [w for w in wiring.wires(profile) if w.wired]
    lines = root.findall(SVG + "polyline")
    to_vsys = [ln for w, ln in zip(wired, lines) if w.pico == "VSYS"]
    assert len(to_vsys) == 1 and to_vsys[0].get("stroke") == wiring.COLOURS["bat"]
    assert to_vsys[0].get("stroke-dasharray")
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "{} (optional)".format(wiring.SHIM) in texts and "battery (VSYS)" in texts
    assert any(t and t.startswith("The LiPo SHIM's three connections") for t in texts)


def test_a_profile_without_a_battery_draws_no_shim():
    p = profiles.load_profile("pico-ssd1306-5btn")
    del p["power"]
    assert not [w for w in wiring.wires(p) if w.part == wiring.SHIM]
    root = ET.fromstring(wiring.wiring_svg(p))
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "battery (VSYS)" not in texts
    assert not any(t and "LiPo SHIM" in t for t in texts)


# --- the case ---------------------------------------------------------------------------------

@pytest.fixture(params=[b["id"] for b in enclosure.BUILDS])
def build(request):
    return next(b for b in enclosure.BUILDS if b["id"] == request.param)


def test_the_case_holds_its_parts(build):
    (cl, cw, ch), (ol, ow) = enclosure._size(build)
    for part in build["stack"]:
        length, width, _ = enclosure.PART_SIZES[part]
        assert length + 2 * enclosure.CLEAR <= cl and width + 2 * enclosure.CLEAR <= cw, part
    assert enclosure.frames(build) * enclosure.MATERIAL >= ch  # the parts fit under the lid
    assert enclosure.frames(build) >= enclosure.NOTCH_FRAMES
    assert (ol, ow) == (cl + 2 * enclosure.WALL, cw + 2 * enclosure.WALL)
    ol2, ow2, oh = enclosure.outer(build)
    assert oh == (enclosure.frames(build) + 2) * enclosure.MATERIAL
    assert enclosure.bolt_length(build) >= oh + 3 and enclosure.bolt_length(build) % 5 == 0
    # the bolts go through the wall, clear of the cavity and the plate's edge
    r = enclosure.BOLT_HOLE / 2
    for x, y in enclosure.bolt_holes(build):
        assert r < x < ol - r and r < y < ow - r
        assert x + r < enclosure.WALL or x - r > ol - enclosure.WALL
        assert y + r < enclosure.WALL or y - r > ow - enclosure.WALL


def test_the_lids_openings_are_over_the_cavity_and_apart(build):
    (cl, cw, _), _ = enclosure._size(build)
    lo, hi = enclosure.WALL, enclosure.WALL + cl
    boxes = []
    for cut in enclosure.lid_cuts(build):
        if cut[0] == "rect":
            _, x, y, w, h, _ = cut
            box = (x, y, x + w, y + h)
        else:
            _, x, y, r, _ = cut
            box = (x - r, y - r, x + r, y + r)
        assert lo <= box[0] and box[2] <= hi, cut
        assert enclosure.WALL <= box[1] and box[3] <= enclosure.WALL + cw, cut
        for other in boxes:  # no two openings run into each other
            assert (box[2] <= other[0] or other[2] <= box[0] or box[3] <= other[1]
                    or other[3] <= box[1]), (cut, other)
        boxes.append(box)
    windows = [c for c in enclosure.lid_cuts(build) if c[0] == "rect"]
    assert len(windows) == len(build["windows"])
    if build["buttons"]:
        n, d, pitch = build["buttons"]
        holes = [c for c in enclosure.lid_cuts(build) if c[0] == "circle"]
        assert len(holes) == n and all(c[3] * 2 == d for c in holes)
        assert [round(b[1] - a[1], 2) for a, b in zip(holes, holes[1:])] == [pitch] * (n - 1)


def test_the_case_drawing_is_in_millimetres_and_says_its_sizes(build):
    text = enclosure.svg(build)
    root = ET.fromstring(text)
    assert root.get("width").endswith("mm") and root.get("height").endswith("mm")
    w = float(root.get("width")[:-2])
    assert root.get("viewBox") == "0 0 {:g} {:g}".format(w, float(root.get("height")[:-2]))
    texts = " ".join(t.text for t in root.iter(SVG + "text"))
    assert "outside: {}".format(enclosure.size_text(build)) in texts
    assert "{} frames".format(enclosure.frames(build)) in texts
    cuts = [e for e in root.iter() if e.get("stroke") == "#ff0000"]
    # 4 plates, each with 4 bolt holes; the frames' cavities; the notch; the lid's openings
    assert len(cuts) == 4 + 16 + 2 + 1 + len(enclosure.lid_cuts(build))


def test_the_hardware_readme_gives_each_case(build):
    text = wiring.README.read_text()
    assert "](enclosure/{}.svg)".format(build["id"]) in text
    assert enclosure.size_text(build) in text
    assert (wiring.HARDWARE_DIR / "enclosure" / "{}.svg".format(build["id"])).read_text() == \
        enclosure.svg(build)

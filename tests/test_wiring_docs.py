"""The generated hardware docs: up to date with the profiles, deterministic, and faithful to them
(every pin in the profile appears in the wiring table and the diagram)."""

import re
import shutil
import xml.etree.ElementTree as ET

import pytest

from lunchbox import cli
from lunchbox.hardware import pins, profiles, wiring

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

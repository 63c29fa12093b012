"""Every screen the play-throughs reach, on both reference displays, checked by the layout
check (tests/layoutcheck.py) at every frame the firmware draws: no text cut by the screen's
edge, no two texts on each other, no shape over part of a text (a marker, a toast's box cutting
a row it leaves visible, the battery gauge against the title), no text half on a shape.

The checker itself is tested first, on small displayio trees, for each fault it must find:
before the screens were mended it found the Space Lunch Pick token under the hint line, the
toasts cutting list rows (OLED), cards and the Let's Do Lunch panel (both displays), and the
title touching the battery gauge (OLED)."""

import pytest
from layoutcheck import Watch, problems
from profiles_under_test import PROFILES


@pytest.fixture(scope="module")
def dio():
    from lunchbox.sim import setup_environment

    setup_environment("headless")
    import displayio
    import terminalio

    from companion.screen.textlabel import Label
    from companion.screen.ui import rect

    class Kit:
        pass

    k = Kit()
    k.displayio = displayio
    k.rect = lambda x, y, w, h: rect(x, y, w, h, 0xFFFFFF)

    def label(s, x, y, scale=1, bg=None):
        return Label(terminalio.FONT, text=s, scale=scale, anchored_position=(x, y),
                     background=bg)

    k.label = label
    return k


def screen(dio, *parts):
    root = dio.displayio.Group()
    layer = dio.displayio.Group()
    root.append(layer)
    for p in parts:
        layer.append(p)
    return root


def test_checker_finds_two_texts_on_each_other(dio):
    assert problems(screen(dio, dio.label("Hello", 0, 0), dio.label("World", 20, 6)), 128,
                    64)[0].startswith("'Hello' (0, 0, 30, 12) overlaps 'World'")
    assert problems(screen(dio, dio.label("Hello", 0, 0), dio.label("World", 0, 12)), 128,
                    64) == []  # rows edge to edge


def test_checker_finds_text_cut_by_the_edge(dio):
    found = problems(screen(dio, dio.label("Right edge", 70, 0)), 128, 64)
    assert len(found) == 1 and "cut by the edge" in found[0]
    assert problems(screen(dio, dio.label("Bottom", 0, 60)), 128, 64) != []
    assert problems(screen(dio, dio.label("Fits", 104, 52)), 128, 64) == []


def test_checker_finds_a_shape_drawn_over_part_of_a_text(dio):
    # a marker reaching into a hint line from above (drawn after it)
    found = problems(screen(dio, dio.label("Automa next", 2, 40), dio.rect(7, 36, 30, 8)),
                     128, 64)
    assert len(found) == 1 and "drawn over or against 'Automa next'" in found[0], found
    # a toast's box over the lower half of a row, with the toast's own text
    found = problems(screen(dio, dio.label("Let's Do Lunch", 1, 26), dio.rect(0, 34, 128, 30),
                            dio.label("No saved data", 10, 40)), 128, 64)
    assert any("drawn over or against \"Let's Do Lunch\"" in f for f in found), found


def test_checker_lets_a_shape_hide_a_text_whole(dio):
    # the toast over the rows it takes: those rows are not on the screen, its text is
    root = screen(dio, dio.label("Row two", 1, 38), dio.label("Row three", 1, 50),
                  dio.rect(0, 37, 128, 27), dio.label("Undone", 40, 44))
    assert problems(root, 128, 64) == []


def test_checker_finds_a_shape_touching_a_text_at_its_side(dio):
    # the battery gauge one pixel after the title's last cell
    found = problems(screen(dio, dio.label("v0.1.0", 79, 1), dio.rect(116, 4, 10, 6)), 128,
                     64)
    assert len(found) == 1 and "'v0.1.0'" in found[0], found
    assert problems(screen(dio, dio.label("v0.1.0", 78, 1), dio.rect(116, 4, 10, 6)), 128,
                    64) == []
    # a selection bar right under a row (lists sit edge to edge) is no fault
    assert problems(screen(dio, dio.label("Scores", 1, 14), dio.rect(0, 26, 128, 12)), 128,
                    64) == []


def test_checker_finds_a_text_half_on_a_shape(dio):
    found = problems(screen(dio, dio.rect(7, 36, 30, 8), dio.label("Automa next", 2, 40)),
                     128, 64)
    assert len(found) == 1 and "is drawn half over rectangle" in found[0], found
    # a title on its bar, a number on its card: the shape holds the text whole
    assert problems(screen(dio, dio.rect(0, 0, 128, 13), dio.label("Lunchbox", 1, 1)), 128,
                    64) == []
    # a label whose cells are opaque brings its own background
    assert problems(screen(dio, dio.rect(40, 20, 88, 12),
                           dio.label("18 days", 30, 20, bg=0x123456)), 128, 64) == []


def test_checker_reads_a_tile_grids_own_pixels(dio):
    """A bitmap's box is not its ink: only its opaque pixels count."""
    displayio = dio.displayio
    bmp = displayio.Bitmap(20, 20, 2)
    for i in range(20):
        bmp[i, 0] = 1  # a line along its top only
    pal = displayio.Palette(2)
    pal.make_transparent(0)
    pal[1] = 0xFFFFFF

    def grid():
        return displayio.TileGrid(bmp, pixel_shader=pal, x=0, y=10)

    assert problems(screen(dio, dio.label("ok", 0, 16), grid()), 128, 64) == []
    assert problems(screen(dio, dio.label("ok", 0, 5), grid()), 128, 64) != []


# --- the play-throughs --------------------------------------------------------------------

def _report(watch):
    return "\n".join("{}\n    on {}".format(p, t) for p, t in sorted(watch.items()))


@pytest.mark.parametrize("profile", PROFILES)
def test_every_screen_of_the_play_throughs(profile):
    """The play-throughs of tests/test_playthrough.py (each game twice and Settings; an
    evening with undos and power cuts, then the tools), checked at every frame."""
    from playthrough import PLAYS, Policy, Table

    runs = [(Table(profile, seed=3 + PLAYS.index(k)), [(k, 2), ("settings", 1)])
            for k in PLAYS]
    plan = []
    for kind in PLAYS:
        plan += [(kind, 1), ("settings", 1)]
    plan.append(("tools", 1))
    runs.append((Table(profile, 11, Policy(suggest=0.5, undo=0.08, cut=0.03)), plan))
    found = {}
    screens = 0
    for table, plan in runs:
        w = Watch(table.box.sim)
        try:
            table.run(plan)
        finally:
            table.box.close()
        found.update(w.found)
        screens += w.screens
    assert found == {}, _report(found)
    assert screens > 1000  # the frames were seen (a watch that saw none would pass)


def _scripts():
    """(name, key script, battery percent) for the screens the play-throughs do not open:
    the README's pictures, the screens of tests/test_firmware_layout.py, a battery."""
    from test_firmware_layout import SCREENS

    from lunchbox.sim import SHOT_BATTERY, shot_scripts

    out = [(stem, keys, SHOT_BATTERY.get(stem)) for stem, keys in shot_scripts()]
    out += [(name, script or "wait:100", None) for name, script, _marker in SCREENS]
    # Settings > Check the box, every page (the buttons page as each is pressed)
    check = "wait:3000 prev ok prev ok next prev back undo ok ok ok wait:1000 ok"
    out += [("check the box", check, None), ("check the box on a battery", check, 15)]
    out += [("menu on a battery", "wait:3000", 60),
            ("battery low warning", "wait:3000", 5),
            ("settings on a battery", "wait:3000 prev ok", 60)]
    return out


@pytest.mark.parametrize("profile", PROFILES)
def test_every_screen_of_the_scripts(profile, simulate, tmp_path):
    found = {}
    screens = 0
    for name, script, battery in _scripts():
        sim = simulate(profile, None, str(tmp_path / (name.replace(" ", "-") + ".nvm")),
                       battery=battery)
        w = Watch(sim)
        sim.run_script(script)
        w.check()
        for p, t in w.found.items():
            found.setdefault(p, [name] + t)
        screens += w.screens
    assert found == {}, _report(found)
    assert screens > 100


def test_the_battery_warning_breaks_between_its_words(profile, simulate):
    sim = simulate(profile, "wait:3000", battery=5)
    t = sim.texts()
    assert "Battery low:" in t and "charge it soon" in t, t


def test_a_toast_hides_only_what_it_would_cut(profile, simulate, apps):
    """ui.Toast.cover hides the lines of text the toast's top edge would cut in two, and no
    others: at first boot (its toast up) every menu row above the toast is on the screen, and
    each line it hid crosses its top edge."""
    from layoutcheck import items

    sim = simulate(profile, "wait:500")
    toast = apps[-1].toast
    shown = [t for k, t, _b, _n, _s in items(sim.display.root) if k == "text"]
    assert toast.visible and "No saved data -" in shown
    menu = apps[-1].top.menu
    above = [lab.text for lab in menu.labels if lab.text and lab.y + lab.bounding_box[3] *
             lab.scale <= toast.y]
    assert above and all(t in shown for t in above), (above, shown)
    cut = list(toast.cut)
    assert all(row.hidden for row in cut)
    toast.hide()
    assert not any(row.hidden for row in cut) and toast.cut == []

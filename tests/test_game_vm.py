"""A game's own VM (companion/app/launch.py), as the simulator and the board run it: a game that
builds its screen once the press is handled (app.later) opens, and stays open, instead of
the VM going straight back to the menu. The case found by the play-through harness: "New
game" on Space Lunch's end, a card or two entered, then the cable wiggles: the save is the
new game with no move yet, and Resume must open it."""

from shared_rules import games


def test_a_saved_game_with_no_move_yet_resumes_in_its_vm(profile, simulate, nvm, nvm_store):
    nvm_store(nvm).save_game("space_lunch", games.new("space_lunch", 1).to_bytes())
    sim = simulate(profile, "wait:2000 ok wait:1000 next wait:500", nvm)
    t = sim.texts()
    assert t[0].startswith("Card 1 of 9"), t  # a new deal of the same difficulty, on screen
    assert sim.hw.launched == "space_lunch"


def test_a_new_game_from_the_menu_opens_in_its_vm(profile, simulate, nvm):
    # Space Lunch's list: Easy starts a solo game, built once the press is handled
    sim = simulate(profile, "wait:2000 ok wait:500 ok wait:1000", nvm)
    assert sim.texts()[0].startswith("Card 1 of 9"), sim.texts()


def test_leaving_the_game_goes_back_to_the_menu(profile, simulate, nvm):
    sim = simulate(profile, "wait:2000 ok wait:500 ok wait:1000 back wait:1000",
                   nvm)
    t = sim.texts()
    assert t[0] == "Lunchbox" and "Space Lunch" in t, t


def test_a_game_vm_reads_its_descriptor_twice_as_it_opens(profile, simulate, nvm,
                                                           monkeypatch):
    # each read is an about.json from the board's flash, parsed: the loader reads it once
    # and passes the game's family on, and the turn clock reads it once more (the catalog is
    # let go in between); it was five reads, 30-90 ms of a game's opening on the board
    from companion.app import catalog

    reads = []
    rows_of = catalog.rows_of
    sim = simulate(profile, None, nvm)

    def counted(name):
        reads.append((sim.hw.launched, name))  # in which VM: the menu's, or the game's
        return rows_of(name)

    monkeypatch.setattr(catalog, "rows_of", counted)
    sim.run_script("wait:2000 ok wait:500 ok wait:1000")
    assert sim.texts()[0].startswith("Card 1 of 9"), sim.texts()
    assert [r for r in reads if r[0] == "space_lunch"] == [("space_lunch", "space_lunch")] * 2

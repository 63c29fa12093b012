"""A game's own VM (companion/launch.py), as the simulator and the board run it: a game that
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

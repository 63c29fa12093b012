"""A saved scoreboard that cannot be read, resumed from its game's own list (not the boot
prompt): said, forgotten, and a new one started, never the crash screen."""

import pytest

BAD = b"\x01\x07\x01\x02\x00\x00\x05\x00\x00"  # framed like a record, fails its checksum


@pytest.mark.parametrize("game_id, keys", [("days_score", "wait:3000 back next*4 ok ok"),
                                           ("battle_race", "wait:3000 back next*3 ok ok")])
def test_unreadable_save_resumed_from_the_list(game_id, keys, simulate, nvm, nvm_store):
    from companion.store.store import KIND_CRASH

    nvm_store(nvm).save_game(game_id, BAD)
    # Back at "Resume game?" keeps the save; the game's entry; Resume
    t = simulate("pico-display-pack", keys, nvm).texts()
    assert "Oops - restarting" not in t and "players" in " ".join(t), t
    store = nvm_store(nvm)
    assert [r for r in store.records() if r[1] == KIND_CRASH] == []
    assert store.load_game() is None


def test_space_days_scoreboard_refuses_a_number_no_card_has():
    from shared_rules import games
    from shared_rules._codec import checksum

    g = games.new("days_score")
    for bad in (19, 20 + 80, -1):
        with pytest.raises(ValueError):
            g.apply(bad)
    body = bytes([1, 7, 1, 2, 0, 0, 19])
    with pytest.raises(ValueError):
        games.replay(body + checksum(body))

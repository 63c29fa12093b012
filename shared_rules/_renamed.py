"""The modules' names before each game had its folder, for ``from shared_rules import <old
name>``: old name -> the module it now is. Only read when an old name is asked for."""

OLD = {
    "space_lunch_actions": "space_lunch.actions", "space_lunch_duel": "space_lunch.duel",
    "space_lunch_game": "space_lunch.game", "space_lunch_hints": "space_lunch.hints",
    "lets_do_lunch_ai": "lets_do_lunch.ai", "lets_do_lunch_fair": "lets_do_lunch.fair",
    "lets_do_lunch_game": "lets_do_lunch.game", "lets_do_lunch_match": "lets_do_lunch.match",
    "lets_do_lunch_save": "lets_do_lunch.save",
    "aqua_brunch_check": "aqua_brunch.check", "aqua_brunch_engine": "aqua_brunch.engine",
    "aqua_brunch_game": "aqua_brunch.game", "aqua_brunch_score": "aqua_brunch.score",
    "space_battle_lunchtime": "space_battle.rules", "space_battle_check": "space_battle.check",
    "space_battle_engine": "space_battle.engine", "space_battle_game": "space_battle.game",
    "space_battle_race": "space_battle.race",
    "space_days_cards": "space_days.cards", "space_days_codec": "space_days.codec",
    "space_days_game": "space_days.game", "space_days_legal": "space_days.legal",
    "space_days_score": "space_days.score",
}


def module(name):
    new = OLD.get(name)
    if new is None:
        return None
    full = "shared_rules." + new
    return __import__(full, None, None, [new[new.rfind(".") + 1:]])

"""The registry: one line per game, (id, module, class) of its protocol class. A row's
position is the game's index in records, so rows only append. Everything else a game is (its
name, menu label, seats, screens...) is in its folder's about.json (docs/adding-a-game.md);
this module is all the device reads to list the games, so it holds nothing else.
"""

ROWS = (
    ("space_lunch", "shared_rules.space_lunch.game", "SpaceLunchGame"),
    ("lets_do_lunch", "shared_rules.lets_do_lunch.game", "LetsDoLunchGame"),
    ("aqua_brunch", "shared_rules.aqua_brunch.game", "AquaBrunchGame"),
    ("space_battle", "shared_rules.space_battle.game", "SpaceBattleGame"),
    ("space_days", "shared_rules.space_days.game", "SpaceDaysGame"),
    # the table scoreboards: rows of their own, named in their game's about.json
    ("aqua_score", "shared_rules.aqua_brunch.score", "AquaScore"),
    ("battle_race", "shared_rules.space_battle.race", "BattleRace"),
    ("days_score", "shared_rules.space_days.score", "DaysScore"),
)

"""Space Battle Lunchtime: the serving game and its score race. One folder per game (docs/adding-a-
game.md): rules.py (serving levels, the best serve), engine.py (the full game), check.py (state
checks), game.py (the protocol class), race.py (the table score race, row battle_race).

``from shared_rules import space_battle`` gives the engine's names (rules.py), as it did before the
games had folders; the device imports the modules it needs by their full names.
"""


from shared_rules._compat import Package

__getattr__ = Package(__name__, "rules").attr
del Package

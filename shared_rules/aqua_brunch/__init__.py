"""Aqua Brunch: the card game, its strength calculator and its scoreboard. One folder per game
(docs/adding-a-game.md): rules.py (strength, catch division, the pass advisor), engine.py (the
full game), check.py (state checks), game.py (the protocol class), score.py (the table
scoreboard, row aqua_score).

``from shared_rules import aqua_brunch`` gives the engine's names (rules.py), as it did before the
games had folders; the device imports the modules it needs by their full names.
"""


from shared_rules._compat import Package

__getattr__ = Package(__name__, "rules").attr
del Package

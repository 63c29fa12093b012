"""Space Lunch: the solo game against the Automa and the two-player game. One folder per game
(docs/adding-a-game.md): rules.py (the solo engine), actions.py (action codes), duel.py (two
players), hints.py (the solo hints), game.py (the protocol class).

``from shared_rules import space_lunch`` gives the engine's names (rules.py), as it did before the
games had folders; the device imports the modules it needs by their full names.
"""


from shared_rules._compat import Package

__getattr__ = Package(__name__, "rules").attr
del Package

"""Space Days: the card game and its scoreboard. One folder per game (docs/adding-a-game.md):
rules.py (the engine), cards.py (the deck), legal.py (what may be played), codec.py (its saved
state), game.py (the protocol class), score.py (the table scoreboard, row days_score).

``from shared_rules import space_days`` gives the engine's names (rules.py), as it did before the
games had folders; the device imports the modules it needs by their full names.
"""


from shared_rules._compat import Package

__getattr__ = Package(__name__, "rules").attr
del Package

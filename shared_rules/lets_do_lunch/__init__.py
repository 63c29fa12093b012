"""Let's Do Lunch: the two-player dice game and its computer opponent. One folder per game
(docs/adding-a-game.md): rules.py (board, dice, captures, fairness), match.py (the match
engine), save.py (its 60-byte state), ai.py (the computer), fair.py (dice fairness words),
game.py (the protocol class).

``from shared_rules import lets_do_lunch`` gives the engine's names (rules.py), as it did before the
games had folders; the device imports the modules it needs by their full names.
"""


from shared_rules._compat import Package

__getattr__ = Package(__name__, "rules").attr
del Package

"""The turn clock's Settings byte (portable; store/appsettings.py keeps it as it is, 0: off):
bits 0-1 the mode (1 count up, 2 chess clock), bits 2-5 the chess minutes and bits 6-7 the
bonus a turn, each as its index in CLOCK_MIN / BONUS_S (the first of each stored as 0;
store/appsettings.py checks the byte against these: 10 times)."""

from shared_rules._compat import const

COUNT_UP = const(1)
CHESS = const(2)
CLOCK_MIN = (10, 1, 3, 5, 15, 20, 30, 45, 60, 90)  # a chess clock's minutes each
BONUS_S = (0, 5, 10, 30)  # seconds it adds for each turn a player completes


def setting(byte):
    """``(mode, minutes, bonus seconds)``; mode 0: off."""
    return byte & 3, CLOCK_MIN[byte >> 2 & 15], BONUS_S[byte >> 6]


def make_setting(mode, minutes, bonus):
    return mode | CLOCK_MIN.index(minutes) << 2 | BONUS_S.index(bonus) << 6

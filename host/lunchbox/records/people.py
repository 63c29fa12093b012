"""Who sits in a seat: one rule for the BG Stats file, `stats` and the charts.

- A name pushed to a board (or typed in its Settings) is one person on every board.
- A seat left at the board's default name ("P1".."P7") is a person of that board only: two
  boards' "P1" are two people, "P1 (board E6614104)".
- The seats the board plays (Space Lunch's "Automa", Let's Do Lunch's "Computer (Hard)") are
  one player each, the same on every board: names with lower-case letters, which a person's
  name (upper case, pushed or typed on the board) never has.
"""

DEFAULT_NAMES = frozenset("P{}".format(i + 1) for i in range(7))  # the board's own


def board_label(board_id):
    return (board_id or "?")[:8]


def is_device_seat(name):
    """The Automa or the computer."""
    return name != name.upper()


def person_key(row, name):
    """``(key, shown name)`` of who sits in a seat named ``name`` on ``row``'s board; the key
    is the same for the same person in every export."""
    if name in DEFAULT_NAMES:
        return "player/board/{}/{}".format(row["board_id"], name), "{} (board {})".format(
            name, board_label(row["board_id"]))
    return "player/" + name, name


def namer(rows):
    """``who(row, name)``: a seat's name in tables and charts of ``rows``. A default name is
    told apart by its board only when ``rows`` hold it from more than one board (one board's
    tables keep the short "P1")."""
    boards = {}
    for r in rows:
        for name in r.get("players") or ():
            if name in DEFAULT_NAMES:
                boards.setdefault(name, set()).add(r.get("board_id"))
    shared = {name for name, b in boards.items() if len(b) > 1}

    def who(row, name):
        return person_key(row, name)[1] if name in shared else name
    return who

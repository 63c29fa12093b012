"""Space Days: the cards, the days and the names a player may type for them.

Card data is one tuple per kind, ``(name, score, days, flags)``; ``days`` is a bit mask with
bit 0 = Monday ... bit 6 = Sunday. Kinds are numbered in rulebook order; the numbers are part of
the saved-game format, so never reorder them. See docs/rules-decisions.md ("Space Days").
"""

from shared_rules._compat import const

# Flags: what kind of card it is and what its play needs.
ACTION = const(1)  # an effect, discarded after use: never sits on a board
ANY_BOARD = const(2)  # "on any board"; otherwise your own board only
ON_TOP = const(4)  # goes on top of a card (Gaseous Cloud); others need an empty day
NEIGHBOURS_EMPTY = const(8)  # Flying Saucer
NEIGHBOURS_FULL = const(16)  # Space Station
NEXT_TO_JUNK = const(32)  # Space Scavenger
CLEARS_SIDES = const(64)  # Evil Cube
BLOCKS_DAY = const(128)  # Planet Killer

WORMHOLE = const(0)
TIME_WARP = const(1)
HYPERSPACE_WEB = const(2)
PLANET_KILLER = const(3)
SPACE_PIRATE = const(4)
TELEPORT = const(5)
SPACE_SCAVENGER = const(6)
SPACE_JUNK = const(7)
EVIL_CUBE = const(8)
GASEOUS_CLOUD = const(9)
FLYING_SAUCER = const(10)
SOLAR_PROBE = const(11)
SPACE_ELEVATOR = const(12)
SPACE_STATION = const(13)
HOSPITAL_SHIP = const(14)
ROCKET_SHIP = const(15)
SPACE_JUNK_3 = const(16)
REUSABLE_SHIP = const(17)
KINDS = const(18)

# How many play one game, the engine and the table scoreboard alike. The rulebook sets no
# limit (one deck per two players, "more decks" for more); seven is as many as the device
# keeps player names for and its screens show (docs/scoring.md).
MIN_PLAYERS = const(2)
MAX_PLAYERS = const(7)

# fmt: off
CARDS = (
    ("wormhole", 0, 0x7F, ACTION),
    ("time_warp", 0, 0x7F, ACTION),
    ("hyperspace_web", 0, 0x7F, ACTION),
    ("planet_killer", 0, 0x66, ANY_BOARD | BLOCKS_DAY),  # Tue Wed Sat Sun; score: an option
    ("space_pirate", 0, 0x00, ACTION),
    ("teleport", 0, 0x7F, ACTION),
    ("space_scavenger", 6, 0x7F, ANY_BOARD | NEXT_TO_JUNK),
    ("space_junk", 1, 0x7F, ANY_BOARD),
    ("evil_cube", 7, 0x7F, ANY_BOARD | CLEARS_SIDES),
    ("gaseous_cloud", 0, 0x7F, ANY_BOARD | ON_TOP),
    ("flying_saucer", 6, 0x7F, NEIGHBOURS_EMPTY),
    ("solar_probe", 4, 0x01, 0),
    ("space_elevator", 3, 0x46, 0),  # Tue Wed Sun
    ("space_station", 5, 0x3E, NEIGHBOURS_FULL),  # Tue..Sat
    ("hospital_ship", 2, 0x7E, ANY_BOARD),  # Tue..Sun
    ("rocket_ship", 2, 0x60, 0),  # Sat Sun
    ("space_junk_3", 3, 0x18, 0),  # Thu Fri
    ("reusable_ship", 2, 0x1E, 0),  # Tue..Fri
)
# The rulebook gives 39 play cards but not how many of each: 2 of every kind, plus a third
# Space Junk (1), Hospital Ship and Re-usable Ship (the cheap ships that fill boards).
DEFAULT_COUNTS = (2, 2, 2, 2, 2, 2, 2, 3, 2, 2, 2, 2, 2, 2, 3, 2, 2, 3)
# fmt: on

# Spellings a player may type besides the canonical names (after normalising).
_ALIASES = (("space_junk_1", SPACE_JUNK), ("re_usable_ship", REUSABLE_SHIP))

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _norm_name(text):
    return text.strip().lower().replace("-", "").replace(" ", "_")


def card_id(card):
    """The kind number of a card given by kind number or name ("Space Junk", "space_junk_3",
    "Re-usable Ship"...). Anything else raises ValueError naming it."""
    if isinstance(card, int) and not isinstance(card, bool):
        if 0 <= card < KINDS:
            return card
        raise ValueError("unknown Space Days card {!r}".format(card))
    if isinstance(card, str):
        key = _norm_name(card)
        for k in range(KINDS):
            if CARDS[k][0] == key:
                return k
        for alias, k in _ALIASES:
            if alias == key:
                return k
    raise ValueError("unknown Space Days card {!r}".format(card))


def card_name(kind):
    return CARDS[card_id(kind)][0]


def card_score(kind, planet_killer_score=0):
    k = card_id(kind)
    if k == PLANET_KILLER:
        return planet_killer_score
    return CARDS[k][1]


def is_action(kind):
    return bool(CARDS[card_id(kind)][3] & ACTION)


def allowed_days(kind):
    """The days (0 = Monday) a card may be played on, as a tuple."""
    mask = CARDS[card_id(kind)][2]
    return tuple(d for d in range(7) if mask >> d & 1)


def day_index(day):
    """0..6 for Monday..Sunday, from an int or a name ("tue", "Tuesday")."""
    if isinstance(day, int) and not isinstance(day, bool):
        if 0 <= day < 7:
            return day
    elif isinstance(day, str):
        key = day.strip().lower()
        if len(key) >= 3:
            for d in range(7):
                if DAYS[d][: len(key)] == key:
                    return d
    raise ValueError("unknown day {!r}".format(day))


def deck_counts(counts=None, decks=1):
    """The whole deck as a list of 18 counts: ``counts`` per deck (a sequence of 18 counts, or a
    mapping of card name to count for the kinds that differ from the default), times ``decks``."""
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 6:
        raise ValueError("decks must be 1..6, got {!r}".format(decks))
    per = list(DEFAULT_COUNTS)
    if counts is None:
        pass
    elif isinstance(counts, dict):
        for key in sorted(counts, key=str):
            per[card_id(key)] = counts[key]
    else:
        per = list(counts)
        if len(per) != KINDS:
            raise ValueError("counts needs {} entries, got {}".format(KINDS, len(per)))
    for k in range(KINDS):
        c = per[k]
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= 20:
            raise ValueError("count of {} must be 0..20, got {!r}".format(CARDS[k][0], c))
    if not sum(per):
        raise ValueError("the deck has no cards")
    return per, [c * decks for c in per]

"""`lunchbox push`: change the board's settings from the computer (typing names on a keyboard
beats four buttons), and set its clock.

The settings are read off the board, changed, checked with the board's own rules
(companion/store/appsettings.py: the checks its Settings screens make) and sent back; the board
checks them again before it saves them, so a bad value is refused on both sides.
"""

from ..errors import UsageError
from .gamerec import device_records
from .link import data_ports, open_link


def appsettings():
    device_records()  # puts the firmware checkout on sys.path
    from companion.store import appsettings as a

    return a


def change(raw, names=None, set_names=(), brightness=None, leds=None):
    """The new settings bytes: ``raw`` (the board's, b"" for defaults) with the changes.
    ``names``: a list for players 1.. in order; ``set_names``: ``[(player 1-based, name)]``.
    UsageError with the board's own message for a bad value."""
    a = appsettings()
    try:
        s = a.AppSettings.from_bytes(raw) if raw else a.AppSettings()
        new_names = list(s.names)
        for i, name in enumerate(names or []):
            if i >= a.MAX_PLAYERS:
                raise ValueError("at most {} player names".format(a.MAX_PLAYERS))
            new_names[i] = name.strip().upper()
        for player, name in set_names:
            if not 1 <= player <= a.MAX_PLAYERS:
                raise ValueError("player {} is not 1..{}".format(player, a.MAX_PLAYERS))
            new_names[player - 1] = name.strip().upper()
        out = a.AppSettings(s.brightness if brightness is None else brightness,
                            s.leds if leds is None else leds, new_names, s.hints, s.deal,
                            s.dim, s.off)
    except ValueError as e:
        raise UsageError(str(e), "names: 1-{} of {!r}; brightness 0-100 in steps of 10".format(
            a.NAME_LEN, a.NAME_CHARS.strip())) from None
    return out.to_bytes()


def describe(raw):
    a = appsettings()
    s = a.AppSettings.from_bytes(raw) if raw else a.AppSettings()
    return "brightness {}%, LEDs {}, players: {}".format(s.brightness, "on" if s.leds else "off",
                                                         ", ".join(s.names))


def _player_name(text):
    if "=" not in text:
        raise UsageError("--name wants PLAYER=NAME, e.g. --name 2=ANNA")
    n, name = text.split("=", 1)
    try:
        return int(n), name
    except ValueError:
        raise UsageError("--name {!r}: the player is a number 1-7".format(text)) from None


def register(parser):
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--port", help="the data channel's serial port")
    where.add_argument("--sim", action="store_true", help="the running simulator")
    parser.add_argument("--names", help="player names in seat order, comma separated: "
                        "ANNA,BO,CY")
    parser.add_argument("--name", action="append", default=[], metavar="N=NAME",
                        help="one player's name, e.g. --name 2=BO (repeatable)")
    parser.add_argument("--brightness", type=int, help="0-100 in steps of 10")
    parser.add_argument("--leds", choices=("on", "off"))
    parser.add_argument("--clock", action="store_true",
                        help="set the board's clock to this computer's (lunchbox pull does too)")


def run(args):
    devices = data_ports(args.port, args.sim)
    if len(devices) > 1:
        raise UsageError("{} boards are attached ({})".format(len(devices), ", ".join(devices)),
                         "choose one with --port")
    names = args.names.split(",") if args.names else None
    set_names = [_player_name(t) for t in args.name]
    leds = None if args.leds is None else args.leds == "on"
    changing = names or set_names or args.brightness is not None or leds is not None
    if changing:  # a value the board would refuse is said before any board is needed
        change(b"", names, set_names, args.brightness, leds)
    link = open_link(devices[0])
    try:
        link.hello()
        if args.clock:
            link.set_time()
            print("clock set")
        raw = link.get_settings()
        if changing:
            new = change(raw, names, set_names, args.brightness, leds)
            if new != raw:
                link.set_settings(new)
                raw = link.get_settings()
        print(describe(raw))
    finally:
        link.close()
    return 0

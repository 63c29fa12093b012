"""Reading a finished game's envelope of format 2, the one with each seat's time on the turn
clock (portable: the host reads records with the device's own code; the board writes them,
state.py's ``timed``, and never reads them back)."""

from .statebytes import MAX_SEATS, get_num


def untimed(payload):
    """``(format 1 envelope, times)`` of a kept game's envelope: format 2 gives its times (a
    ``(seconds, turns)`` for each seat) and the envelope without them, anything else is as it
    was with times None (store/records.py reads the envelope). ValueError when a format 2
    envelope is cut short."""
    if not payload or payload[0] != 2:
        return payload, None
    at = 6
    for _ in range(payload[5] if len(payload) > 5 else 0):
        if at >= len(payload):
            break
        at += 1 + payload[at]
    if len(payload) < 6 or at >= len(payload) or payload[at] > MAX_SEATS:
        raise ValueError("game envelope version 2: the names or times are cut short")
    times = []
    pos = at + 1
    try:
        for _ in range(payload[at]):
            sec, pos = get_num(payload, pos)
            turns, pos = get_num(payload, pos)
            times.append((sec, turns))
    except ValueError:
        raise ValueError("game envelope version 2: the times are cut short") from None
    if pos >= len(payload):
        raise ValueError("game envelope version 2: no game record after the times")
    return b"\x01" + bytes(payload[1:at]) + bytes(payload[pos:]), times

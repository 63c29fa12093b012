"""Reading the save log at power-on (and in each game's fresh VM): the store's state from the
nvm image, or a fresh start with a message saying what was lost (docs/persistence.md). Its
code is needed once a VM: Store() loads it, and main.run lets it go on the device.
Mounting never raises: a damaged log becomes ``store.status``."""

from . import nvmscan
from .nvmlog import MAGIC, OVERHEAD
from .nvmscan import BAD, BLANK, GOOD
from .saveformat import (
    BASE_SIZE,
    K_ACK,
    K_BASE,
    K_GAME,
    K_GAMEDIFF,
    K_NOGAME,
    K_RING,
    K_SEEN,
    K_SETTINGS,
    MAX_ID_LEN,
    MAX_PAYLOAD,
    MIN_SIZE,
    MSG_BLANK,
    MSG_CORRUPT,
    MSG_CUT,
    MSG_CUT_GAME,
    MSG_CUT_LAST,
    MSG_CUT_RECORDS,
    MSG_CUT_SETTINGS,
    MSG_CUT_SETTINGS_RECORDS,
    MSG_ERROR,
    MSG_FOREIGN,
    MSG_NO_NVM,
    MSG_VERSION,
    VERSION,
)

# A notice (what was lost) is kept in the base record of the image written after damage, and
# shown at every mount until the next save: a power cut right after the repair cannot hide it.
# Its index here is what flash holds: append, never reorder.
_NOTICES = (None, MSG_CUT_GAME, MSG_CUT_SETTINGS, MSG_CUT_RECORDS, MSG_CUT, MSG_CORRUPT,
            MSG_FOREIGN, MSG_VERSION, MSG_ERROR, MSG_BLANK, MSG_CUT_LAST,
            MSG_CUT_SETTINGS_RECORDS)
_FRESH = (MSG_CUT, MSG_CORRUPT, MSG_FOREIGN, MSG_VERSION, MSG_ERROR)
# by mask: 1 game, 2 settings, 4 records (a lost game is "saved game lost" with or without
# records: the game matters most, and with the settings it is "starting fresh")
_LOSSES = (None, MSG_CUT_GAME, MSG_CUT_SETTINGS, MSG_CUT, MSG_CUT_RECORDS, MSG_CUT_GAME,
           MSG_CUT_SETTINGS_RECORDS, MSG_CUT)


def _combine(old, new):
    """One message for two losses (an earlier notice not yet seen, and a new one)."""
    if new is None:
        return old
    if old is None or old == MSG_BLANK or old == MSG_CUT_LAST:
        return new
    if new == MSG_BLANK or new == MSG_CUT_LAST or old in _FRESH:
        return old
    if new in _FRESH:
        return new
    return _LOSSES[_LOSSES.index(old) | _LOSSES.index(new)]


class _Corrupt(Exception):
    pass


def mount(store):
    try:
        size = len(store._nvm)
        data = store._nvm[0:size] if size >= MIN_SIZE else None
    except Exception:  # no usable nvm: memory only
        size, data = 0, None
    if data is None:
        store.status = MSG_NO_NVM
        return
    size = min(size, 0xFFFF)  # offsets are 16-bit; nvm is 4 KB on RP2 (8 KB elsewhere)
    store._end = size
    room = (size - BASE_SIZE - 3 * OVERHEAD - 2 - MAX_ID_LEN) // 3
    store.max_payload = min(MAX_PAYLOAD, room)
    try:
        msg = _scan(store, data, size)
    except _Corrupt as exc:
        msg = exc.args[0]
        store._clear_state()
    data = None
    store.status = _combine(_NOTICES[store._notice], msg)
    if msg is None:
        return  # all well (perhaps with a notice not yet seen)
    msg = store.status
    # Write a clean image now, so appends never follow damage; it keeps the notice.
    store._dirty = True
    try:
        store._compact(store._seq, msg != MSG_BLANK, _NOTICES.index(msg))
    except Exception as exc:  # e.g. a read-only file in the simulator
        store.error = exc
        store._dirty = True

def _scan(store, data, end):
    """Load the state from the sector image ``data``. Returns None when all is well (a torn
    last append included), else the status message; raises _Corrupt for a fresh start."""
    if nvmscan.erased(data, 0, end):
        return MSG_BLANK
    verdict, pos = nvmscan.check(data, 0, end)
    if verdict != GOOD or data[1] != K_BASE or pos != BASE_SIZE:
        if data[0] & MAGIC == MAGIC and nvmscan.erased(data, BASE_SIZE - 1, end):
            raise _Corrupt(MSG_CUT)  # the compaction was cut before its base was written
        if data[0] == MAGIC and data[1] == K_BASE:
            raise _Corrupt(MSG_CORRUPT)
        raise _Corrupt(MSG_FOREIGN)
    if data[8] != VERSION and data[8] != 1:
        raise _Corrupt(MSG_VERSION if data[8] > VERSION else MSG_CORRUPT)
    store._version = data[8]
    flags = data[9]
    ring_count = (data[10] << 8) | data[11]
    compactions = int.from_bytes(data[12:16], "big")
    ack = int.from_bytes(data[16:20], "big")
    image_len = (data[20] << 8) | data[21]
    notice = data[22]
    base_seq = nvmscan.seq_of(data, 0)
    if flags > 3 or image_len < BASE_SIZE or image_len > end or ack >= base_seq \
            or notice >= len(_NOTICES):
        raise _Corrupt(MSG_CORRUPT)
    store._notice = notice
    store._compactions = compactions
    store._ack = ack
    store._seq = base_seq + 1
    # The image: exactly the records the base announces, each older than the base.
    damaged = False
    while pos < image_len:
        verdict, nxt = nvmscan.check(data, pos, image_len)
        if verdict != GOOD or nvmscan.seq_of(data, pos) >= base_seq:
            damaged = True
            break
        kind = data[pos + 1]
        if kind == K_GAME and (flags & 1) and store._game is None and not store._settings \
                and not store._ring:
            _apply(store, data, pos, nxt)
        elif kind == K_SETTINGS and (flags & 2) and store._settings is None and not store._ring:
            _apply(store, data, pos, nxt)
        elif kind == K_RING and len(store._ring) < ring_count:
            _apply(store, data, pos, nxt)
        else:
            raise _Corrupt(MSG_CORRUPT)
        pos = nxt
    lost_game = (flags & 1) and store._game is None
    lost_settings = (flags & 2) and store._settings is None
    lost_ring = len(store._ring) < ring_count
    if damaged or pos != image_len or lost_game or lost_settings or lost_ring:
        # A compaction cut part-way: what was programmed is the newest of everything, so
        # keep it and say what is gone. Nothing may have been appended after it.
        if not nvmscan.erased(data, image_len, end):
            raise _Corrupt(MSG_CORRUPT)
        store._ring.sort()
        if lost_game:
            return MSG_CUT if lost_settings else MSG_CUT_GAME
        if lost_settings:
            return MSG_CUT_SETTINGS_RECORDS if lost_ring else MSG_CUT_SETTINGS
        return MSG_CUT_RECORDS
    # The log after the image: consecutive sequence numbers, so a record that vanished
    # shows as a gap; a torn append (prefix programmed, last byte still erased) is skipped
    # and its number reused by the next append.
    expect = base_seq + 1
    msg = None
    while pos < end:
        verdict, nxt = nvmscan.check(data, pos, end)
        if verdict == BLANK and nvmscan.erased(data, pos, end):
            break
        if verdict != GOOD and not (verdict == BAD and nvmscan.torn(data, pos, nxt, end)
                                    and not nvmscan.hides(data, pos, nxt)
                                    and not nvmscan.resized(data, pos, nxt)):
            # Not an append cut cleanly. As the very end of the log (nothing good after
            # it) it is a save whose programming was cut unevenly, or the last record
            # damaged: keep the state before it and say so. Anywhere else: corrupt.
            if nvmscan.good_after(data, pos, end) or not nvmscan.one_write(data, pos, end,
                                                                        expect):
                raise _Corrupt(MSG_CORRUPT)
            msg = MSG_CUT_LAST
            pos = end
            break
        if verdict == GOOD:
            if nvmscan.seq_of(data, pos) != expect:
                raise _Corrupt(MSG_CORRUPT)
            kind = data[pos + 1]
            if kind == K_BASE:
                raise _Corrupt(MSG_CORRUPT)
            _apply(store, data, pos, nxt)
            expect += 1
        pos = nxt  # a good record, or an append cut cleanly (its number is reused)
    store._pos = pos
    store._seq = expect
    store._ring.sort()
    return msg

def _apply(store, data, pos, nxt):
    """Apply one good record to the in-memory state."""
    kind = data[pos + 1]
    seq = nvmscan.seq_of(data, pos)
    body = bytes(memoryview(data)[pos + 8:nxt - 4])
    if kind == K_GAME:
        n = body[0] if body else 0
        if n < 1 or n > MAX_ID_LEN or 1 + n > len(body):
            raise _Corrupt(MSG_CORRUPT)
        gid = None
        try:
            gid = str(body[1:1 + n], "utf-8")
        except Exception:  # not UTF-8: not ours (raised below)
            pass
        if gid is None:
            raise _Corrupt(MSG_CORRUPT)
        store._game = (seq, gid, body[1 + n:])
    elif kind == K_GAMEDIFF:
        # the saved game's first ``keep`` bytes, then the tail (save_game)
        g = store._game
        keep = (body[0] << 8) | body[1] if len(body) > 1 else 0xFFFF
        if store._version < 2 or g is None or keep > len(g[2]) \
                or keep + len(body) - 2 > store.max_payload:
            raise _Corrupt(MSG_CORRUPT)
        store._game = (seq, g[1], g[2][:keep] + body[2:])
    elif kind == K_NOGAME and not body:
        store._game = None
    elif kind == K_SETTINGS:
        store._settings = (seq, body)
    elif kind == K_RING and body and body[0]:
        store._ring.append((seq, body[0], body[1:]))
    elif kind == K_SEEN and not body:
        store._notice = 0
    elif kind == K_ACK and len(body) == 4:
        n = int.from_bytes(body, "big")
        if n >= seq:
            raise _Corrupt(MSG_CORRUPT)
        if n > store._ack:
            store._ack = n
    else:
        raise _Corrupt(MSG_CORRUPT)


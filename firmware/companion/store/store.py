"""Power-safe saves in ``microcontroller.nvm``: the current game, the settings, and a ring of
finished-game and crash records for the host to pull. See docs/persistence.md for the format
and what a power cut can and cannot cost.

``nvm`` is one 4 KB flash sector on RP2. Programming erased (0xFF) bytes is cheap and leaves
everything else alone; writing over anything else erases and reprograms the whole sector. So
the store appends records (nvmlog.py) into erased space, one slice assignment per save, and
only when the sector is full rewrites it once with the live records (a compaction): one slice
assignment of the whole sector, the saved game first.

Mounting never raises. ``store.status`` is None, or a short message for the screen when the
memory held something the store could not use (it then starts fresh, or with what survived).
"""

import gc

from . import nvmlog
from .nvmlog import OVERHEAD
from .saveformat import (  # noqa: F401 -- the kinds and messages others import from here
    BASE_BODY,
    BASE_SIZE,
    K_ACK,
    K_BASE,
    K_GAME,
    K_GAMEDIFF,
    K_NOGAME,
    K_RING,
    K_SEEN,
    K_SETTINGS,
    KIND_CRASH,
    KIND_FINISHED,
    KIND_GAME,
    MAX_ID_LEN,
    MAX_PAYLOAD,
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
    SEQ_LIMIT,
    VERSION,
    check_payload,
    id_bytes,
)


def _fill_erased(buf, start, end):
    ff = b"\xff" * 64
    while start < end:
        n = min(64, end - start)
        buf[start:start + n] = ff[:n]
        start += n


class Store:
    """The save store on an nvm bytearray (``len``, indexing, slices, slice assignment)."""

    drops_oldest = True  # full, a new record pushes out the oldest (store/records.warning)

    def __init__(self, nvm):
        self.status = None
        self.error = None  # the exception, if mounting hit an unexpected one
        self.max_payload = MAX_PAYLOAD
        self.unsaved = False  # the last save_game found no heap for a compaction
        self._nvm = nvm
        self._end = 0  # nvm bytes used; 0 = memory only
        self._clear_state()
        try:
            from . import mount  # read once a VM: main.run lets it go after

            mount.mount(self)
        except Exception as exc:  # mounting never raises
            self.error = exc
            self._clear_state()
            self._dirty = True
            if self.status is None or self.status == MSG_BLANK:
                self.status = MSG_ERROR

    # ---- the API -------------------------------------------------------------------------

    def load_game(self):
        """``(game_id, payload)`` of the saved game, or None."""
        g = self._game
        return None if g is None else (g[1], g[2])

    def save_game(self, game_id, payload):
        """Save the current game. False (and nothing written) when it equals the saved one, or
        when a compaction found no heap for the sector's image: then ``unsaved`` is True, the
        last save stands, and the next save tries again (a game plays on; docs/persistence.md,
        "Writing")."""
        gid = self._id_bytes(game_id)
        payload = self._check_payload(payload)
        g = self._game
        kind = K_GAME
        if g is not None and g[1] == game_id:
            old = g[2]
            if old == payload:
                return False
            # The same game again (a move added, or undone): keep the common prefix of the
            # saved payload and write the tail, when that is shorter than the whole game.
            n = min(len(old), len(payload))
            keep = 0
            while keep < n and old[keep] == payload[keep]:
                keep += 1
            if self._version > 1 and 2 + len(payload) - keep < 1 + len(gid) + len(payload):
                kind = K_GAMEDIFF
        saved = self._snapshot()
        self._game = (self._seq, game_id, payload)
        try:
            if kind == K_GAMEDIFF:
                self._commit(kind, keep.to_bytes(2, "big") + payload[keep:], saved)
            else:
                self._commit(kind, bytes((len(gid),)) + gid + payload, saved)
        except MemoryError:  # no 4 KB for a compaction now: the last save stands
            self.unsaved = True
            return False
        self.unsaved = False
        return True

    def clear_game(self):
        """Forget the saved game. False when there was none."""
        if self._game is None:
            return False
        saved = self._snapshot()
        self._game = None
        self._commit(K_NOGAME, b"", saved)
        return True

    def load_settings(self):
        s = self._settings
        return None if s is None else s[1]

    def save_settings(self, payload):
        """Save the settings. False (and nothing written) when unchanged."""
        payload = self._check_payload(payload)
        s = self._settings
        if s is not None and s[1] == payload:
            return False
        saved = self._snapshot()
        self._settings = (self._seq, payload)
        self._commit(K_SETTINGS, payload, saved)
        return True

    def append_record(self, kind, payload):
        """Keep a record (kind 1 finished game, 2 crash, any 1..255) for the host; returns its
        sequence number. When the sector fills, the oldest records are dropped."""
        if not isinstance(kind, int) or kind < 1 or kind > 255:
            raise ValueError("record kind {!r} is not 1..255".format(kind))
        payload = self._check_payload(payload)
        saved = self._snapshot()
        self._ring.append((self._seq, kind, payload))
        self._commit(K_RING, bytes((kind,)) + payload, saved)
        return self._ring[-1][0]

    def records(self, acked=False):
        """``[(seq, kind, payload)]`` oldest first: the records the host has not acknowledged
        (with ``acked=True`` also acknowledged ones not yet dropped)."""
        ack = self._ack
        return [r for r in self._ring if acked or r[0] > ack]

    def waiting(self):
        """How many finished games wait on the board for ``lunchbox pull`` (the menu's status:
        here, so the menu's VM does not load store/records.py for it)."""
        n = 0
        for r in self.records():
            if r[1] == KIND_FINISHED or r[1] == KIND_GAME:
                n += 1
        return n

    def kept(self, record):
        """The newest game record kept is ``record`` (bare, or in its envelope): a game's end
        resumed after a power cut keeps its record once (companion/app/keeping.py)."""
        last = None
        for r in self.records(True):
            if r[1] == KIND_FINISHED or r[1] == KIND_GAME:
                last = r[2]
        return last is not None and last[len(last) - len(record):] == record

    def ack_records(self, up_to_seq):
        """The host has pulled every record up to ``up_to_seq``: they may be dropped at the next
        compaction. False when that changes nothing."""
        if not isinstance(up_to_seq, int) or up_to_seq < 0:
            raise ValueError("sequence number {!r} is not an int >= 0".format(up_to_seq))
        n = min(up_to_seq, self._seq - 1)  # never hide records not written yet
        ack = self._ack
        if n <= ack or not [r for r in self._ring if ack < r[0] <= n]:
            return False  # nothing newly acknowledged: no write
        saved = self._snapshot()
        self._ack = n
        self._commit(K_ACK, n.to_bytes(4, "big"), saved)
        return True

    def make_room(self, nbytes):
        """Compact now when fewer than ``nbytes`` are free for appends, so that the saves to
        come fit without a compaction when the heap is fuller (called as a game's VM starts,
        before the game is built: docs/firmware.md). True when it compacted. Never raises but
        for a power cut: a failure leaves everything as it was (the next save compacts)."""
        if self._end == 0 or not self._dirty and self._end - self._pos >= nbytes:
            return False
        saved = self._snapshot()
        try:
            self._compact_retry(self._seq, True, self._notice)
        except Exception as exc:  # MemoryError, or the simulator's file is read-only
            self.error = exc
            self._restore(saved)
            return False
        return True

    def room(self, size, game_size=None):
        """How many more ring records of ``size`` payload bytes fit before a compaction would
        have to drop one the host has not acknowledged yet, counting a saved game of
        ``game_size`` bytes (default ``size``: the game being played is saved while its record
        is written). 0: the next one may push the oldest waiting record out."""
        if self._end == 0:
            return 0xFFFF  # memory only: nothing is kept anyway, nothing to warn about
        total = BASE_SIZE + OVERHEAD + 1 + MAX_ID_LEN + (size if game_size is None
                                                           else game_size)
        if self._settings is not None:
            total += OVERHEAD + len(self._settings[1])
        for r in self.records():
            total += OVERHEAD + 1 + len(r[2])
        budget = self._end - self._end // 2
        if total >= budget:
            return 0
        return (budget - total) // (OVERHEAD + 1 + size)

    def stats(self):
        """Figures for the about screen."""
        return {
            "size": self._end,
            "used": self._pos,
            "free": self._end - self._pos,
            "compactions": self._compactions,
            "records": len(self.records()),
            "seq": self._seq,
        }

    # ---- validation ----------------------------------------------------------------------

    _check_payload = check_payload
    _id_bytes = id_bytes

    # ---- state ---------------------------------------------------------------------------

    def _clear_state(self):
        self._pos = 0  # where the next record goes
        self._seq = 1  # the next sequence number
        self._game = None  # (seq, game_id, payload)
        self._settings = None  # (seq, payload)
        self._ring = []  # [(seq, kind, payload)], ascending seq
        self._ack = 0
        self._compactions = 0
        self._dirty = False  # the next write must compact (the log is not appendable)
        self._notice = 0  # index in _NOTICES of the notice in the base record, until a save
        self._version = VERSION  # of the base record on flash (1: no diff records in its log)

    def _snapshot(self):
        return (self._game, self._settings, list(self._ring), self._ack, self._pos, self._seq,
                self._compactions, self._dirty, self._notice)

    def _restore(self, s):
        (self._game, self._settings, self._ring, self._ack, self._pos, self._seq,
         self._compactions, self._dirty, self._notice) = s

    # ---- writing -------------------------------------------------------------------------

    def _commit(self, kind, body, saved):
        """Persist one change already made in memory (its record takes sequence ``_seq``);
        undo it in memory if writing fails."""
        try:
            seq = self._seq
            if self._end == 0:
                self._seq = seq + 1
                return
            rec = nvmlog.encode(kind, seq, body)
            nxt = seq + 1
            if self._notice:  # the first save after a notice also records that it was seen
                rec = rec + nvmlog.encode(K_SEEN, nxt, b"")
                nxt += 1
            pos = self._pos
            if not self._dirty and pos + len(rec) <= self._end and nxt < SEQ_LIMIT:
                self._nvm[pos:pos + len(rec)] = rec
                self._pos = pos + len(rec)
                self._seq = nxt
            else:
                self._compact_retry(seq + 1)
            self._notice = 0
        except BaseException:
            self._restore(saved)
            raise

    def _compact_retry(self, base_seq, count=True, notice=0):
        # The image is 4 KB in one piece: a fragmented heap may have it only after a collect.
        # _compact changes nothing before the sector is written, so a retry starts clean.
        try:
            self._compact(base_seq, count, notice)
        except MemoryError:
            gc.collect()
            self._compact(base_seq, count, notice)

    def _compact(self, base_seq, count=True, notice=0):
        """Rewrite the sector as one image: base record, game, settings, then the ring records
        not yet acknowledged, newest first, the oldest dropped to keep half the sector free."""
        end = self._end
        if base_seq >= SEQ_LIMIT:
            base_seq = self._renumber()
        ring = [r for r in self._ring if r[0] > self._ack]
        game = self._game
        settings = self._settings
        recs = []
        if game is not None:
            gid = game[1].encode("utf-8")
            recs.append(nvmlog.encode(K_GAME, game[0], bytes((len(gid),)) + gid + game[2]))
        if settings is not None:
            recs.append(nvmlog.encode(K_SETTINGS, settings[0], settings[1]))
        total = BASE_SIZE
        for r in recs:
            total += len(r)
        for r in ring:
            total += OVERHEAD + 1 + len(r[2])
        budget = end - end // 2
        while ring and (total > end or total > budget and len(ring) > 1):
            total -= OVERHEAD + 1 + len(ring[0][2])
            ring.pop(0)
        flags = (1 if game is not None else 0) | (2 if settings is not None else 0)
        compactions = self._compactions + (1 if count else 0)
        img = bytearray(end)
        pos = BASE_SIZE
        for r in recs:
            img[pos:pos + len(r)] = r
            pos += len(r)
        for i in range(len(ring) - 1, -1, -1):
            seq, kind, payload = ring[i]
            r = nvmlog.encode(K_RING, seq, bytes((kind,)) + payload)
            img[pos:pos + len(r)] = r
            pos += len(r)
        body = bytearray(BASE_BODY)
        body[0] = VERSION
        body[1] = flags
        body[2:4] = len(ring).to_bytes(2, "big")
        body[4:8] = compactions.to_bytes(4, "big")
        body[8:12] = self._ack.to_bytes(4, "big")
        body[12:14] = pos.to_bytes(2, "big")
        body[14] = notice
        img[0:BASE_SIZE] = nvmlog.encode(K_BASE, base_seq, body)
        _fill_erased(img, pos, end)
        self._nvm[0:end] = img  # one slice assignment: erase + program on a used sector
        self._ring = ring
        self._pos = pos
        self._seq = base_seq + 1
        self._compactions = compactions
        self._dirty = False
        self._notice = notice
        self._version = VERSION

    def _renumber(self):
        """Give every live record a new sequence number from 1 (never happens in a flash's
        life: about 5 million saves wear the sector out, 4 billion would be needed)."""
        seq = 1
        ring = []
        for r in self._ring:
            if r[0] > self._ack:
                ring.append((seq, r[1], r[2]))
                seq += 1
        self._ring = ring
        self._ack = 0
        if self._game is not None:
            self._game = (seq, self._game[1], self._game[2])
            seq += 1
        if self._settings is not None:
            self._settings = (seq, self._settings[1])
            seq += 1
        return seq

"""The save log's format as the store and its mount (store/mount.py) both read it: the record
kinds on flash, the sizes, and the messages a mount can end with (docs/persistence.md)."""

from shared_rules._compat import const

# Format version, in the base record. 2: the log may hold K_GAMEDIFF records. A version 1
# sector (older firmware's) is read as it is and gets no diff record until its next
# compaction writes version 2; older firmware says "newer version" about a version 2 sector
# rather than "corrupt" (docs/persistence.md, "Format").
VERSION = const(2)

# Record kinds on flash
K_BASE = const(0x01)  # first record of a compacted image (what follows, counters)
K_GAME = const(0x02)
K_NOGAME = const(0x03)  # the game was cleared
K_SETTINGS = const(0x04)
K_RING = const(0x05)  # a finished-game / crash record for the host
K_ACK = const(0x06)  # the host has pulled the ring up to a sequence number
K_SEEN = const(0x07)  # the notice in the base record has been on screen (a save followed)
K_GAMEDIFF = const(0x08)  # the same game again: keep a prefix of the saved payload, add a tail

# Ring record kinds the app uses (any 1..255 is accepted)
KIND_FINISHED = const(1)
KIND_CRASH = const(2)
KIND_GAME = const(3)  # a finished game in its envelope (date, names: store/records.py)

MAX_PAYLOAD = const(1024)  # largest payload of any save, on a 4 KB nvm (see max_payload)
MAX_ID_LEN = const(32)  # bytes of a game id (UTF-8)
MIN_SIZE = const(256)  # smaller nvm: memory-only, nothing kept
BASE_BODY = const(15)
BASE_SIZE = const(27)  # OVERHEAD + BASE_BODY
SEQ_LIMIT = 0xFFFF0000  # sequence numbers are renumbered from 1 before they could wrap

MSG_BLANK = "No saved data - starting fresh"
MSG_FOREIGN = "Unknown data in memory - starting fresh"
MSG_CORRUPT = "Saved data was corrupt - starting fresh"
MSG_VERSION = "Saved data is from a newer version - starting fresh"
MSG_CUT = "Power cut while saving - starting fresh"
MSG_CUT_GAME = "Power cut while saving - saved game lost"
MSG_CUT_SETTINGS = "Power cut while saving - settings reset"
MSG_CUT_RECORDS = "Power cut while saving - some game records lost"
MSG_CUT_SETTINGS_RECORDS = "Power cut while saving - settings reset, some game records lost"
MSG_CUT_LAST = "Power cut while saving - last change lost"
MSG_NO_NVM = "No memory for saves - nothing will be kept"
MSG_ERROR = "Saved data unreadable - starting fresh"


# Both stores' checks of what they are given (store.Store on nvm, filestore.FileStore on
# littlefs), written once: each class takes them as its methods (no extra frame on a save).

def check_payload(store, payload):
    if not isinstance(payload, (bytes, bytearray)):
        raise ValueError("payload {!r} is not bytes".format(type(payload)))
    if len(payload) > store.max_payload:
        raise ValueError("payload of {} bytes is over {}".format(len(payload),
                                                                 store.max_payload))
    return bytes(payload)


def id_bytes(store, game_id):
    if not isinstance(game_id, str):
        raise ValueError("game id {!r} is not a str".format(game_id))
    raw = game_id.encode("utf-8")
    if not raw or len(raw) > MAX_ID_LEN:
        raise ValueError("game id {!r} is not 1..{} bytes".format(game_id, MAX_ID_LEN))
    return raw

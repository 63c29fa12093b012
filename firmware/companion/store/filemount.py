"""Mounting a FileStore (store/filestore.py): reading its folder at start, and walking a record
batch's frame headers. Apart from the store, so that a VM lets this code go once the store is
mounted (main.open_store): on the Display Pack's MicroPython every kilobyte of a game's heap
counts (docs/firmware.md, "On MicroPython"). A failed append walks its batch again (imported
again then)."""

from . import filelayout as L  # (the layout, read as the store reads it)
from .saveformat import MAX_ID_LEN, MSG_BLANK

_WHAT = {"game": "game", "settings": "settings", "meta": "record counters"}


def mkdir(s, path):
    """True when the folder was made now."""
    try:
        s.fs.mkdir(path)
        return True
    except OSError:
        s.fs.listdir(path)  # there already (else this raises: no store)
        return False


def mount(s):
    """Read the store's folder into ``s`` (a FileStore): the saved state, the batches'
    counts; leftovers of cut writes removed, corrupt files set aside."""
    # "No saved data" once, when the store's folder is made: every game opens in a VM of
    # its own, and a notice at each mount showed its toast over every menu until a save
    blank = mkdir(s, s.root)
    mkdir(s, s._path("rec"))
    names = s._names(s.root)
    for name in names:
        if name.endswith(".tmp"):
            s._drop(s._path(name))
        elif name.endswith(".bad") and name[:-4] in _WHAT:
            s._note(_WHAT[name[:-4]])
    for name in ("game", "settings", "meta"):
        path = s._path(name + ".lbs")
        if name + ".lbs" not in names:
            continue
        blank = False
        body = L.unseal(L.STATE_MAGIC, s._read(path))
        if body is not None:
            try:
                take(s, name, body)
                continue
            except (ValueError, IndexError):
                pass
        s._set_aside(path, s._path(name + ".bad"))
        s._note(_WHAT[name])
    top = 0
    firsts = []
    for name in s._names(s._path("rec")):
        stem, dot, ext = name.partition(".")
        if len(stem) != 8 or not stem.isdigit():
            continue  # not the store's (the host's own files, if any)
        seq = int(stem)
        top = max(top, seq)
        if ext == "rec":
            firsts.append(seq)
        elif ext == "tmp":
            s._drop(s._path("rec/" + name))
        elif ext == "bad":
            s._note("record " + str(seq))
    firsts.sort()
    for i in range(len(firsts)):
        b = walk(s, firsts[i], True)
        if b is not None:
            s._batches.append(b)
            top = max(top, b[0] + b[1] - 1)
            blank = False
    s._drop_acked()  # acknowledged, and its removal cut
    s._next = max(s._next, top + 1)
    s._other = [q for q in s._other if s._has(q)]
    if blank and s.status is None:
        s.status = MSG_BLANK
    if s._free() - L.RESERVE < L.BLOCK:  # a record would be refused
        s.full = True
        s.status = L.MSG_FULL


def take(s, name, body):
    if name == "game":
        n = body[0]
        if n < 1 or n > MAX_ID_LEN or len(body) < 1 + n:
            raise ValueError("game id")
        s._game = (str(body[1:1 + n], "utf-8"), bytes(body[1 + n:]))
    elif name == "settings":
        s._settings = bytes(body)
    else:
        s._next = int.from_bytes(body[0:4], "big")
        s._ack = int.from_bytes(body[4:8], "big")
        k = body[8]
        other = []
        for i in range(k):
            other.append(int.from_bytes(body[9 + 4 * i:13 + 4 * i], "big"))
        at = 9 + 4 * k
        if len(body) < at or s._next < 1:
            raise ValueError("meta")
        s._other = other
        if len(body) >= at + 4:
            s._last = (int.from_bytes(body[at:at + 4], "big"), bytes(body[at + 4:]))


def walk(s, first, repair):
    """[first, records, bytes, appendable, 1 or 2] of a record file from its headers alone
    (no payload read), or None when it holds none. A batch whose last frame was cut short
    (a cut append on a file system that is not littlefs) is cut back to its whole frames
    when ``repair`` (written aside and renamed); one with a bad header further in keeps
    what comes before it, and is never appended to."""
    path = s._rec_path(first)
    try:
        f = s.fs.open(path, "rb")
    except OSError:
        return None
    with f:
        size = f.seek(0, 2)
        f.seek(0)
        h = f.read(L.HEAD)
        if h[:4] == L.REC_MAGIC:
            if len(h) > 4:
                s._kind(first, h[4])
            return [first, 1, size, False, 1]
        at = count = 0
        while at < size:
            f.seek(at)
            h = f.read(L.HEAD) if at else h
            if (len(h) < L.HEAD or h[:4] != L.BATCH_MAGIC
                    or int.from_bytes(h[4:8], "big") != first + count):
                break
            end = at + L.FRAME + int.from_bytes(h[9:11], "big")
            if end > size:
                break
            s._kind(first + count, h[8])
            at = end
            count += 1
    if at == size and count:
        return [first, count, size, True, 2]
    torn = size - at < L.HEAD or (h[:4] == L.BATCH_MAGIC
                                  and int.from_bytes(h[4:8], "big") == first + count)
    if count == 0 or not torn:
        if count == 0:
            if s._set_aside(path, path[:-4] + ".bad"):
                s._note("record " + str(first))
            return None
        s._note("record " + str(first + count))
        return [first, count, at, False, 2]
    if size - at >= L.HEAD:  # its number was taken (the host may have seen the header)
        s._next = max(s._next, first + count + 1)
    if repair:
        try:
            copy(s, path, at)
            return [first, count, at, True, 2]
        except OSError:
            pass
    return [first, count, at, False, 2]


def copy(s, path, n):
    """Keep the first ``n`` bytes of ``path``: written aside, renamed over it."""
    tmp = path[:-4] + ".tmp"
    try:
        with s.fs.open(path, "rb") as src:
            with s.fs.open(tmp, "wb") as dst:
                while n > 0:
                    chunk = src.read(min(n, 512))
                    if not chunk:
                        raise OSError(L.ENOSPC)
                    dst.write(chunk)
                    n -= len(chunk)
        s.fs.rename(tmp, path)
    except OSError:
        s._drop(tmp)
        raise

"""Incremental copy of the file set onto CIRCUITPY, tracked by a manifest on the drive.

Order of a sync (each step can be cut by an unplug; the next sync repairs it):
1. plan: compare each shipped file with the drive's copy (size, then SHA-256);
2. check free space;
3. write a small journal, .lunchbox-pending.json, listing every file about to be written or
   removed (so a half-written file is known to be ours even if it is never shipped again);
4. remove files an earlier sync put there that are no longer shipped (only if unchanged
   since, or pending);
5. write the changed files, settings.toml, then boot.py, then code.py (CircuitPython reloads
   750 ms after the last write, so code.py last means one reload into a complete tree);
6. write the new manifest (aside, then renamed over the old one), then delete the journal.
While the journal exists the manifest counts as incomplete. Nothing else on the drive is touched.
"""

import errno
import hashlib
import json
import os
import posixpath
import time

from .errors import LunchboxError

MANIFEST = ".lunchbox-manifest.json"
PENDING = ".lunchbox-pending.json"
# Format 2 (compact): {"format": 2, "files": {rel: "<first 16 hex digits of its SHA-256>"},
# "firmware_version", "profile", "tool", "written", and since 2026-11-30 "libs": {library
# import name: version of the installed distribution it was copied from}} (optional: older
# format-2 manifests lack it, and older lunchbox versions ignore it). Format 1 (read, and replaced by format 2 on
# the next sync that changes anything) had {rel: {"sha256": 64 hex digits, "size": n}} and a
# "complete" flag. 64 bits of digest only have to tell "the file sync wrote" from "a file the
# user changed since", so an accidental match is a 1 in 2**64 chance.
FORMAT = 2
READ_FORMATS = (1, 2)
DIGEST_CHARS = 16
_HEX = frozenset("0123456789abcdef")
LAST = ("settings.toml", "boot.py", "code.py")
# Never listed in (or removed through) a manifest: its own files and the system's.
_RESERVED = {MANIFEST.lower(), MANIFEST.lower() + ".new", PENDING.lower(),
             PENDING.lower() + ".new", "boot_out.txt",
             ".fseventsd", ".metadata_never_index", ".trashes", "system volume information"}


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def digest(data):
    """What the manifest and the journal store for a file's content."""
    return sha256(data)[:DIGEST_CHARS]


def matches(data, stored):
    """Whether ``data`` is the content a manifest digest (16 to 64 hex digits) describes."""
    return bool(stored) and sha256(data).startswith(stored)


def _check_digest(value):
    if not (isinstance(value, str) and DIGEST_CHARS <= len(value) <= 64
            and set(value) <= _HEX):
        raise ValueError("{!r} is not a hex digest".format(value))
    return value


def check_rel(rel):
    """A manifest path must be a plain relative POSIX path inside the drive."""
    if not isinstance(rel, str) or not rel:
        raise ValueError("empty path")
    if "\\" in rel or "\x00" in rel or ":" in rel:
        raise ValueError("{!r}: backslash, colon or NUL".format(rel))
    if rel.startswith("/") or posixpath.isabs(rel):
        raise ValueError("{!r} is absolute".format(rel))
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise ValueError("{!r} has an empty, '.' or '..' component".format(rel))
    if parts[0].lower() in _RESERVED:
        raise ValueError("{!r} is reserved".format(rel))
    return rel


def _unsafe_manifest(path, why):
    return LunchboxError(
        "the manifest {} is not trustworthy ({}); nothing was changed".format(path, why),
        hint="delete {} from the drive: the next sync rewrites what it ships and removes "
             "nothing else".format(MANIFEST))


def _load_json(path, key):
    """(dict or None when absent, damaged flag) for one of our JSON files, its ``key`` table
    normalised to {rel: {"sha256": digest}} (journal: {rel: digest or None}); path tricks
    make it untrusted (LunchboxError)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return None, False
    except OSError as e:
        raise _os_error(e, path) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, True  # half-written when the board was unplugged
    if not isinstance(data, dict) or not isinstance(data.get(key), dict):
        raise _unsafe_manifest(path, "not a Lunchbox {}".format(key))
    fmt = data.get("format")
    if fmt not in READ_FORMATS:
        raise _unsafe_manifest(path, "format {!r}, this lunchbox reads {}".format(
            fmt, " and ".join(str(f) for f in READ_FORMATS)))
    table = {}
    for rel, entry in data[key].items():
        try:
            check_rel(rel)
        except ValueError as e:
            raise _unsafe_manifest(path, "unsafe path {}".format(e)) from None
        if fmt == 1 and key == "files":
            entry = entry.get("sha256") if isinstance(entry, dict) else None
        try:
            if key == "files" or entry is not None:
                _check_digest(entry)
        except ValueError:
            raise _unsafe_manifest(path, "bad entry for {!r}".format(rel)) from None
        table[rel] = {"sha256": entry} if key == "files" else entry
    data[key] = table
    if key == "files" and fmt != 1:
        data["complete"] = True  # format 2 is only ever written whole, after a full sync
    if key == "files":
        data["libs"] = _libs(data.get("libs"))
    return data, False


def _libs(value):
    """The manifest's library versions, or None when it has none (an older manifest) or they
    are not a {name: version} table: informational only, so never a reason to distrust it."""
    if not isinstance(value, dict):
        return None
    return {k: v for k, v in value.items()
            if isinstance(k, str) and isinstance(v, str) and k and v and len(k + v) < 200}


def read_manifest(drive):
    """The drive's manifest as a dict ({"files": {rel: {"sha256": digest[, "pending"]}},
    "complete", "firmware_version", "profile", "libs" ({name: version}, or None when the
    manifest does not record them), "pending_profile" (the profile of a sync that
    did not finish), ...}; either format), or None when sync never ran there.

    A journal left by an interrupted sync marks the manifest incomplete and its files
    pending. Path tricks (absolute paths, '..', backslashes) in either file make it
    untrusted: a LunchboxError, rather than removing anything it names.
    """
    manifest, damaged = _load_json(os.path.join(drive, MANIFEST), "files")
    journal, journal_damaged = _load_json(os.path.join(drive, PENDING), "pending")
    if manifest is None and journal is None and not (damaged or journal_damaged):
        return None
    if manifest is None:
        # A damaged manifest: files are still compared by content; only removals of files
        # no longer shipped are lost, so it is rewritten whole.
        manifest = {"format": FORMAT, "complete": False, "files": {}}
    manifest["complete"] = bool(manifest.get("complete")) and not (
        journal is not None or journal_damaged or damaged)
    if damaged:
        manifest["damaged"] = True
    if journal is not None and isinstance(journal.get("profile"), str):
        manifest["pending_profile"] = journal["profile"]
    for rel, new in sorted((journal or {}).get("pending", {}).items()):
        entry = dict(manifest["files"].get(rel) or {"sha256": new or ""})
        entry["pending"] = True
        manifest["files"][rel] = entry
    return manifest


class Plan:
    """What a sync would do."""

    def __init__(self):
        self.writes = []  # (rel, data, "new" | "changed" | "replaced": not from lunchbox)
        self.removes = []  # rel
        self.unchanged = []  # rel
        self.kept = []  # rel: no longer shipped, but changed on the drive: left alone
        self.old_sizes = {}  # rel -> size on the drive now (for the space check)
        self.libs_recorded = False  # no file changed, but the manifest's library versions did

    @property
    def changes(self):
        return len(self.writes) + len(self.removes)

    def bytes_to_write(self):
        return sum(len(data) for _, data, _ in self.writes)


def _order(rel):
    return (LAST.index(rel) + 1 if rel in LAST else 0, rel)


def _inside(drive, rel):
    """The real path of ``rel`` on ``drive``, refusing one that resolves outside it (a
    symlink planted on a fake or odd drive)."""
    path = os.path.join(drive, *rel.split("/"))
    real = os.path.realpath(path)
    root = os.path.realpath(drive)
    if os.path.commonpath([real, root]) != root:
        raise LunchboxError("{} resolves outside the drive ({}); refusing to touch it".format(
            path, real), hint="remove that link from the drive")
    return path


def plan(drive, files, manifest):
    """Compare ``files`` (rel -> bytes) with the drive; nothing is written."""
    p = Plan()
    tracked = (manifest or {}).get("files", {})
    for rel in sorted(files, key=_order):
        check_rel(rel)
        data = files[rel]
        path = _inside(drive, rel)
        try:
            size = os.path.getsize(path)
        except OSError:
            p.writes.append((rel, data, "new"))
            continue
        p.old_sizes[rel] = size
        if size == len(data):
            try:
                with open(path, "rb") as f:
                    same = sha256(f.read()) == sha256(data)
            except OSError as e:
                raise _os_error(e, path) from None
            if same:
                p.unchanged.append(rel)
                continue
        # "replaced": a file sync never wrote there (a first sync over CircuitPython's own
        # code.py, or a copy put there by hand) is overwritten: the summary says so.
        # (settings.toml is merged with the user's own lines, never lost: not "replaced")
        p.writes.append((rel, data, "changed" if rel in tracked or rel == "settings.toml" or (
            manifest and manifest.get("damaged")) else "replaced"))
    if manifest:
        complete = manifest.get("complete", False)
        # FAT ignores case: after a case-only rename in the checkout (Dice.py -> dice.py) the
        # old name IS the new file, and removing it would delete what is shipped.
        shipped = {rel.lower() for rel in files}
        for rel in sorted(manifest["files"]):
            if rel.lower() in shipped:
                continue
            entry = manifest["files"][rel]
            path = _inside(drive, rel)
            if not os.path.isfile(path):
                continue
            try:
                with open(path, "rb") as f:
                    ours = matches(f.read(), entry["sha256"])
            except OSError as e:
                raise _os_error(e, path) from None
            # A pending entry of an interrupted sync may hold a half-written file: ours too.
            if ours or (entry.get("pending") and not complete):
                p.removes.append(rel)
                p.old_sizes[rel] = os.path.getsize(path)
            else:
                p.kept.append(rel)
    return p


def _round(n, block):
    return (n + block - 1) // block * block if n else 0


def space_needed(p, block):
    """Bytes the drive must have free (FAT rounds every file up to a cluster)."""
    new = sum(_round(len(d), block) for _, d, _ in p.writes)
    freed = sum(_round(p.old_sizes.get(rel, 0), block) for rel, _, _ in p.writes)
    freed += sum(_round(p.old_sizes.get(rel, 0), block) for rel in p.removes)
    return new - freed


def free_space(drive):
    st = os.statvfs(drive) if hasattr(os, "statvfs") else None
    if st is not None:
        return st.f_bavail * st.f_frsize, st.f_bsize or 512
    import shutil

    return shutil.disk_usage(drive).free, 4096


def _os_error(e, path):
    code = getattr(e, "errno", None)
    if code == errno.EROFS:
        return LunchboxError(
            "the drive is read-only: cannot write {}".format(path),
            hint="a boot.py on the board that calls storage.remount('/', readonly=False) "
                 "makes the drive read-only to the computer: rename it from the board's "
                 "REPL (import os; os.rename('/boot.py', '/boot_off.py')) and press reset. "
                 "On Linux a FAT drive with errors is mounted read-only: eject it, run "
                 "fsck.vfat on it, plug it back in")
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        return LunchboxError(
            "the drive is full: cannot write {}".format(path),
            hint="delete files you do not need from the drive (old lib/ folders, logs), then "
                 "sync again: it finishes what was left")
    if code in (errno.EACCES, errno.EPERM):
        return LunchboxError("permission denied writing {}".format(path),
                             hint="check the drive's mount options and ownership")
    if code in (errno.EIO, errno.ENODEV, errno.ENOENT, errno.ENXIO, getattr(errno, "ESHUTDOWN", -1)):
        return LunchboxError(
            "the drive went away while writing {} ({})".format(path, e.strerror or e),
            hint="plug the board back in and run `lunchbox sync` again: it repairs a "
                 "half-done sync")
    return LunchboxError("cannot write {}: {}".format(path, e.strerror or e))


def _write(path, data, opener):
    with opener(path, "wb") as f:
        f.write(data)
        f.flush()
        try:
            os.fsync(f.fileno())
        except (OSError, AttributeError, ValueError):
            pass  # not every file object has a real descriptor (injected openers)


def _manifest_bytes(entries, meta):
    doc = {k: v for k, v in (meta or {}).items() if v is not None}
    doc.update({"format": FORMAT, "files": entries,
                "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    return (json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n").encode()


def apply(drive, files, p, manifest, meta=None, progress=None, opener=open):
    """Carry out plan ``p``. ``progress(done_bytes, total_bytes, rel)`` after each file.

    ``meta`` goes into the manifest (firmware version, profile, tool version).
    """
    meta = meta or {}
    old = dict((manifest or {}).get("files", {}))
    if p.changes == 0 and manifest and manifest.get("complete"):
        # Same files, but other library versions (another machine's packages, with identical
        # copies of the shipped modules): only the manifest is rewritten, so that doctor
        # compares against what is really recorded.
        if meta.get("libs") is None or manifest.get("libs") == meta["libs"]:
            return p
        p.libs_recorded = True
    final = {rel: digest(files[rel]) for rel in files}
    # Everything this sync may leave half-done. Earlier pending entries need no carrying
    # over: each is shipped (compared by content), being removed now, or gone from the drive.
    journal = {rel: final[rel] for rel, _, _ in p.writes}
    journal.update({rel: old[rel].get("sha256") for rel in p.removes})
    jdoc = {"format": FORMAT, "pending": journal}
    if (meta or {}).get("profile"):
        # so the next sync (and doctor) know the profile even if settings.toml was not
        # written yet when the board was unplugged
        jdoc["profile"] = meta["profile"]
    journal_bytes = (json.dumps(jdoc, separators=(",", ":"), sort_keys=True) + "\n").encode()
    manifest_bytes = _manifest_bytes(final, meta)
    free, block = free_space(drive)
    # the new manifest and the journal exist beside the old manifest for a moment
    need = space_needed(p, block) + _round(len(manifest_bytes), block) + _round(
        len(journal_bytes), block)
    if need > free:
        raise LunchboxError(
            "not enough space on {}: the sync needs {} KiB and {} KiB is free".format(
                drive, (need + 1023) // 1024, free // 1024),
            hint="delete files you do not need from the drive (old lib/ folders, logs); "
                 "nothing was written")
    mpath = os.path.join(drive, MANIFEST)
    jpath = os.path.join(drive, PENDING)
    if journal:
        _write_atomic(jpath, journal_bytes, opener)
    total = p.bytes_to_write()
    done = 0
    for rel in p.removes:
        path = _inside(drive, rel)
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
        except OSError as e:
            raise _os_error(e, path) from None
        _prune(drive, rel)
    for rel, data, _ in p.writes:
        path = _inside(drive, rel)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            _write(path, data, opener)
        except OSError as e:
            raise _os_error(e, path) from None
        done += len(data)
        if progress:
            progress(done, total, rel)
    _write_atomic(mpath, manifest_bytes, opener)
    try:
        os.remove(jpath)
    except FileNotFoundError:
        pass
    except OSError as e:
        raise _os_error(e, jpath) from None
    return p


def _write_atomic(path, data, opener):
    # Written aside and renamed, so an unplug leaves the old file or the new one.
    try:
        _write(path + ".new", data, opener)
        os.replace(path + ".new", path)
    except OSError as e:
        raise _os_error(e, path) from None


def _prune(drive, rel):
    """Remove folders left empty by a removal (they held only our files)."""
    parts = rel.split("/")[:-1]
    while parts:
        try:
            os.rmdir(os.path.join(drive, *parts))
        except OSError:
            return
        parts.pop()


def sync(drive, files, meta=None, dry_run=False, progress=None, opener=open):
    """Plan and (unless ``dry_run``) apply; returns the Plan."""
    manifest = read_manifest(drive)
    p = plan(drive, files, manifest)
    if not dry_run:
        apply(drive, files, p, manifest, meta, progress, opener)
    return p


def watch(snapshot, run_once, sleep=time.sleep, poll=1.0, stop=lambda: False, retry=5.0):
    """Poll ``snapshot()`` and call ``run_once()`` after each change (and once at the
    start). No file-watching dependency: a snapshot of mtimes and sizes every ``poll`` s.
    A run that returns False failed (the board was resetting or unplugged): it is tried
    again every ``retry`` s until it works, so a cut sync is finished without an edit."""
    last = snapshot()
    failed = run_once() is False
    runs = 1
    waited = 0.0
    while not stop():
        sleep(poll)
        waited += poll
        now = snapshot()
        if now != last or (failed and waited >= retry):
            if now != last:
                # let an editor finish writing (several saves in a row count as one change)
                sleep(poll / 2)
                last = snapshot()
            failed = run_once() is False
            runs += 1
            waited = 0.0
    return runs

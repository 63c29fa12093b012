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
import secrets
import stat
import time

from ..errors import LunchboxError

MANIFEST = ".lunchbox-manifest.json"
PENDING = ".lunchbox-pending.json"
# Format 2 (compact): {"format": 2, "files": {rel: "<first 16 hex digits of its SHA-256>"},
# "firmware_version", "profile", "tool", "written", and since 2026-11-30 "libs": {library
# import name: version of the installed distribution it was copied from}} (optional: older
# format-2 manifests lack it, and older lunchbox versions ignore it). Format 1 (read, and
# replaced by format 2 on the next sync that changes anything) had {rel: {"sha256": 64 hex
# digits, "size": n}} and a
# "complete" flag. 64 bits of digest only have to tell "the file sync wrote" from "a file the
# user changed since", so an accidental match is a 1 in 2**64 chance.
FORMAT = 2
READ_FORMATS = (1, 2)
DIGEST_CHARS = 16
_HEX = frozenset("0123456789abcdef")
LAST = ("settings.toml", "boot.py", "code.py")
SETTINGS = "settings.toml"  # merged with the user's lines, never backed up
# Never listed in (or removed through) a manifest: its own files and the system's.
_RESERVED = {MANIFEST.lower(), MANIFEST.lower() + ".new", PENDING.lower(),
             PENDING.lower() + ".new", "boot_out.txt",
             ".fseventsd", ".metadata_never_index", ".trashes", "system volume information"}
# Every file is written aside under this prefix (in its own folder) and renamed into place.
TMP_PREFIX = ".lunchbox-tmp-"
# Limits on what is read from the drive: ours are a few KiB; anything far bigger is not ours.
MAX_JSON = 1 << 20
MAX_ENTRIES = 20000
MAX_DRIVE_FILE = 4 << 20  # a Pico's CIRCUITPY is 1-3 MiB
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


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
    if parts[0].lower() in _RESERVED or any(p.lower().startswith(TMP_PREFIX) for p in parts):
        raise ValueError("{!r} is reserved".format(rel))
    return rel


def _kind(mode):
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def not_a_file(path, mode):
    return LunchboxError(
        "{} is {}, not a regular file; refusing to read or write it".format(path, _kind(mode)),
        hint="remove it from the drive (a FAT drive holds only files and folders), then sync "
             "again")


def _attempt(call, path, *args, fine=()):
    """``call(path, *args)``; None when it fails with one of ``fine`` (the path is not there,
    or is already), the drive's own words (_os_error) for any other OSError."""
    try:
        return call(path, *args)
    except fine:
        return None
    except OSError as e:
        raise _os_error(e, path) from None


def read_file(path, limit=MAX_DRIVE_FILE):
    """The bytes of a regular file (None when it does not exist), read without following a
    link or blocking on a FIFO; LunchboxError for anything else or one over ``limit``."""
    st = _attempt(os.lstat, path, fine=FileNotFoundError)
    if st is None:
        return None
    if not stat.S_ISREG(st.st_mode):
        raise not_a_file(path, st.st_mode)
    if st.st_size > limit:
        raise LunchboxError("{} is {} KiB, more than the {} KiB sync reads".format(
            path, st.st_size // 1024, limit // 1024),
            hint="this is not a file sync wrote: move it off the drive")
    fd = _attempt(os.open, path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _BINARY | _CLOEXEC,
                  fine=FileNotFoundError)
    if fd is None:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped between lstat and open
            raise not_a_file(path, os.fstat(fd).st_mode)
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise LunchboxError("{} grew past {} KiB while being read".format(
                path, limit // 1024))
        return b"".join(chunks)
    except OSError as e:
        raise _os_error(e, path) from None
    finally:
        os.close(fd)


def _unsafe_manifest(path, why):
    name = os.path.basename(path)
    what = "journal" if name == PENDING else "manifest"
    return LunchboxError(
        "the {} {} is not trustworthy ({}); nothing was changed".format(what, path, why),
        hint="delete {} from the drive: the next sync rewrites what it ships and removes "
             "nothing else".format(path))


def _load_json(path, key):
    """(dict or None when absent, damaged flag) for one of our JSON files, its ``key`` table
    normalised to {rel: {"sha256": digest}} (journal: {rel: digest or None}); path tricks
    make it untrusted (LunchboxError)."""
    try:
        raw = read_file(path, MAX_JSON)
    except LunchboxError as e:
        raise _unsafe_manifest(path, str(e).split(";")[0]) from None
    if raw is None:
        return None, False
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, True  # half-written when the board was unplugged
    except RecursionError:
        raise _unsafe_manifest(path, "nested too deep to be ours") from None
    if not isinstance(data, dict) or not isinstance(data.get(key), dict):
        raise _unsafe_manifest(path, "not a Lunchbox {}".format(key))
    if len(data[key]) > MAX_ENTRIES:
        raise _unsafe_manifest(path, "{} entries, more than a sync ever writes".format(
            len(data[key])))
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
        self.backups = []  # rel: files to replace that the user changed: copied to the host
        self.backup_dir = None  # where those copies went (set by apply)
        self.shadowed = []  # rel: a .py (not sync's, or changed) removed beside its .mpy

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


def _lstat(path):
    # NotADirectoryError: a file where a folder of the path should be
    return _attempt(os.lstat, path, fine=(FileNotFoundError, NotADirectoryError))


def plan(drive, files, manifest):
    """Compare ``files`` (rel -> bytes) with the drive; nothing is written."""
    p = Plan()
    tracked = (manifest or {}).get("files", {})
    for rel in sorted(files, key=_order):
        check_rel(rel)
        data = files[rel]
        path = _inside(drive, rel)
        st = _lstat(path)
        if st is None:
            p.writes.append((rel, data, "new"))
            continue
        if not stat.S_ISREG(st.st_mode):
            raise not_a_file(path, st.st_mode)
        p.old_sizes[rel] = st.st_size
        old = read_file(path)
        if old == data:
            p.unchanged.append(rel)
            continue
        entry = tracked.get(rel)
        ours = entry is not None and old is not None and matches(old, entry.get("sha256"))
        if rel != SETTINGS and not ours and old is not None:
            p.backups.append(rel)  # the user's own copy, or a file they changed since
        # "replaced": a file sync never wrote there (a first sync over CircuitPython's own
        # code.py, or a copy put there by hand) is overwritten: the summary says so.
        # (settings.toml is merged with the user's own lines, never lost: not "replaced")
        p.writes.append((rel, data, "changed" if rel in tracked or rel == SETTINGS or (
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
            st = _lstat(path)
            if st is None or stat.S_ISDIR(st.st_mode):
                continue
            if not stat.S_ISREG(st.st_mode):
                p.kept.append(rel)  # not a file sync could have written: not ours to remove
                continue
            ours = matches(read_file(path), entry["sha256"])
            # A pending entry of an interrupted sync may hold a half-written file: ours too.
            if ours or (entry.get("pending") and not complete):
                p.removes.append(rel)
                p.old_sizes[rel] = st.st_size
            else:
                p.kept.append(rel)
    _unshadow(drive, files, p)
    return p


def _unshadow(drive, files, p):
    """CircuitPython imports X.py before X.mpy (py/builtinimport.c, stat_file_py_or_mpy), so
    a .py left beside a shipped .mpy would run instead of it: it is removed, and kept first
    on the host (a backup) unless sync wrote it and it is unchanged."""
    shipped = {rel.lower() for rel in files}
    for rel in sorted(files):
        if not rel.endswith(".mpy"):
            continue
        stale = rel[:-4] + ".py"
        if stale.lower() in shipped or stale in p.removes:
            continue
        st = _lstat(_inside(drive, stale))
        if st is None or not stat.S_ISREG(st.st_mode):
            continue  # a folder or link there is not a module file sync could remove
        if stale in p.kept:
            p.kept.remove(stale)
        p.backups.append(stale)
        p.removes.append(stale)
        p.shadowed.append(stale)
        p.old_sizes[stale] = st.st_size


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
    if code in (errno.EIO, errno.ENODEV, errno.ENOENT, errno.ENXIO,
                getattr(errno, "ESHUTDOWN", -1)):
        return LunchboxError(
            "the drive went away while writing {} ({})".format(path, e.strerror or e),
            hint="plug the board back in and run `lunchbox sync` again: it repairs a "
                 "half-done sync")
    return LunchboxError("cannot write {}: {}".format(path, e.strerror or e))


def _short(names, n=5):
    names = list(names)
    if not names:
        return "none"
    return ", ".join(names[:n]) + (" and {} more".format(len(names) - n)
                                   if len(names) > n else "")


class Target:
    """The drive being written: every write goes through here, so each one is checked.

    - the drive is still the one the sync started on (same device and root folder, still a
      mount point if it was one, boot_out.txt still there) before each write: an unplugged
      drive leaves an empty mount-point folder on the host disk, which must not be filled;
    - every folder on the way is a real folder and every target a regular file (or absent),
      never a link, FIFO or device; the temporary file is created new (O_EXCL, O_NOFOLLOW);
    - each file is written aside in its own folder, fsynced and renamed over the old one, so
      a cut leaves the old file or the new one.
    ``hook(op, path, tmp)`` (tests: fault injection) runs before each "write" (data into the
    temporary file), "replace" (rename into place) and "remove".
    """

    def __init__(self, root, hook=None):
        self.root = os.path.abspath(root)
        self.hook = hook
        st = os.stat(self.root)
        self.ident = (st.st_dev, st.st_ino)
        self.mount = os.path.ismount(self.root)
        self.boot_out = os.path.isfile(os.path.join(self.root, "boot_out.txt"))
        self.done = []  # what this sync wrote or removed (drive paths), in order

    def path(self, rel):
        return os.path.join(self.root, *rel.split("/"))

    def check(self, rel):
        """The drive is still there; LunchboxError naming ``rel`` otherwise."""
        try:
            st = os.stat(self.root)
            same = ((st.st_dev, st.st_ino) == self.ident
                    and (not self.mount or os.path.ismount(self.root))
                    and (not self.boot_out or os.path.isfile(
                        os.path.join(self.root, "boot_out.txt"))))
        except OSError:
            same = False
        if not same:
            raise LunchboxError(
                "the drive {} went away before {} was written".format(self.root, rel),
                hint="plug the board back in and run `lunchbox sync` again: it repairs a "
                     "half-done sync")

    def _hook(self, op, path, tmp=None):
        if self.hook is not None:
            self.hook(op, path, tmp)

    def _folders(self, rel):
        """Make the folders of ``rel``, each checked to be a real folder on the drive."""
        here = self.root
        for part in rel.split("/")[:-1]:
            here = os.path.join(here, part)
            st = _lstat(here)
            if st is None:
                self.check(rel)
                _attempt(os.mkdir, here, fine=FileExistsError)
                st = _lstat(here)
                if st is None:
                    raise LunchboxError("cannot make the folder {}".format(here))
            if not stat.S_ISDIR(st.st_mode):
                raise LunchboxError(
                    "{} is {}, where sync needs a folder; refusing to write through "
                    "it".format(here, "a file" if stat.S_ISREG(st.st_mode)
                                else _kind(st.st_mode)),
                    hint="remove it from the drive (or rename it), then sync again")

    def write(self, rel, data):
        """Write ``data`` as ``rel``: aside, fsync, rename into place."""
        path = self.path(rel)
        self.check(rel)
        self._folders(rel)
        st = _lstat(path)
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise not_a_file(path, st.st_mode)
        folder = os.path.dirname(path)
        tmp = os.path.join(folder, TMP_PREFIX + secrets.token_hex(4))
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY
                         | _CLOEXEC, 0o666)
        except OSError as e:
            raise _os_error(e, path) from None
        try:
            try:
                self._hook("write", path, tmp)
                view = memoryview(data)
                while view:
                    n = os.write(fd, view)
                    view = view[n:]
                try:
                    os.fsync(fd)
                except OSError as e:
                    if e.errno not in (errno.EINVAL, errno.ENOTSUP):
                        raise
            finally:
                os.close(fd)
            self.check(rel)
            st = _lstat(path)  # planted while we wrote?
            if st is not None and not stat.S_ISREG(st.st_mode):
                raise not_a_file(path, st.st_mode)
            self._hook("replace", path, tmp)
            os.replace(tmp, path)
        except BaseException as e:
            try:
                os.remove(tmp)
            except OSError:
                pass
            if isinstance(e, OSError):
                raise _os_error(e, path) from None
            raise
        _fsync_dir(folder)
        self.done.append(rel)

    def remove(self, rel):
        path = self.path(rel)
        self.check(rel)
        st = _lstat(path)
        if st is None:
            return
        if not stat.S_ISREG(st.st_mode):
            raise not_a_file(path, st.st_mode)
        self._hook("remove", path)
        self.check(rel)
        _attempt(os.remove, path, fine=FileNotFoundError)
        self.done.append(rel)

    def clean_temporaries(self, rels):
        """Remove temporary files a killed sync left in the folders of ``rels``."""
        folders = {os.path.dirname(self.path(rel)) for rel in rels} | {self.root}
        for folder in sorted(folders):
            try:
                names = os.listdir(folder)
            except OSError:
                continue
            for name in names:
                if name.startswith(TMP_PREFIX) or name.lower() in (
                        MANIFEST.lower() + ".new", PENDING.lower() + ".new"):
                    path = os.path.join(folder, name)
                    st = _lstat(path)
                    if st is not None and stat.S_ISREG(st.st_mode):
                        self.check(name)
                        try:
                            os.remove(path)
                        except OSError:
                            pass


def _fsync_dir(folder):
    """Make a rename durable where the OS allows (not on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY | _CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _manifest_bytes(entries, meta):
    doc = {k: v for k, v in (meta or {}).items() if v is not None}
    doc.update({"format": FORMAT, "files": entries,
                "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    return (json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n").encode()


def data_dir():
    """The user data folder (platformdirs), or $LUNCHBOX_DATA."""
    override = os.environ.get("LUNCHBOX_DATA")
    if override:
        return override
    import platformdirs

    return platformdirs.user_data_dir("lunchbox", appauthor=False)


def back_up(drive, rels, base=None):
    """Copy the drive's ``rels`` into a new dated folder on the host; returns its path."""
    label = os.path.basename(os.path.abspath(drive).rstrip("/\\")) or "drive"
    return keep_copies(rels, lambda rel: read_file(os.path.join(drive, *rel.split("/"))),
                       label, "your changed files", base)


def keep_copies(rels, read, label, what, base=None):
    """``read(rel)`` (bytes, or None: not there) of each of ``rels`` into a new folder
    ``<label>-<date>`` under ``base`` (the user data folder's backups/); returns its path. A
    copy that cannot be written is a LunchboxError naming ``what``: nothing was written."""
    base = base or os.path.join(data_dir(), "backups")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = os.path.join(base, "{}-{}".format(label, stamp))
    n = 1
    while os.path.lexists(folder):
        n += 1
        folder = os.path.join(base, "{}-{}-{}".format(label, stamp, n))
    try:
        for rel in rels:
            data = read(rel)
            if data is None:
                continue
            dest = os.path.join(folder, *rel.split("/"))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "xb") as f:
                f.write(data)
    except OSError as e:
        raise LunchboxError(
            "cannot keep a copy of {} in {}: {}; nothing was written".format(
                what, folder, e.strerror or e),
            hint="free some space in your home folder (or set LUNCHBOX_DATA to a writable "
                 "folder), then sync again") from None
    return folder


def apply(drive, files, p, manifest, meta=None, progress=None, hook=None):
    """Carry out plan ``p``. ``progress(done_bytes, total_bytes, rel)`` after each file.

    ``meta`` goes into the manifest (firmware version, profile, tool version). ``hook``: see
    Target.
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
    journal.update({rel: (old.get(rel) or {}).get("sha256") for rel in p.removes})
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
    target = Target(drive, hook)
    if p.backups:
        p.backup_dir = back_up(drive, p.backups)
    todo = list(p.removes) + [rel for rel, _, _ in p.writes]
    try:
        target.clean_temporaries(list(files) + p.removes)
        if journal:
            target.write(PENDING, journal_bytes)
        total = p.bytes_to_write()
        done = 0
        for rel in p.removes:
            target.remove(rel)
            _prune(drive, rel)
        for rel, data, _ in p.writes:
            target.write(rel, data)
            done += len(data)
            if progress:
                progress(done, total, rel)
        target.write(MANIFEST, manifest_bytes)
        target.remove(PENDING)
    except LunchboxError as e:
        if not todo:
            raise
        made = [rel for rel in todo if rel in target.done]
        left = [rel for rel in todo if rel not in target.done]
        raise LunchboxError("{}; {} of {} changes made ({}), not made: {}".format(
            e, len(made), len(todo), _short(made), _short(left)), hint=e.hint) from None
    return p


def _prune(drive, rel):
    """Remove folders left empty by a removal (they held only our files)."""
    parts = rel.split("/")[:-1]
    while parts:
        try:
            os.rmdir(os.path.join(drive, *parts))
        except OSError:
            return
        parts.pop()


def sync(drive, files, meta=None, dry_run=False, progress=None, hook=None):
    """Plan and (unless ``dry_run``) apply, one sync at a time per drive; returns the Plan."""
    if not os.path.isdir(drive):
        raise LunchboxError("the drive {} is not there (unplugged?)".format(drive),
                            hint="plug the board in and wait for CIRCUITPY to mount")
    if dry_run:
        return plan(drive, files, read_manifest(drive))
    with DriveLock(drive):
        manifest = read_manifest(drive)
        p = plan(drive, files, manifest)
        apply(drive, files, p, manifest, meta, progress, hook)
    return p


def _alive(pid):
    if pid == os.getpid():
        return True
    if os.name == "nt":
        return True  # no cheap check there: a stale lock is recognised by its age
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class DriveLock:
    """A lock file on the host (keyed by the drive's device and root folder) held while a
    sync writes: two syncs at once could each leave a file the other's manifest does not
    list. Removed on exit; one whose process no longer runs is stale and taken over."""

    STALE_AGE = 6 * 3600  # where a pid cannot be checked

    def __init__(self, drive, folder=None):
        self.drive = os.path.abspath(drive)
        st = os.stat(self.drive)
        self.name = "sync-{}-{}.lock".format(st.st_dev, st.st_ino)
        self.folder = folder or os.path.join(data_dir(), "locks")
        self.path = os.path.join(self.folder, self.name)
        self.held = False

    def _make_folder(self):
        try:
            os.makedirs(self.folder, exist_ok=True)
            return
        except OSError:
            pass
        import tempfile  # the home folder is not writable: the lock still matters

        uid = getattr(os, "getuid", lambda: "user")()
        self.folder = os.path.join(tempfile.gettempdir(), "lunchbox-locks-{}".format(uid))
        self.path = os.path.join(self.folder, self.name)
        try:
            os.makedirs(self.folder, exist_ok=True)
        except OSError as e:
            raise LunchboxError("cannot make a folder for the sync lock ({}): {}".format(
                self.folder, e.strerror or e)) from None

    def __enter__(self):
        self._make_folder()
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW,
                             0o644)
            except FileExistsError:
                pid = self._owner()
                try:
                    age = time.time() - os.lstat(self.path).st_mtime
                except OSError:
                    continue
                if pid is not None and _alive(pid) and age < self.STALE_AGE:
                    raise LunchboxError(
                        "another lunchbox sync (process {}) is writing to {}".format(
                            pid, self.drive),
                        hint="wait for it to finish, or stop it (its lock, {}, goes when it "
                             "ends; a lock left by a process that no longer runs is "
                             "cleared by itself)".format(self.path)) from None
                try:
                    os.remove(self.path)  # stale: its process is gone
                except FileNotFoundError:
                    pass
                except OSError as e:
                    raise LunchboxError("cannot clear the stale sync lock {}: {}".format(
                        self.path, e.strerror or e)) from None
                continue
            except OSError as e:
                raise LunchboxError("cannot take the sync lock {}: {}".format(
                    self.path, e.strerror or e)) from None
            with os.fdopen(fd, "w") as f:
                f.write("{}\n{}\n".format(os.getpid(), self.drive))
            self.held = True
            return self
        raise LunchboxError("cannot take the sync lock {}".format(self.path),
                            hint="delete it if no lunchbox sync is running")

    def _owner(self):
        try:
            with open(self.path, "rb") as f:
                return int(f.read(64).split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def __exit__(self, *exc):
        if self.held and self._owner() == os.getpid():
            try:
                os.remove(self.path)
            except OSError:
                pass
        self.held = False
        return False


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

"""Writing files the user named (``export -o``, ``stats --plot``) without harming what is there.

- Only a regular file of the user's own is replaced, or a new one made: a symbolic link, FIFO,
  device node, socket or folder at the path is refused before anything is written (writing
  "through" it would change another file, block, or fill a device), and so is a file that is
  read-only or belongs to another user (replacing it would take it over).
- The bytes go to a temporary file with a unique name in the same folder (``mkstemp``, so a
  file of the user's called ``X.tmp`` is never touched), flushed to disk, then renamed over the
  target in one step: the target holds its old or its new content, never half.
- Several files (the plots) are all written aside first and renamed only when every one is on
  disk, so a full disk leaves none of them changed.
- On every failure (a full disk, a write error, Ctrl-C, SIGTERM, SIGHUP) the temporary files
  are removed and the targets are left as they were.
"""

import errno
import os
import signal
import stat
import tempfile
import threading

from .errors import LunchboxError

KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"),
         (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
         (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))
STDOUT_HINT = "give the name of a regular file, or '-o -' to write to stdout (then '> {}')"
# the signals that end the program while a file is written: its temporary file goes first
STOPS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))
FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


class Stopped(LunchboxError):
    """A signal arrived while a file was being written (its temporary file is removed)."""

    def __init__(self, signum, what, written):
        super().__init__("stopped by {}; {} {} written".format(
            signal.Signals(signum).name, what, "was" if written else "was not"))
        self.exit_code = 128 + signum


def kind(path):
    """None for a regular file or nothing there; else what is there, in words."""
    st = _lstat(path)
    if st is None or stat.S_ISREG(st.st_mode):
        return None
    for test, words in KINDS:
        if test(st.st_mode):
            return words
    return "not a regular file"


def _lstat(path):
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise LunchboxError("cannot look at {}: {}".format(path, e.strerror or e),
                            "give a file in a folder you can write") from None


def check_target(path, what):
    """LunchboxError unless ``path`` is absent or a writable regular file of this user, in an
    existing folder."""
    found = kind(path)
    if found == "a symbolic link":
        raise LunchboxError("cannot write {} ({}): it is a symbolic link, left as it is".format(
            path, what), "give the file it points to ({}) or another name".format(
                os.path.realpath(path)))
    if found:
        hint = (STDOUT_HINT.format(path) if what == "-o" and found != "a folder"
                else "give the name of a regular file")
        raise LunchboxError("cannot write {} ({}): it is {}, not a regular file; left as it "
                            "is".format(path, what, found), hint)
    st = _lstat(path)
    if st is not None and hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        raise LunchboxError("cannot write {} ({}): it belongs to another user (uid {}); left "
                            "as it is".format(path, what, st.st_uid),
                            "give a file of your own, or another name")
    if st is not None and not st.st_mode & stat.S_IWUSR:
        raise LunchboxError("cannot write {} ({}): it is read-only; left as it is".format(
            path, what), "make it writable (chmod u+w) or give another name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise LunchboxError("cannot write {} ({}): the folder {} does not exist".format(
            path, what, folder),
                            "create the folder first, or give a file in an existing one")


def _umask():
    old = os.umask(0o022)
    os.umask(old)
    return old


def _failed(path, e, written=()):
    """The LunchboxError for an OSError while ``path`` was written."""
    if e.errno in FULL:
        hint = "free some space, or write it onto another disk"
    elif e.errno == errno.EROFS:
        hint = "that disk is read-only: give a file on another one"
    else:
        hint = "give a file in a folder you can write"
    done = ("; already written: " + ", ".join(written)) if written else ""
    left = "it was left as it was" if os.path.lexists(path) else "nothing was made there"
    return LunchboxError("cannot write {}: {}; {}{}".format(path, e.strerror or e, left, done),
                         hint)


def _write_aside(path, data):
    """``data`` in a new temporary file beside ``path``, flushed to disk; its name."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".",
                               suffix=".tmp")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fchmod(fd, mode)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    os.close(fd)
    return tmp


def write_all(items, what="-o"):
    """Replace or create each regular file ``path`` of ``items`` (``[(path, bytes)]``): every
    target checked, every one written aside, then each renamed into place."""
    for path, _ in items:
        check_target(path, what)
    temps = []  # [(tmp, path)] not yet renamed
    done = []
    old = {}
    in_main = threading.current_thread() is threading.main_thread()

    def on_stop(signum, frame):
        # a signal held back during the renames arrives after them: then all was written
        raise Stopped(signum, ", ".join(p for p, _ in items), len(done) == len(items))

    path = items[0][0] if items else ""
    try:
        if in_main:
            for s in STOPS:
                old[s] = signal.signal(s, on_stop)
        for path, data in items:
            temps.append((_write_aside(path, data), path))
        blocked = in_main and hasattr(signal, "pthread_sigmask")
        if blocked:  # the renames: all of them, not cut in between by a signal
            signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        try:
            for path, _ in items:
                check_target(path, what)  # planted while the data was written: still refused
            while temps:
                tmp, path = temps[0]
                os.replace(tmp, path)
                temps.pop(0)
                done.append(path)
        finally:
            if blocked:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    except OSError as e:
        raise _failed(path, e, done) from None
    finally:
        for tmp, _ in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        for s, handler in old.items():
            signal.signal(s, signal.SIG_DFL if handler is None else handler)


def write(path, data, what="-o"):
    """Replace or create the regular file ``path`` with ``data`` (bytes), atomically."""
    write_all([(path, data)], what)


def make_folders(directory, what):
    """Make ``directory`` and the folders above it that are missing; the ones made, outermost
    first (for ``remove_folders`` when nothing could be written into them)."""
    if os.path.lexists(directory) and not os.path.isdir(directory):
        raise LunchboxError("cannot write into {} ({}): it is {}, not a folder".format(
            directory, what, kind(directory) or "a file"), "give a folder, or a new name")
    missing = []
    d = os.path.abspath(directory)
    while not os.path.lexists(d):
        missing.insert(0, d)
        d = os.path.dirname(d)
    made = []
    try:
        for d in missing:
            os.mkdir(d)
            made.append(d)
    except OSError as e:
        remove_folders(made)
        raise LunchboxError("cannot make the folder {}: {}".format(directory, e.strerror or e),
                            "give a folder you can write") from None
    return made


def remove_folders(made):
    """Remove the folders ``make_folders`` made, where they are still empty."""
    for d in reversed(made):
        try:
            os.rmdir(d)
        except OSError:
            pass

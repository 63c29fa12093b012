"""Writing a file the user named (``export -o``, ``stats --plot``) without harming what is there.

- Only a regular file is replaced, or a new one made: a symbolic link, FIFO, device node or
  folder at the path is refused before anything is written (writing "through" it would change
  another file, block, or fill a device).
- The bytes go to a temporary file with a unique name in the same folder (``mkstemp``, so a
  file of the user's called ``X.tmp`` is never touched), flushed to disk, then renamed over the
  target in one step: the target holds its old or its new content, never half.
- On every failure (a full disk, a write error, Ctrl-C, SIGTERM) the temporary file is removed
  and the target is left as it was.
"""

import os
import signal
import stat
import tempfile
import threading

from .errors import LunchboxError

KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"),
         (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
         (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


class Stopped(LunchboxError):
    """SIGTERM arrived while a file was being written (its temporary file is removed)."""

    exit_code = 128 + signal.SIGTERM


def kind(path):
    """None for a regular file or nothing there; else what is there, in words."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as e:
        raise LunchboxError("cannot look at {}: {}".format(path, e.strerror or e),
                            "give a file in a folder you can write") from None
    if stat.S_ISREG(mode):
        return None
    for test, words in KINDS:
        if test(mode):
            return words
    return "not a regular file"


def check_target(path, what):
    """LunchboxError unless ``path`` is a regular file or absent, in an existing folder."""
    found = kind(path)
    if found == "a symbolic link":
        raise LunchboxError("cannot write {} ({}): it is a symbolic link, left as it is".format(
            path, what),
                            "give the file it points to ({}) or another name".format(
                                os.path.realpath(path)))
    if found:
        raise LunchboxError("cannot write {} ({}): it is {}, not a regular file; left as it "
                            "is".format(path, what, found), "give the name of a regular file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise LunchboxError("cannot write {} ({}): the folder {} does not exist".format(
            path, what, folder),
                            "create the folder first, or give a file in an existing one")


def _umask():
    old = os.umask(0o022)
    os.umask(old)
    return old


def write(path, data, what="-o"):
    """Replace or create the regular file ``path`` with ``data`` (bytes), atomically."""
    check_target(path, what)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    tmp = None
    old_handler = None
    in_main = threading.current_thread() is threading.main_thread()

    def on_term(signum, frame):
        raise Stopped("stopped by SIGTERM; {} was not written".format(path))

    try:
        if in_main:
            old_handler = signal.signal(signal.SIGTERM, on_term)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".",
                                   suffix=".tmp")
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        check_target(path, what)  # planted while the data was written: still refused
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise LunchboxError("cannot write {}: {}; it was left as it was".format(
            path, e.strerror or e), "free some space, or give a file in a folder you can "
                                    "write") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        if in_main:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if old_handler is None else old_handler)

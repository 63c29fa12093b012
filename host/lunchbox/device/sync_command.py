"""`lunchbox sync`: put the firmware, libraries and settings.toml on CIRCUITPY (thin: the work
is in drives, fileset and sync)."""

import os
import sys

from .. import __version__
from ..errors import LunchboxError
from ..hardware import profiles
from ..progress import Bar
from . import drives, fileset, mpycross, sync


def register(parser):
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--drive", metavar="PATH",
                       help="the CIRCUITPY drive (default: find it)")
    where.add_argument("--port", metavar="PORT",
                       help="a MicroPython board's serial port (default: the one attached, "
                            "for a profile with runtime = \"micropython\")")
    parser.add_argument("--profile", metavar="NAME",
                        help="hardware profile id or .toml path (default: the one already on "
                             "the drive); one of: " + ", ".join(profiles.list_profiles()))
    parser.add_argument("--dry-run", action="store_true",
                        help="list what would be written, replaced and removed; write nothing")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--mpy-cross", metavar="PATH",
                     help="compile to .mpy with this CircuitPython mpy-cross (its major version "
                          "must be the board's); default: the pinned one, cached or downloaded, "
                          "or mpy-cross on PATH (docs/host-tool.md)")
    how.add_argument("--py", "--no-mpy", dest="py", action="store_true",
                     help="ship .py files, not .mpy (the board then compiles each module as it "
                          "imports it, which needs more free heap)")
    parser.add_argument("--watch", action="store_true",
                        help="stay running and resync on every change in the checkout")


def ask_drive(drives_found, stream=None, read=input):
    """Prompt for one of several drives (only used when stdin is a terminal)."""
    stream = stream or sys.stderr
    stream.write("Several boards are attached:\n")
    for n, d in enumerate(drives_found, 1):
        stream.write("  {}) {}\n".format(n, d.describe()))
    answer = read("Which one? [1-{}] ".format(len(drives_found))).strip()
    if answer.isdigit() and 1 <= int(answer) <= len(drives_found):
        return drives_found[int(answer) - 1]
    return None


def interactive():
    return sys.stdin is not None and sys.stdin.isatty()


def _micropython_board(comports=None):
    """The port of an attached MicroPython board, or None."""
    from . import ports

    try:
        found = ports.micropython_ports(ports.list_ports(comports))
    except Exception:  # no serial backend: the drive search says what it found
        return None
    return found[0].device if found else None


def find_drive(path=None, roots=None, ask=None, comports=None):
    """The CIRCUITPY Drive: ``path`` if given, else the one attached (asking among several)."""
    if path:
        if not os.path.isdir(path):
            raise LunchboxError("--drive {}: no such folder".format(path),
                                hint="give the folder where CIRCUITPY is mounted")
        if os.path.isfile(os.path.join(path, drives.INFO_UF2)):
            raise LunchboxError(
                "{} is the board's UF2 bootloader drive, not CIRCUITPY".format(path),
                hint="install CircuitPython first: `lunchbox flash --drive {} --uf2 FILE` (the "
                     "CircuitPython 9.2.2 .uf2 for your board, from circuitpython.org)".format(
                         path))
        return drives.Drive(os.path.abspath(path))
    found = drives.find_circuitpy(roots)
    if not found:
        mp = _micropython_board(comports)
        if mp:
            raise LunchboxError(
                "no CIRCUITPY drive: the board attached runs MicroPython ({})".format(mp),
                hint="sync it with a MicroPython profile: lunchbox sync --port {} --profile "
                     "NAME (`lunchbox profile` lists each one's runtime), or flash "
                     "CircuitPython onto it".format(mp))
        boot = drives.find_bootloaders(roots)
        if boot:
            raise LunchboxError(
                "no CIRCUITPY drive, but a bootloader drive is attached ({})".format(
                    boot[0].describe()),
                hint="install CircuitPython first: `lunchbox flash --uf2 FILE` (the "
                     "CircuitPython 9.2.2 .uf2 for your board, from circuitpython.org)")
        raise LunchboxError("no CIRCUITPY drive found",
                            hint="plug the board in with a data USB cable and wait for the "
                                 "drive to mount, or name it with --drive PATH")
    return drives.choose(found, "CIRCUITPY", ask)


def drive_settings(drive):
    """The drive's settings.toml as bytes (None when there is none): the user's lines are
    kept byte for byte, whatever their encoding."""
    path = os.path.join(drive.path, fileset.SETTINGS)
    try:
        return sync.read_file(path, SETTINGS_LIMIT)
    except LunchboxError as e:
        if "KiB" not in str(e):
            raise
        raise LunchboxError(
            "{} is over {} KiB; sync merges its lines and will not guess with one that "
            "big".format(path, SETTINGS_LIMIT // 1024),
            hint="settings.toml holds a few lines of settings: copy yours somewhere safe, "
                 "make it small again, then sync") from None


SETTINGS_LIMIT = 256 * 1024


def settings_value(text, key):
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    for line in (text or "").splitlines():
        k, sep, v = line.partition("=")
        if sep and k.strip() == key:
            return v.split("#", 1)[0].strip().strip('"')
    return None


def profile_on_drive(drive):
    """The profile id the drive was synced with, or None: a sync that did not finish (its
    journal names it: settings.toml may not be written yet), else settings.toml's
    LUNCHBOX_PROFILE, else the manifest's."""
    try:
        manifest = sync.read_manifest(drive.path) or {}
    except LunchboxError:
        manifest = {}
    try:
        settings = drive_settings(drive)
    except LunchboxError:
        settings = None
    for name in (manifest.get("pending_profile"),
                 settings_value(settings, "LUNCHBOX_PROFILE"),
                 manifest.get("profile")):
        if name:
            return name
    return None


def choose_profile(name, drive, boot):
    """The profile: --profile, else the one the drive was synced with. Never a guess between
    the profiles that fit a board."""
    if name:
        return profiles.load_profile(name)
    on_drive = profile_on_drive(drive)
    if on_drive and on_drive in profiles.list_profiles():
        return profiles.load_profile(on_drive)
    if on_drive:
        raise LunchboxError(
            "the drive was synced with profile {!r}, which this checkout does not have".format(
                on_drive[:60]),
            hint="name the profile to use with --profile: {}".format(
                ", ".join(profiles.list_profiles())))
    fits = []
    for pid in profiles.list_profiles():
        try:
            if profiles.load_profile(pid, check=False).get("board") == boot.board_id:
                fits.append(pid)
        except LunchboxError:
            continue
    raise LunchboxError(
        "which hardware profile? The drive has none yet",
        hint="name it with --profile: {}".format(
            ", ".join(fits or profiles.list_profiles())))


def board_warnings(profile, boot):
    warnings = []
    if boot.board_id and profile.get("board") and boot.board_id != profile["board"]:
        warnings.append(
            "the board is {!r} but profile {!r} is for {!r}: pins may not match".format(
                boot.board_id, profile.get("id"), profile["board"]))
    chip = (boot.chip or "").upper()
    if chip and profile.get("chip") and not chip.startswith(profile["chip"].upper()):
        warnings.append("the board's chip is {} but profile {!r} is for {}".format(
            boot.chip, profile.get("id"), profile["chip"]))
    return warnings


def compile_step(files, boot, mpy_cross=None, py=False, progress=None, **choose_kw):
    """(files, line, warning, manifest keys): every module but boot.py and code.py compiled to
    .mpy (mpycross.choose finds the compiler), or the .py files as they are with ``py`` or
    when no compiler can be had or one fails on a file (then ``warning`` says why). ``line``
    says in one line what was done; the manifest keys (with .mpy) are the compiler's
    --version line and {X.mpy: digest of X.py}. An explicit ``mpy_cross`` that will not do
    is an error."""
    if py:
        return files, "modules ship as .py (--py)", None, {}
    fix = mpycross.mpycross_get.HINT
    try:
        tool, how = mpycross.choose(boot.version, mpy_cross, progress=progress, **choose_kw)
    except mpycross.Unavailable as e:
        return files, "modules ship as .py", _fallback(str(e), e.hint or fix), {}
    try:
        out = mpycross.compile_files(tool, files)
    except LunchboxError as e:  # the compiler crashed or refused a file: whole .py, not half
        return files, "modules ship as .py", _fallback(str(e), fix), {}
    # what each .mpy was compiled from, so that doctor can compare the checkout's sources
    sources = {rel[:-3] + ".mpy": sync.digest(files[rel]) for rel in files
               if rel[:-3] + ".mpy" in out and rel not in out}
    line = "compiled {} modules to .mpy with {} ({})".format(len(sources), tool.describe(),
                                                               how)
    return out, line, None, {"mpy_cross": tool.text, "mpy_sources": sources}


def _fallback(why, fix):
    return ("shipping .py, not .mpy: {} (the board then compiles each module as it imports "
            "it, which needs more free heap; fix: {})".format(why, fix))


def prepare(drive, profile_name=None, root=fileset.REPO_ROOT, mpy_cross=None, py=False,
            progress=None):
    """Everything sync needs: (boot, profile, files, meta, warnings, line). Every module but
    boot.py and code.py ships compiled to .mpy unless ``py`` (see compile_step); ``line``
    says how the modules ship."""
    boot = drives.read_boot_out(drive)
    drives.check_supported(boot)
    sync.read_manifest(drive.path)  # an untrusted manifest stops here, before the file set
    profile = choose_profile(profile_name, drive, boot)
    rendered = profiles.render_settings(profile)
    existing = drive_settings(drive)
    settings = fileset.merge_settings(existing or b"", rendered)
    files = fileset.build(profile, settings, root=root)
    libs = fileset.library_versions(files) or None  # read from the .py sources
    warnings = board_warnings(profile, boot)
    problem = fileset.settings_problem(existing or b"")
    if problem:
        warnings.append(problem)
    # the manifest then drops the .py files shipped before (sync.plan: a .py beside a .mpy)
    files, line, fallback, compiled = compile_step(files, boot, mpy_cross, py, progress)
    if fallback:
        warnings.append(fallback)
    meta = {"firmware_version": fileset.firmware_version(root), "profile": profile["id"],
            "tool": "lunchbox " + __version__, "libs": libs}
    meta.update(compiled)
    return boot, profile, files, meta, warnings, line


def summary(p, dry_run=False):
    lines = []
    if dry_run:
        for rel, data, why in p.writes:
            if why == "new":
                lines.append("  would write {} ({} bytes, new)".format(rel, len(data)))
            else:
                lines.append("  would replace {} ({} bytes{})".format(
                    rel, len(data), "; it is on the drive but not from lunchbox"
                    if why == "replaced" else ""))
        for rel in p.removes:
            lines.append("  would remove {}".format(rel))
        if p.backups:
            lines.append("  would first keep a copy of {} (changed on the drive) in {}".format(
                sync._short(p.backups), os.path.join(sync.data_dir(), "backups")))
    else:
        replaced = [rel for rel, _, why in p.writes if why == "replaced"]
        if replaced:
            lines.append("  replaced {} that {} on the drive but not put there by lunchbox "
                         "sync{}".format(
                             ", ".join(replaced[:5]) + (" and {} more".format(len(replaced) - 5)
                                                        if len(replaced) > 5 else ""),
                             "was" if len(replaced) == 1 else "were",
                             "" if len(replaced) < 3 else " (an earlier copy by hand?)"))
        if p.backup_dir:
            lines.append("  kept a copy of the drive's {} (changed there) in {}".format(
                sync._short(p.backups), p.backup_dir))
    for rel in p.kept:
        lines.append("  left alone: {} (no longer shipped, but changed on the drive)".format(rel))
    for rel in p.shadowed:
        lines.append("  {} {} (CircuitPython would import it instead of its .mpy)".format(
            "would remove" if dry_run else "removed", rel))
    if p.libs_recorded:
        lines.append("  recorded this machine's library versions in the manifest")
    if not p.changes:
        lines.append("{}up to date: {} files unchanged, nothing {}".format(
            "" if not dry_run else "already ", len(p.unchanged),
            "to copy" if dry_run else "copied"))
        return lines
    verb = "would write" if dry_run else "wrote"
    lines.append("{} {} file{} ({} KiB), {} {}, {} unchanged".format(
        verb, len(p.writes), "" if len(p.writes) == 1 else "s",
        (p.bytes_to_write() + 1023) // 1024, "would remove" if dry_run else "removed",
        len(p.removes), len(p.unchanged)))
    return lines


def sync_once(drive, profile_name=None, dry_run=False, out=None, err=None,
              root=fileset.REPO_ROOT, hook=None, mpy_cross=None, py=False):
    out = out or sys.stdout
    err = err or sys.stderr
    fetching = Bar("mpy-cross download", err)
    try:
        boot, profile, files, meta, warnings, line = prepare(
            drive, profile_name, root, mpy_cross, py, progress=fetching)
    finally:
        fetching.close()
    for w in warnings:
        err.write("warning: {}\n".format(w))
    out.write("{}: CircuitPython {} on {}, profile {}\n".format(
        drive.describe(), boot.version_text, boot.board_id or boot.board_name, profile["id"]))
    out.write(line + "\n")
    bar = Bar("sync", err)
    try:
        p = sync.sync(drive.path, files, meta, dry_run=dry_run, progress=bar, hook=hook)
    finally:
        bar.close()
    for line in summary(p, dry_run):
        out.write(line + "\n")
    return p


def micropython_wanted(args, roots=None, comports=None):
    """Whether this sync goes to a MicroPython board: --port, a MicroPython profile, or no
    CIRCUITPY drive but a MicroPython board attached."""
    if getattr(args, "port", None):
        return True
    if args.drive:
        return False
    if args.profile:
        try:
            profile = profiles.load_profile(args.profile, check=False)
        except LunchboxError:
            return False  # the CircuitPython path says what is wrong with it
        return profiles.runtime(profile) == profiles.MICROPYTHON
    if drives.find_circuitpy(roots):
        return False
    from . import ports

    try:
        return bool(ports.micropython_ports(ports.list_ports(comports)))
    except Exception:  # no serial backend: the drive path says "no CIRCUITPY drive"
        return False


def run(args):
    if micropython_wanted(args):
        from . import mpsync

        if args.watch or args.mpy_cross:
            raise LunchboxError("--{} is for a CircuitPython drive".format(
                "watch" if args.watch else "mpy-cross"),
                hint="leave it out: a MicroPython board gets MicroPython's .mpy files")
        mpsync.run_sync(args.port, args.profile, args.dry_run, py=args.py)
        return 0
    ask = ask_drive if interactive() else None
    drive = find_drive(args.drive, ask=ask)
    if not args.watch:
        sync_once(drive, args.profile, args.dry_run, mpy_cross=args.mpy_cross,
                  py=args.py)
        return 0
    profile_path = profiles.profile_path(args.profile) if args.profile else None

    def once():
        try:
            sync_once(drive, args.profile, args.dry_run, mpy_cross=args.mpy_cross,
                      py=args.py)
        except LunchboxError as e:  # keep watching: the board may be resetting
            sys.stderr.write("lunchbox sync: {}\n".format(e))
            if e.hint:
                sys.stderr.write("  fix: {}\n".format(e.hint))
            sys.stderr.write("  (--watch tries again in a few seconds)\n")
            return False
        return True

    sys.stderr.write("watching {} for changes (Ctrl-C to stop)\n".format(fileset.REPO_ROOT))
    sync.watch(lambda: fileset.snapshot(fileset.watched_paths(profile_path=profile_path)), once)
    return 0

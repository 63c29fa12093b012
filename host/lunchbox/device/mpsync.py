"""`lunchbox sync` for a MicroPython board: the file set (mpfiles.board_files, modules as .mpy)
copied over the REPL, only what differs.

- Compared by SHA-256 computed on the board; only differing files are sent.
- Each file is written aside (X.lbtmp) and renamed over X: a cut cable leaves the old file or
  the new one, never half of one. settings.toml goes next to last, main.py last, so a board
  cut mid-sync never starts a new main.py over old modules.
- The board keeps a manifest (/.lunchbox-manifest.json) of what sync put there: files the
  user put on the board are never removed; one that sync is about to replace, not written by
  it, is first copied to the host (<user data folder>/backups/). Before the first write the
  manifest is rewritten with the files about to change (``pending``), so a cut sync shows as
  unfinished and the next one knows those files are its own.
- The app is stopped for the copy (Ctrl-C, soft reset in the raw REPL) and started again.
"""

import os
import time

from .. import __version__
from ..errors import LunchboxError
from . import mpboard, sync

FORMAT = 1
ORDER_LAST = ("settings.toml", "main.py")  # written last, in this order
BLOCK = 4096  # littlefs's block on the Pico
SPARE_BLOCKS = 4  # littlefs's own metadata as files come and go


class Plan:
    def __init__(self):
        self.writes = []  # [(rel, data, why)]: why "new", "changed" or "replaced" (not ours)
        self.removes = []  # [rel] ours, no longer shipped (or a .py a shipped .mpy hides)
        self.backups = []  # [rel] not ours: copied to the host before they change
        self.kept = []  # [rel] no longer shipped but changed on the board: left alone
        self.unchanged = []
        self.temporaries = []  # [path] left by a cut sync
        self.shadowed = []  # [rel] a .py beside a shipped .mpy (MicroPython imports the .py)
        self.need = 0  # bytes of storage the writes need beyond what they free
        self.manifest_only = False  # no file to change, only the manifest to finish

    @property
    def changes(self):
        return bool(self.writes or self.removes)

    def bytes_to_write(self):
        return sum(len(d) for _, d, _ in self.writes)


def _order(rel):
    return (ORDER_LAST.index(rel) + 1 if rel in ORDER_LAST else 0, rel)


def _blocks(n):
    return (n + BLOCK - 1) // BLOCK if n else 0


def _digests(manifest, key):
    table = (manifest or {}).get(key)
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, str)
            and _safe(k)}


def _safe(rel):
    try:
        sync.check_rel(rel)
    except LunchboxError:
        return False
    return True


def plan(board, files, manifest):
    """What to write, remove and keep, from the board's listing and its hashes."""
    p = Plan()
    listing = {path: size for path, size in board.walk(("/",)) if not path.endswith("/")}
    p.temporaries = sorted(path for path in listing if path.endswith(mpboard.TMP_SUFFIX))
    ours = _digests(manifest, "files")
    pending = _digests(manifest, "pending")
    shadows = {}
    for rel in files:
        if rel.endswith(".mpy"):
            py = rel[:-4] + ".py"
            if py not in files and "/" + py in listing:
                shadows[py] = True
    wanted = sorted(set(files) | set(ours) | set(pending) | set(shadows))
    present = [rel for rel in wanted if "/" + rel in listing]
    on_board = {rel[1:]: h for rel, h in board.hashes(["/" + r for r in present]).items()}

    def mine(rel, h):
        return h is not None and h[:16] in (ours.get(rel, "")[:16], pending.get(rel, "")[:16])

    for rel in sorted(files, key=_order):
        data = files[rel]
        h = on_board.get(rel)
        if h == sync.sha256(data):
            p.unchanged.append(rel)
            continue
        if h is None:
            why = "new"
        elif mine(rel, h):
            why = "changed"
        else:
            why = "replaced"
            p.backups.append(rel)
        p.writes.append((rel, data, why))
        p.need += _blocks(len(data)) * BLOCK - (_blocks(listing.get("/" + rel, 0)) * BLOCK)
    for rel in sorted(set(ours) | set(pending) | set(shadows)):
        if rel in files or rel not in on_board or on_board[rel] is None:
            continue
        if mine(rel, on_board[rel]):
            p.removes.append(rel)
        elif rel in shadows:
            p.backups.append(rel)
            p.removes.append(rel)
        else:
            p.kept.append(rel)
        if rel in shadows:
            p.shadowed.append(rel)
    if p.writes:  # one file at a time is written aside while its old copy is still there
        p.need += max(_blocks(len(d)) for _, d, _ in p.writes) * BLOCK
    return p


def _manifest_bytes(files, meta, pending=None):
    import json

    doc = {k: v for k, v in (meta or {}).items() if v is not None}
    doc.update({"format": FORMAT, "files": files, "runtime": "micropython",
                "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    if pending:
        doc["pending"] = pending
    return (json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n").encode()


def back_up(board, rels, label, base=None):
    """Copy the board's ``rels`` to a new dated folder on the host; returns its path."""
    return sync.keep_copies(
        rels, lambda rel: board.read("/" + rel, "keeping a copy of {}".format(rel)), label,
        "the board's {}".format(", ".join(rels[:3])), base)


def apply(board, files, p, manifest, meta, label, progress=None):
    """Carry out ``p`` on ``board``. Returns the backup folder or None."""
    ours = _digests(manifest, "files")
    backup_dir = back_up(board, p.backups, label) if p.backups else None
    for path in p.temporaries:
        board.remove(path)
    done = []
    entries = {rel: sync.digest(data) for rel, data in files.items()}
    if not p.changes:
        if (manifest or {}).get("pending") or ours != entries:
            # a cut sync whose files all got there: only its manifest is left to finish
            board.write("/" + mpboard.MANIFEST, _manifest_bytes(entries, meta))
            p.manifest_only = True
        return backup_dir
    pending = {rel: sync.digest(data) for rel, data, _ in p.writes}
    pending.update({rel: "" for rel in p.removes})
    board.write("/" + mpboard.MANIFEST, _manifest_bytes(ours, meta, pending))
    total = p.bytes_to_write()
    sent = 0
    try:
        for rel, data, _ in p.writes:
            base = sent
            board.write("/" + rel, data,
                        progress=(lambda d, t, b=base, r=rel: progress(b + d, total, r))
                        if progress else None)
            sent += len(data)
            done.append(rel)
        for rel in p.removes:
            board.remove("/" + rel)
            done.append(rel)
    except mpboard.BoardError as e:
        left = [rel for rel, _, _ in p.writes if rel not in done] + [
            rel for rel in p.removes if rel not in done]
        raise mpboard.BoardError(
            "{}; {} of {} changes made, not made: {}".format(
                e, len(done), len(done) + len(left), sync._short(left)),
            hint=e.hint) from None
    board.write("/" + mpboard.MANIFEST, _manifest_bytes(entries, meta))
    folders = set()
    for rel in p.removes:
        parts = rel.split("/")[:-1]
        for i in range(len(parts), 0, -1):
            folders.add("/" + "/".join(parts[:i]))
    if folders:
        board.remove_empty_folders(folders)
    return backup_dir


def check_board(info, device, profile):
    """Refuse a board this profile's firmware cannot run on; warnings for the rest."""
    from ..hardware import profiles

    mpboard.check_micropython(info, device, "profile {}".format(profile["id"]))
    warnings = []
    if profiles.firmware_build(profile) == "micropython-pimoroni" and not info.picographics:
        raise mpboard.BoardError(
            "profile {} drives its display with Pimoroni's PicoGraphics, which the board's "
            "MicroPython {} does not have".format(profile["id"], info.release),
            hint="flash Pimoroni's MicroPython for the Pico (pico v1.23.0-1 or later, from "
                 "github.com/pimoroni/pimoroni-pico/releases): lunchbox flash --profile {} "
                 "--uf2 FILE".format(profile["id"]))
    if info.mpy is not None and info.mpy != mpboard.MPY_VERSION:
        warnings.append("mpy")
    return warnings


def sync_board(board, profile, root=None, out=None, err=None, dry_run=False, py=False,
               extra=None):
    """The whole sync onto an open ``board``: returns the Plan. ``extra`` (board path ->
    bytes) goes over the built file set (a test's own main.py)."""
    import sys

    from ..progress import Bar
    from . import fileset, mpfiles

    out = out or sys.stdout
    err = err or sys.stderr
    root = root or fileset.REPO_ROOT
    info = board.stop_app()
    flags = check_board(info, board.device, profile)
    mpy = not py
    line = "modules ship as .mpy (MicroPython's mpy-cross, mpy {}.{})".format(
        *mpboard.MPY_VERSION)
    if "mpy" in flags:
        mpy = False
        err.write("warning: shipping .py, not .mpy: the board's MicroPython {} loads mpy "
                  "{}.{}, the pinned mpy-cross makes {}.{} (the board then compiles each "
                  "module as it imports it, which needs more free heap; fix: flash MicroPython "
                  "{})\n".format(info.release, *(info.mpy + mpboard.MPY_VERSION +
                                                 (mpboard.TESTED,))))
        line = "modules ship as .py"
    elif py:
        line = "modules ship as .py (--py)"
    manifest = board.manifest()
    if manifest == {}:
        err.write("warning: the board's {} is unreadable; files not listed are taken as "
                  "yours\n".format(mpboard.MANIFEST))
    existing = board.read("/" + fileset.SETTINGS)
    settings = fileset.merge_settings(existing or b"",
                                      _rendered(profile))
    files = mpfiles.board_files(profile, mpy=mpy, root=root, settings=settings, files=extra)
    meta = {"firmware_version": fileset.firmware_version(root), "profile": profile["id"],
            "tool": "lunchbox " + __version__}
    out.write("{}: {}, profile {}\n".format(board.device, info.describe(), profile["id"]))
    out.write(line + "\n")
    p = plan(board, files, manifest)
    if info.free is not None and p.need > info.free - SPARE_BLOCKS * BLOCK:
        raise mpboard.BoardError(
            "the board's storage is too full: this sync needs {} KiB, {} KiB are free; "
            "nothing was written".format((p.need + 1023) // 1024, max(0, info.free) // 1024),
            hint="remove files of yours from the board (mpremote fs ls, mpremote fs rm), "
                 "then sync again")
    backup_dir = None
    if not dry_run:
        bar = Bar("sync", err)
        try:
            backup_dir = apply(board, files, p, manifest, meta, label=info.uid or "board",
                               progress=bar)
        finally:
            bar.close()
    for line in summary(p, dry_run, backup_dir):
        out.write(line + "\n")
    return p


def _rendered(profile):
    from ..hardware import profiles

    return profiles.render_settings(profile)


def summary(p, dry_run=False, backup_dir=None):
    lines = []
    verb = "would " if dry_run else ""
    if dry_run:
        for rel, data, why in p.writes:
            lines.append("  would write {} ({} bytes, {})".format(rel, len(data), why))
        for rel in p.removes:
            lines.append("  would remove {}".format(rel))
    replaced = [rel for rel, _, why in p.writes if why == "replaced"]
    if replaced and not dry_run:
        lines.append("  replaced {}: on the board but not put there by lunchbox sync".format(
            sync._short(replaced)))
    if p.backups:
        lines.append("  {}kept a copy of the board's {} in {}".format(
            "would first " if dry_run else "", sync._short(p.backups),
            backup_dir or os.path.join(sync.data_dir(), "backups")))
    for rel in p.shadowed:
        lines.append("  {}removed {} (MicroPython would import it instead of its .mpy)".format(
            verb, rel))
    for rel in p.kept:
        lines.append("  left alone: {} (no longer shipped, but changed on the board)".format(
            rel))
    if not p.changes:
        lines.append("up to date: {} files unchanged, nothing {}{}".format(
            len(p.unchanged), "to copy" if dry_run else "copied",
            " (the manifest of a sync that was cut is finished)" if p.manifest_only else ""))
        return lines
    lines.append("{} {} file{} ({} KiB), {} {}, {} unchanged".format(
        "would write" if dry_run else "wrote", len(p.writes),
        "" if len(p.writes) == 1 else "s", (p.bytes_to_write() + 1023) // 1024,
        "would remove" if dry_run else "removed", len(p.removes), len(p.unchanged)))
    return lines


# ---- choosing the board and the profile (the command) -----------------------------------

def find_port(port=None, comports=None, what="sync"):
    """The MicroPython board's port: ``port``, else the one attached (by its USB ids)."""
    from . import ports

    if port:
        return port
    found = ports.micropython_ports(ports.list_ports(comports))
    if not found:
        raise mpboard.BoardError(
            "no MicroPython board found",
            hint="plug the board in with a data USB cable, or name its port with --port PORT "
                 "(lunchbox doctor lists the ports)")
    if len(found) > 1:
        raise mpboard.BoardError(
            "{} MicroPython boards are attached: {}".format(
                len(found), ", ".join(p.device for p in found)),
            hint="name one with --port PORT")
    return found[0].device


def choose_profile(name, manifest):
    """--profile, else the one the board was synced with (its manifest)."""
    from ..hardware import profiles

    if name:
        return profiles.load_profile(name)
    on_board = (manifest or {}).get("profile")
    if isinstance(on_board, str) and on_board in profiles.list_profiles():
        return profiles.load_profile(on_board)
    fits = [pid for pid in profiles.list_profiles() if _runtime_of(pid) == "micropython"]
    raise LunchboxError(
        "which hardware profile? The board has none yet" if not on_board else
        "the board was synced with profile {!r}, which this checkout does not have".format(
            str(on_board)[:60]),
        hint="name it with --profile: {}".format(", ".join(fits)))


def _runtime_of(pid):
    from ..hardware import profiles

    try:
        return profiles.runtime(profiles.load_profile(pid, check=False))
    except LunchboxError:
        return None


def run_sync(port=None, profile_name=None, dry_run=False, py=False, comports=None, out=None,
             err=None, open_board=None, extra=None, root=None):
    """`lunchbox sync` for a MicroPython board."""
    from ..hardware import profiles

    device = find_port(port, comports)
    if profile_name:
        profile = profiles.load_profile(profile_name)
        if profiles.runtime(profile) != profiles.MICROPYTHON:
            raise LunchboxError(
                "profile {} is for CircuitPython; {} is a MicroPython port".format(
                    profile["id"], device),
                hint="use a MicroPython profile ({}), or flash CircuitPython and sync over "
                     "its CIRCUITPY drive".format(", ".join(
                         p for p in profiles.list_profiles()
                         if _runtime_of(p) == "micropython")))
    with (open_board or mpboard.Board)(device) as board:
        if not profile_name:
            board.stop_app()
        profile = profiles.load_profile(profile_name) if profile_name else choose_profile(
            None, board.manifest())
        return sync_board(board, profile, root=root, out=out, err=err, dry_run=dry_run,
                          py=py, extra=extra)

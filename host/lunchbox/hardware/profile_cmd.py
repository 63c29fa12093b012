"""`lunchbox profile list|show|validate|docs`: list, check and document hardware profiles."""

import sys

from ..errors import LunchboxError
from . import pins, profiles, wiring


def register(parser):
    sub = parser.add_subparsers(dest="profile_command", metavar="ACTION")
    sub.add_parser("list", help="the profiles in hardware/profiles/")
    p = sub.add_parser("show", help="a profile's pins and the settings.toml rendered from it")
    p.add_argument("profile", help="profile id (e.g. pico-display-pack) or path to a .toml file")
    p.add_argument("--settings", action="store_true",
                   help="print only settings.toml (to redirect into a file)")
    p = sub.add_parser("validate", help="check profiles (all, or the ones named)")
    p.add_argument("profile", nargs="*", help="profile ids or paths (default: all)")
    p = sub.add_parser("docs", help="regenerate hardware/README.md tables and wiring SVGs")
    p.add_argument("--check", action="store_true",
                   help="change nothing; fail when the committed docs are out of date")
    parser.set_defaults(_parser=parser)


# what each build is called where a user finds it
BUILDS = {
    "circuitpython": "CircuitPython",
    "micropython": "MicroPython (micropython.org's build for the board)",
    "micropython-pimoroni": "MicroPython, Pimoroni's build (with PicoGraphics)",
}


def _list(out):
    for pid in profiles.list_profiles():
        try:
            p = profiles.load_profile(pid)
            runtime, status = profiles.runtime(p), p["name"]
        except LunchboxError as e:
            runtime, status = "?", "INVALID: " + str(e).splitlines()[0]
        print("{:<22} {:<13} {}".format(pid, runtime, status), file=out)


def _show(args, out):
    p = profiles.load_profile(args.profile)
    settings = profiles.render_settings(p)
    if args.settings:
        out.write(settings)
        return
    board = pins.BOARDS[p["board"]]["name"]
    print("{} ({})".format(p["id"], p["name"]), file=out)
    print("board: {} [{}], chip {}".format(board, p["board"], p["chip"]), file=out)
    print("runtime: {}".format(BUILDS[profiles.firmware_build(p)]), file=out)
    print("", file=out)
    print(wiring.wiring_table(p), file=out)
    print("", file=out)
    print("settings.toml:", file=out)
    out.write(settings)


def _validate(args, out):
    names = args.profile or profiles.list_profiles()
    bad = 0
    for name in names:
        p = profiles.load_profile(name, check=False)
        problems = profiles.validate(p)
        if problems:
            bad += 1
            print("{}: {} problem{}".format(p["id"], len(problems),
                                            "" if len(problems) == 1 else "s"), file=out)
            for m in problems:
                print("  - " + m, file=out)
        else:
            print("{}: ok".format(p["id"]), file=out)
    if bad:
        raise LunchboxError("{} of {} profiles have problems".format(bad, len(names)),
                            hint="fix the pins the messages name (docs/design.md shows the rules)")


def _docs(args, out):
    if args.check:
        stale = wiring.stale_files()
        if stale:
            raise LunchboxError(
                "the hardware docs are out of date: " + ", ".join(
                    str(p.relative_to(wiring.HARDWARE_DIR.parent)) for p in stale),
                hint="run `lunchbox profile docs` and commit the result")
        print("hardware docs are up to date", file=out)
        return
    changed = wiring.write_docs()
    for path in changed:
        print("wrote " + str(path.relative_to(wiring.HARDWARE_DIR.parent)), file=out)
    if not changed:
        print("hardware docs are up to date", file=out)


def run(args, out=None):
    out = out or sys.stdout
    action = getattr(args, "profile_command", None)
    if action == "list":
        _list(out)
    elif action == "show":
        _show(args, out)
    elif action == "validate":
        _validate(args, out)
    elif action == "docs":
        _docs(args, out)
    else:
        args._parser.print_help(out)
    return 0

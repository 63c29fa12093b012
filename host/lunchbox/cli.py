"""`lunchbox`: a table of subcommands, each a module with ``register(parser)`` and ``run(args)``.

Commands stay thin: their logic lives in tested modules. Errors are converted to LunchboxError
once per layer and printed once, here.
"""

import argparse
import difflib
import errno
import importlib
import os
import sys

from . import __version__
from .argcheck import not_utf8, plug_closed_streams, utf8
from .errors import LunchboxError, UsageError, printable, shown

# (name, module, one-line help). One entry per command; the module does the rest.
COMMANDS = (
    ("flash", "lunchbox.device.flash",
     "install CircuitPython or MicroPython on the Pico through its UF2 bootloader"),
    ("sync", "lunchbox.device.sync_command",
     "copy the firmware and settings onto the board (CIRCUITPY or MicroPython)"),
    ("doctor", "lunchbox.device.doctor", "show what is attached and how to fix each problem found"),
    ("profile", "lunchbox.hardware.profile_cmd", "list, check and document hardware profiles"),
    ("sim", "lunchbox.sim", "run the firmware in a desktop simulator"),
    ("pull", "lunchbox.records.pull",
     "copy finished games off the Lunchbox into your games database"),
    ("history", "lunchbox.records.history",
     "list the pulled games: date, game, players, winner, score"),
    ("replay", "lunchbox.records.replay_cmd", "step through a pulled game, action by action"),
    ("stats", "lunchbox.records.stats",
     "win rates, dice fairness and scores over time (--plot: PNGs)"),
    ("export", "lunchbox.records.export",
     "write the pulled games as CSV, JSON or a BG Stats import"),
    ("push", "lunchbox.records.push", "set the board's player names, brightness, LEDs and clock"),
)
# A contributor's checks: they run as any command does, but `lunchbox --help` is for the
# people who own a box, so they are not listed there (docs/design.md, "Test lanes").
DEV_COMMANDS = (
    ("portability", "lunchbox.portability", "check portable code against the Pico's Python"),
)


class Parser(argparse.ArgumentParser):
    """argparse, with its errors as the tool's other errors: one line and a fix (its usage
    text is what --help prints)."""

    def error(self, message):
        self.exit(2, "{}: {}\n  fix: {} --help\n".format(self.prog, shown(message), self.prog))


def build_parser():
    parser = Parser(
        prog="lunchbox",
        description="Flash, sync, inspect and simulate a Lunchbox "
                    "(Raspberry Pi Pico game companion).",
    )
    parser.add_argument("--version", action="version", version="lunchbox " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for listed, commands in ((True, COMMANDS), (False, DEV_COMMANDS)):
        for name, module_name, help_text in commands:
            module = importlib.import_module(module_name)
            # argparse lists a subcommand in the help only when it is given help=
            kw = {"help": help_text} if listed else {}
            p = sub.add_parser(name, description=help_text, **kw)
            module.register(p)
            p.set_defaults(_run=module.run)
    return parser


def unknown_command(word):
    """The message for a command that is not one, with the nearest ones when a typo is
    likely (`lunchbox doctr`), or None when it is a command."""
    names = [c[0] for c in COMMANDS + DEV_COMMANDS]
    if word in names:
        return None
    close = difflib.get_close_matches(word, names, n=2, cutoff=0.6)
    text = "lunchbox: '{}' is not a command".format(printable(word))
    if close:
        text += "; did you mean {}?".format(" or ".join("'lunchbox {}'".format(c)
                                                      for c in close))
    return text + "\n  fix: lunchbox --help lists the commands: {}\n".format(
        ", ".join(c[0] for c in COMMANDS))


def quiet_stdout():
    """Point stdout at /dev/null, so Python's own flush at exit finds nothing to fail on."""
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


def out_of_room(e):
    """True for the OSError a print gets from a stdout that cannot take more (a full disk,
    /dev/full): no file name, a full or failing device. Commands convert errors from their
    own files themselves, naming the file."""
    return e.filename is None and e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO)


def flush_stdout():
    sys.stdout.flush()  # here, so a full disk is an OSError main reports, not one at exit


def main(argv=None):
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((t for t in argv if not t.startswith("-")), "")
    where = "lunchbox {}".format(command) if command and utf8(command) else "lunchbox"
    if plug_closed_streams():
        print("{}: standard output is closed; nothing was done\n  fix: run it with an "
              "output (a terminal, a file or a pipe)".format(where), file=sys.stderr)
        return 1
    bad = not_utf8(parser, argv)
    if bad:
        e = UsageError("{} is not valid UTF-8: {}".format(bad[0], ascii(bad[1])[1:]),
                       "give names and paths in UTF-8")
        print("{}: {}\n  fix: {}".format(where, e, e.hint), file=sys.stderr)
        return e.exit_code
    if command and not command.startswith("-"):
        wrong = unknown_command(command)
        if wrong:
            parser.exit(2, wrong)
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command they were given to, as its other mistakes are
        command = getattr(args, "command", None)
        prog = "lunchbox " + command if command else "lunchbox"
        parser.exit(2, "{}: unrecognized arguments: {}\n  fix: {} --help\n".format(
            prog, shown(" ".join(extra)), prog))
    if getattr(args, "_run", None) is None:
        parser.print_help()
        return 0
    try:
        rc = args._run(args) or 0
        flush_stdout()
        return rc
    except BrokenPipeError:  # `lunchbox history | head`: the reader has all it wants
        quiet_stdout()
        return 1
    except OSError as e:
        if not out_of_room(e):
            raise
        quiet_stdout()
        e = LunchboxError("cannot write the output: {}".format(e.strerror or e),
                          "free some space, or send the output elsewhere")
        print("lunchbox {}: {}\n  fix: {}".format(args.command, e, e.hint), file=sys.stderr)
        return e.exit_code
    except LunchboxError as e:  # printable: a message may quote what a device sent
        print("lunchbox {}: {}".format(args.command, printable(str(e), "\n\t")),
              file=sys.stderr)
        if e.hint:
            print("  fix: {}".format(printable(e.hint, "\n\t")), file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("lunchbox {}: interrupted".format(args.command), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

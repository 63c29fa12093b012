"""`lunchbox`: a table of subcommands, each a module with ``register(parser)`` and ``run(args)``.

Commands stay thin: their logic lives in tested modules. Errors are converted to LunchboxError
once per layer and printed once, here.
"""

import argparse
import errno
import importlib
import os
import sys

from . import __version__
from .errors import LunchboxError, UsageError, shown

# (name, module, one-line help). One line per command; the module does the rest.
COMMANDS = (
    ("portability", "lunchbox.portability", "check portable code against the Pico's Python"),
    ("flash", "lunchbox.flash", "install CircuitPython on the Pico through its UF2 bootloader"),
    ("sync", "lunchbox.sync_command", "copy the firmware, libraries and settings onto CIRCUITPY"),
    ("doctor", "lunchbox.doctor", "show what is attached and how to fix each problem found"),
    ("profile", "lunchbox.profile_cmd", "list, check and document hardware profiles"),
    ("sim", "lunchbox.sim", "run the firmware in a desktop simulator"),
    ("pull", "lunchbox.pull", "copy finished games off the Lunchbox into your games database"),
    ("history", "lunchbox.history", "list the pulled games: date, game, players, winner, score"),
    ("replay", "lunchbox.replay_cmd", "step through a pulled game, action by action"),
    ("stats", "lunchbox.stats", "win rates, dice fairness and scores over time (--plot: PNGs)"),
    ("export", "lunchbox.export", "write the pulled games as CSV, JSON or a BG Stats import"),
    ("push", "lunchbox.push", "set the board's player names, brightness, LEDs and clock"),
)
# the words for a positional argument in a message (options are named by their flag)
POSITIONAL = {"id": "the game ID", "paths": "a path", "profile_profile": "the profile"}


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
    for name, module_name, help_text in COMMANDS:
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.register(p)
        p.set_defaults(_run=module.run)
    return parser


def _utf8(text):
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:  # Python hands argv bytes that are not UTF-8 in as surrogates
        return False


def _option_of(parser, token):
    """The option ``token`` names (an abbreviation too) as ``(long name, takes a value)``."""
    flag = token.split("=", 1)[0]
    actions = parser._option_string_actions  # argparse keeps no public map of its options
    names = [o for o in actions if o == flag] or [o for o in actions
                                                  if o.startswith(flag) and flag.startswith("--")]
    if len(names) != 1:
        return None
    action = actions[names[0]]
    longest = max(action.option_strings, key=len)
    return longest, action.nargs != 0


def _subcommands(parser):
    """The parser's subcommands (name -> parser), or None when it has none."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return None


def _positional_words(parser, command):
    dests = [a.dest for a in parser._positionals._group_actions]
    words = [POSITIONAL.get(d) or POSITIONAL.get("{}_{}".format(command, d)) or d
             for d in dests]
    return words[0] if len(words) == 1 else "an argument"


def not_utf8(parser, argv):
    """The first argument that is not valid UTF-8, as ``(words for it, its bytes)``, or None.
    Looked at before argparse, whose own messages would print the bytes as surrogates (and
    whose choices and numbers would be checked first)."""
    p, command, value_of = parser, "", None
    for token in argv:
        raw = None if _utf8(token) else token.encode("utf-8", "surrogateescape")
        if value_of is not None:  # the value of the option before it
            if raw is not None:
                return value_of, raw
            value_of = None
            continue
        if token.startswith("-") and token != "-":
            found = _option_of(p, token)
            if raw is not None:
                return (found[0] if found else "an option"), raw.split(b"=", 1)[-1]
            if found and found[1] and "=" not in token:
                value_of = found[0]
            continue
        subs = _subcommands(p)
        if subs is not None:
            if raw is not None:
                return "the command", raw
            if token not in subs:
                return None  # argparse says so
            p, command = subs[token], command or token
            continue
        if raw is not None:
            return _positional_words(p, command), raw
    return None


def plug_closed_streams():
    """Fill a closed stdin, stdout or stderr with the null device, so a file opened later (the
    database, an export) cannot take its number and receive what is printed. True when stdout
    was closed (then there is nowhere to give the output)."""
    closed = sys.stdout is None
    for fd, flags in ((0, os.O_RDONLY), (1, os.O_WRONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            closed = closed or fd == 1
            os.open(os.devnull, flags)  # the lowest free number: this one
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
    return closed


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
    where = "lunchbox {}".format(command) if command and _utf8(command) else "lunchbox"
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
    args = parser.parse_args(argv)
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
    except LunchboxError as e:
        print("lunchbox {}: {}".format(args.command, e), file=sys.stderr)
        if e.hint:
            print("  fix: {}".format(e.hint), file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("lunchbox {}: interrupted".format(args.command), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

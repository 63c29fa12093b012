"""`lunchbox`: a table of subcommands, each a module with ``register(parser)`` and ``run(args)``.

Commands stay thin: their logic lives in tested modules. Errors are converted to LunchboxError
once per layer and printed once, here.
"""

import argparse
import importlib
import sys

from . import __version__
from .errors import LunchboxError

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


def build_parser():
    parser = argparse.ArgumentParser(
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


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "_run", None) is None:
        parser.print_help()
        return 0
    try:
        return args._run(args) or 0
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

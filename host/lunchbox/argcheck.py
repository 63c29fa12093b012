"""The command line before argparse reads it: arguments that are not UTF-8 (named as the user
typed them, with their bytes), and standard streams the shell closed."""

import argparse
import os
import sys

# the words for a positional argument in a message (options are named by their flag)
POSITIONAL = {"id": "the game ID", "paths": "a path", "profile_profile": "the profile"}


def utf8(text):
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
        raw = None if utf8(token) else token.encode("utf-8", "surrogateescape")
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

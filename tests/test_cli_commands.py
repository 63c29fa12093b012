"""`lunchbox` itself (host/lunchbox/cli.py): the help lists what a box's owner uses, a
contributor's checks still run, and a mistyped command is answered with the nearest ones."""

import subprocess
import sys

import pytest

from lunchbox import cli


def run(*argv):
    """The real command in a process of its own, as a person types it."""
    return subprocess.run([sys.executable, "-m", "lunchbox", *argv], capture_output=True,
                          text=True, timeout=60)


def test_the_help_lists_the_owners_commands_not_the_contributors_checks():
    proc = run("--help")
    assert proc.returncode == 0
    # a command's row: four spaces and its name (a help text wrapped onto the next row is
    # indented further)
    listed = [line.split()[0] for line in proc.stdout.splitlines()
              if line.startswith("    ") and line[4:5].strip()]
    assert listed == [c[0] for c in cli.COMMANDS]
    assert "portability" not in proc.stdout
    assert listed[0] == "flash"  # the first thing a new box needs


def test_a_contributors_check_still_runs(tmp_path):
    good = tmp_path / "good.py"
    good.write_text("x = sorted([2, 1])\n")
    bad = tmp_path / "bad.py"
    bad.write_text("from dataclasses import dataclass\n")
    assert run("portability", str(good)).returncode == 0
    proc = run("portability", str(bad))
    assert proc.returncode != 0 and "dataclass" in proc.stdout + proc.stderr
    assert "portable code" in run("portability", "--help").stdout


@pytest.mark.parametrize("typed, meant", [
    ("doctr", "doctor"), ("sycn", "sync"), ("stat", "stats"), ("histroy", "history"),
    ("portabilty", "portability"), ("flahs", "flash"),
])
def test_a_mistyped_command_gets_the_nearest_one(typed, meant):
    proc = run(typed)
    assert proc.returncode == 2 and proc.stdout == ""
    first, fix = proc.stderr.splitlines()
    assert first.startswith("lunchbox: '{}' is not a command".format(typed))
    assert "did you mean 'lunchbox {}'?".format(meant) in first
    assert fix.startswith("  fix: lunchbox --help")
    # one message, not argparse's list of every choice after it
    assert "invalid choice" not in proc.stderr


def test_a_word_near_no_command_gets_the_list_without_a_guess():
    proc = run("xyzzy", "--all")
    assert proc.returncode == 2
    assert "did you mean" not in proc.stderr
    assert "'xyzzy' is not a command" in proc.stderr
    assert "flash, sync, doctor" in proc.stderr and "portability" not in proc.stderr


def test_a_command_and_its_options_are_not_taken_for_a_typo():
    assert cli.unknown_command("doctor") is None
    assert cli.unknown_command("portability") is None
    proc = run("profile", "list")
    assert proc.returncode == 0 and "not a command" not in proc.stderr

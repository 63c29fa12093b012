"""`make setup` says nothing when all is well: the project's own install line, as the Makefile
has it, run into a fresh virtual environment, prints no warning (setuptools' license
deprecation and its "Editable installation" note were printed at every setup)."""

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# pip's own word about an index folder this machine's pip configuration names but lacks: the
# machine's, not the project's
MACHINE = re.compile(r"^WARNING: Location '[^']*' is ignored: it is neither a file nor a "
                     r"directory\.$")


def setup_lines(venv):
    """The Makefile's recipe that makes the virtual environment at ``venv`` and installs the
    project (make -n prints it; -B as if nothing were installed yet), the project's own
    install with --no-deps: its dependencies are wheels that build nothing."""
    stamp = "{}/.installed".format(venv)
    # under `make test` this runs inside make: its MAKELEVEL would make -n say "Entering
    # directory" lines, which are not recipe lines
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    proc = subprocess.run(["make", "--no-print-directory", "-n", "-B", stamp,
                           "VENV={}".format(venv)], cwd=str(ROOT), env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    editable = [i for i, ln in enumerate(lines) if " -e " in ln and "pip install" in ln]
    assert len(editable) == 1, proc.stdout
    lines[editable[0]] += " --no-deps"
    return lines


def run_setup(lines):
    """Each line as make runs it: ``(exit code, every line printed)``."""
    said = []
    for line in lines:
        proc = subprocess.run(line, shell=True, cwd=str(ROOT), capture_output=True, text=True,
                              timeout=600)
        said += (proc.stdout + proc.stderr).splitlines()
        if proc.returncode:
            return proc.returncode, said
    return 0, said


# a fresh environment from PyPI: half a minute of one core, so with the long runs
@pytest.mark.soak
def test_the_setup_install_prints_nothing(tmp_path):
    venv = tmp_path / "venv"
    rc, said = run_setup(setup_lines(venv))
    assert rc == 0, "\n".join(said)
    said = [ln for ln in said if ln.strip() and not MACHINE.match(ln)]
    assert said == [], "\n".join(said)
    # and it is installed: the project imports from the new environment
    run = subprocess.run([str(venv / "bin" / "python"), "-c",
                          "import lunchbox.cli, shared_rules.games; print('ok')"],
                         cwd=str(tmp_path), capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "ok", run.stderr
    # the filter is what keeps setuptools' note out (so the check above can fail): the same
    # install again without it prints the note
    (line,) = [ln for ln in setup_lines(venv) if " -e " in ln]
    bare = re.sub(r'^PYTHONWARNINGS="[^"]*" ', "", line)
    assert bare != line
    rc, said = run_setup([bare + " --force-reinstall"])
    assert rc == 0, "\n".join(said)
    assert any("Editable installation" in ln for ln in said), "\n".join(said)

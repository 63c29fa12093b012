"""`lunchbox doctor` asks the box for its own figures over the data link (the CHECK request:
the figures of Settings > Check the box), against the real firmware in the simulator over a
real pseudo-terminal; a box that cannot be asked is one line, never a traceback."""

import re

from test_pull_sim import RunningSim

from lunchbox import cli
from lunchbox.device import boxcheck
from lunchbox.device.doctor import Report
from lunchbox.records import link as hostlink
from lunchbox.records import linkproto as lp


def test_doctor_shows_the_box_check_of_the_simulated_board(nvm, capsys):
    with RunningSim(nvm) as rs:
        report = Report()
        figures = boxcheck.look(report, rs.port)
    assert figures["firmware"] == "0.1.0" and figures["profile"] == "pico-display-pack"
    assert figures["battery"] in ("none", "usb", "on") and figures["runtime_s"].isdigit()
    line = report.seen[-1]
    assert line.startswith("the box says (Settings > Check the box): firmware 0.1.0 "
                           "(pico-display-pack)"), line
    # the time running is the board's clock (the simulator's: the computer's since its start)
    assert re.search(r", running \d+:\d\d:\d\d, on USB power$", line), line
    assert report.problems == []


def test_lunchbox_doctor_sim_over_the_link_file(nvm, capsys, monkeypatch, tmp_path):
    link_file = tmp_path / "sim-link"
    monkeypatch.setenv(hostlink.SIM_LINK_ENV, str(link_file))
    with RunningSim(nvm) as rs:
        hostlink.announce_sim_link(rs.port)
        assert cli.main(["doctor", "--sim"]) == 0
    out = capsys.readouterr().out
    assert "simulator: data link" in out and "Check the box): firmware 0.1.0" in out
    assert "no problems found" in out


def test_doctor_sim_with_no_simulator_is_one_problem(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(hostlink.SIM_LINK_ENV, str(tmp_path / "none"))
    assert cli.main(["doctor", "--sim"]) == 1
    out = capsys.readouterr().out
    assert "no simulator is running" in out and "Traceback" not in out


class _Old:
    """A box whose firmware predates CHECK: it answers ERROR 'unknown request' (its own
    words, as app/link.py answers a type it does not know)."""

    def __init__(self, error):
        self.error = error
        self.closed = False

    def hello(self):
        return None

    def check(self):
        raise self.error

    def close(self):
        self.closed = True


def test_an_older_firmware_is_a_note_to_sync():
    report = Report()
    old = _Old(lp.parse_error(bytes([lp.E_TYPE]) + b"unknown request 9"))
    assert boxcheck.look(report, "/dev/x", lambda device: old) is None
    assert old.closed and report.notes[0][1] == "lunchbox sync"
    assert "older than its box check" in report.notes[0][0]


def test_a_port_that_will_not_open_is_one_line(tmp_path):
    report = Report()
    assert boxcheck.look(report, str(tmp_path / "no-such-port")) is None
    assert report.seen[0].startswith("box check on ") and report.problems == []


def test_the_words_of_each_power_reading():
    base = {"firmware": "0.1.0", "heap_free": "63232", "runtime_s": "3725"}
    assert boxcheck.words(dict(base, battery="usb")) == (
        "firmware 0.1.0, 61.8 KB of heap free, running 1:02:05, on USB power")
    assert boxcheck.words(dict(base, battery="on", battery_mv="3920", battery_pct="75")).endswith(
        "on its battery 3.92 V 75%")
    assert boxcheck.words(dict(base, battery="none")).endswith("reads no battery")


def test_a_check_answer_that_is_not_key_value_is_refused():
    import pytest

    with pytest.raises(lp.ProtocolError):
        lp.parse_check(b"firmware 0.1.0\n")
    with pytest.raises(lp.ProtocolError):
        lp.parse_check(b"\xff=1")
    assert lp.parse_check(b"a=1\nb=\n") == {"a": "1", "b": ""}

"""The Markdown in the repository points only at what is in it: every link and picture of
every .md file (the README, docs/, hardware/, the tests' and the firmware's notes) names a
file or folder that exists inside the repository, and no page sends a reader to the notes
kept beside it (../shared). The CircuitPython a user is told to get is the tested one, named
the same in README.md, hardware/README.md and `lunchbox flash --help`."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {"node_modules", ".venv", ".git", ".pytest_cache", ".ruff_cache", "build"}
# [text](target "title"), ![alt](target), and reference definitions "[id]: target"
INLINE = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")


def markdown_files():
    out = []
    for path in sorted(ROOT.rglob("*.md")):
        parts = set(path.relative_to(ROOT).parts[:-1])
        if parts & SKIP_DIRS or any(p.endswith(".egg-info") for p in parts):
            continue
        out.append(path)
    return out


def links(text):
    """Every link target in Markdown ``text`` (code blocks and code spans are not links)."""
    text = FENCE.sub("", text)
    text = CODE.sub("", text)
    return INLINE.findall(text) + REFERENCE.findall(text)


def broken(md, target):
    """Why a link of ``md`` is wrong, or None."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
        return None  # a web address, mailto:, or a place on the same page
    path = target.split("#", 1)[0].split("?", 1)[0]
    resolved = (md.parent / path).resolve()
    try:
        resolved.relative_to(ROOT)
    except ValueError:
        return "points outside the repository ({})".format(resolved)
    if not resolved.exists():
        return "no such file ({})".format(resolved.relative_to(ROOT))
    return None


def test_the_link_finder_finds_links():
    text = ("See [a](docs/a.md#x), ![pic](img/b.png \"t\"), [c][1], `[not](code.md)`\n"
            "```\n[nor](this.md)\n```\n[1]: ../c.md\n")
    assert links(text) == ["docs/a.md#x", "img/b.png", "../c.md"]


def test_every_markdown_file_is_checked():
    names = {p.relative_to(ROOT).as_posix() for p in markdown_files()}
    assert {"README.md", "docs/design.md", "hardware/README.md", "tests/cp/README.md"} <= names


@pytest.mark.parametrize("md", markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_point_at_files_in_the_repository(md):
    text = md.read_text(encoding="utf-8")
    bad = ["{} -> {}".format(t, why) for t in links(text) for why in [broken(md, t)] if why]
    assert not bad, "{}:\n  ".format(md.relative_to(ROOT)) + "\n  ".join(bad)
    # the notes beside the repository are not the project's: nothing sends a reader there
    assert "../shared" not in text, "{} mentions ../shared".format(md.relative_to(ROOT))


def test_a_broken_link_and_one_out_of_the_repository_are_caught(tmp_path):
    md = ROOT / "docs" / "design.md"
    assert broken(md, "firmware.md#heap") is None
    assert broken(md, "../README.md") is None
    assert broken(md, "https://circuitpython.org/") is None
    assert "no such file" in broken(md, "../shared_rules/nothing.py")
    assert "outside the repository" in broken(md, "../../shared/ARCHITECTURE.md")


# --- the CircuitPython to get ------------------------------------------------------------------

def lane_version():
    """The CircuitPython the real-CircuitPython lane boots (tests/cplane.py's default): the
    one every figure comes from."""
    text = (ROOT / "tests" / "cplane.py").read_text()
    m = re.search(r'CP_VERSION = os\.environ\.get\("LUNCHBOX_CPLANE_CP", "([0-9.]+)"\)', text)
    assert m, "tests/cplane.py no longer says which CircuitPython the lane boots"
    return m.group(1)


def download_sentences(text):
    """The sentences that tell a reader which CircuitPython to download or flash."""
    text = FENCE.sub(lambda m: m.group(0).replace("\n", " "), text)
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z`*(])|\n\n", text)
    return [" ".join(s.split()) for s in sentences
            if re.search(r"circuitpython\.org|\.uf2|lunchbox flash", s)]


def flash_help():
    from lunchbox import cli

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sub.choices["flash"].format_help()


@pytest.mark.parametrize("page", ["README.md", "hardware/README.md"])
def test_the_pages_name_the_tested_circuitpython_to_get(page):
    tested = lane_version()
    text = (ROOT / page).read_text(encoding="utf-8")
    said = download_sentences(text)
    assert said, page
    assert any("CircuitPython {}".format(tested) in s for s in said), page
    for s in said:  # no other version is offered where a reader is told what to get
        others = set(re.findall(r"\b(\d+\.\d+\.\d+)\b", s)) - {tested}
        assert not others, "{}: {} ({})".format(page, sorted(others), s)
        assert not re.search(r"CircuitPython (\d+)(?: or \d+)?(?![.\d])", s), (page, s)


def test_flash_help_names_the_tested_circuitpython():
    """`lunchbox flash --help` names the same version as the pages (the flash helper's
    change: until it lands this fails, naming what the help says)."""
    tested = lane_version()
    text = " ".join(flash_help().split())
    assert re.search(r"CircuitPython\W{{0,3}}{}\b".format(re.escape(tested)), text), (
        "flash --help does not name CircuitPython {}, the version the lane tests:\n{}".format(
            tested, text))
    # where the help says which version is the tested one, or its default, it is that one
    for part in re.split(r"[.;()]\s", text):
        if re.search(r"\btested\b|\bdefault\b|\bpinned\b", part):
            others = set(re.findall(r"\b(\d+\.\d+\.\d+)\b", part)) - {tested}
            assert not others, "flash --help: {!r} names {}".format(part, sorted(others))

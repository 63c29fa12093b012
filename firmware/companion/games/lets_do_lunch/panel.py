"""The Let's Do Lunch side panel: whose turn (with their piece), the dice, a few lines of
words, and a footer: the match score (mono: the pieces in hand). Laid out from the display's
metrics beside the board, so it fits both the 240x135 colour and the 128x64 mono screens."""

import displayio
import terminalio

from companion.screen.text import fit, wrap
from companion.screen.textlabel import Label
from companion.screen.ui import text
from shared_rules.lets_do_lunch.rules import START

from .turn import dice_line

# what the screen waits for
IDLE = 0  # a human's OK to roll
ROLLING = 1
TYPING = 2
PLACING = 3
THINKING = 4  # the computer moves on a later tick
HOLD = 5  # words on screen until OK (the computer's move; a human's pass before it rolls)
ASK = 6  # strict table: was the last man announced?
ENDED = 7  # a game is over: OK keeps its record and starts the next one


class Panel:
    """Three labels (companion.screen.textlabel: one TileGrid a line): the name, the dice and the
    words as one block of lines, the footer in the small font."""

    def __init__(self, d, left, sheet, palette, cell, piece_tiles):
        self.d = d
        self.group = displayio.Group()
        self.cols = (d.width - left - d.pad) // d.char_w
        self.words = 2 if d.mono else 3  # lines of words under the name and the dice
        step = d.char_h + (1 if d.mono else 0)
        self.name = text(d, "", left + cell + 3, step // 2, d.ACCENT)  # after the piece, apart
        self.body = Label(terminalio.FONT, text="", color=d.FG, scale=d.scale,
                                line_spacing=step / d.char_h, anchor_point=(0, 0),
                                anchored_position=(left, step + (step - d.char_h) // 2))
        self.piece_tiles = piece_tiles
        self.piece = displayio.TileGrid(sheet, pixel_shader=palette, width=1, height=1,
                                        tile_width=cell, tile_height=cell, x=left,
                                        y=(step - cell) // 2)
        # the footer in the small font (the full figures are one press away)
        self.fcols = (d.width - left - d.pad) // 6
        top = (2 + self.words) * step
        self.foot = text(d, "", left, top + (d.height - top) // 2, d.FG, 1)  # not grey: read
        self.labels = [self.name, self.body, self.foot]
        for part in (self.name, self.body, self.piece, self.foot):
            self.group.append(part)
        self._text = [None, None, None]
        # where the labels go: beside the board, or across the screen for the match figures
        self._at = ((self.name.anchored_position, self.body.anchored_position),
                    ((d.pad, step // 2), (d.pad, min(self.body.anchored_position[1],
                                                     d.height - 4 * step))))
        self._wide = False
        self.wide_cols = d.cols

    def _place(self, wide):
        if wide != self._wide:
            self._wide = wide
            at = self._at[1 if wide else 0]
            self.name.anchored_position = at[0]
            self.body.anchored_position = at[1]
            self.foot.hidden = wide

    def show_page(self, title, lines):
        """A page of words across the screen (the board is hidden meanwhile)."""
        self._place(True)
        self.piece.hidden = True
        self._set(0, fit(title, self.wide_cols))
        self._set(1, "\n".join(fit(x, self.wide_cols) for x in lines) or " ")

    def _set(self, k, s):
        if self._text[k] != s:
            self.labels[k].text = s
            self._text[k] = s

    def show(self, who, seat, dice, words, foot):
        """who: a name, with the piece of ``seat`` (None: no piece); dice: a short line;
        words: wrapped onto the lines below; foot: the footer line."""
        self._place(False)
        self.piece.hidden = seat is None
        if seat is not None:
            self.piece[0, 0] = self.piece_tiles[seat]
        self._set(0, fit(who or "", self.cols - 2))
        lines = [fit(dice, self.cols)] + wrap(words, self.cols, self.words)
        self._set(1, "\n".join(lines).rstrip("\n") or " ")
        self._set(2, fit(foot, self.fcols))


def _words(p, prompt, note=None):
    note = p.note if note is None else note
    if not note:
        return prompt
    # "last man!" takes no full stop after it
    return note + (" " if note[-1] in ".!?" else ". ") + prompt


def content(p):
    """(name, seat for the piece, dice line, words, footer) for the PlayScreen ``p``."""
    who, seat, dice, words = _main(p)
    s = p.m.scores
    # in words: the match score (colour; mono at the end of a game: its 10 characters are
    # the turn clock's corner meanwhile); the pieces in hand are one press away
    foot = ""
    if p.mode == ENDED or not p.d.mono:
        foot = "Match {}:{}".format(s[0], s[1])
    return who, seat, dice, words, foot


def _main(p):
    m = p.m
    mode = p.mode
    seat = m.player
    if mode == ENDED and (p.game.ended is not None or p.game.is_terminal()):
        g = p.game
        if g.is_terminal():
            w = m.winner()
            return p.name(w), w, "{}:{}".format(m.scores[0], m.scores[1]), "wins the match"
        w, points, _board = g.ended
        return p.name(w), w, "+{} points".format(points), "wins game {}. OK".format(m.games)
    if mode == ASK:
        q = 1 - m.player
        return p.name(q), q, "last man?", ("> said it", "> forgot")[p.answer]
    if mode == HOLD:
        return p.name(p.held), p.held, p.dline, _words(p, "OK")
    if mode == ROLLING:
        f = p.frame  # changing faces, not the dice's generator: the roll itself stays seeded
        return p.name(seat), seat, dice_line((f % 3 + 1, f * 2 % 3 + 1, (f + 1) % 3 + 1)), "rolling"
    if mode == THINKING:
        return p.name(seat), seat, p.dline, "thinking" if p.frame == -1 else ""
    if mode == PLACING:
        return p.name(seat), seat, p.dline, _words(p, "pick, OK")
    note = p.note
    if m.announcement() is not None and not m.strict:
        note = "last man!"
    prompt = "OK: roll"
    if m.phase == START:
        prompt += " to start"
    if mode == TYPING:
        v = p.dice.values
        dice = " ".join(("[{}]" if k == p.dice.pos else "{}").format(v[k])
                        for k in range(3))
        return p.name(seat), seat, dice, _words(p, prompt.replace("OK: roll", "type dice"), note)
    return p.name(seat), seat, p.dline, _words(p, prompt, note)

"""Test doubles for the firmware tests: an in-memory save log with the Store API."""


class MemStore:
    """companion.core.store.Store's API, kept in memory (saves counted)."""

    def __init__(self, nvm=None):
        self.status = None
        self.game = None
        self.settings = None
        self.recs = []
        self.seq = 0
        self.saves = 0

    def load_game(self):
        return self.game

    def save_game(self, game_id, payload):
        if self.game == (game_id, bytes(payload)):
            return False
        self.game = (game_id, bytes(payload))
        self.saves += 1
        return True

    def clear_game(self):
        self.game = None

    def load_settings(self):
        return self.settings

    def save_settings(self, payload):
        self.settings = bytes(payload)

    def append_record(self, kind, payload):
        self.seq += 1
        self.recs.append((self.seq, kind, bytes(payload)))

    def records(self):
        return list(self.recs)

"""Bots that record every call the adapter makes, and answer from a script: the tests read
what the framework's interfaces were handed."""

from bots.base import Codemaster, Guesser

CALLS = []


class RecordingCodemaster(Codemaster):
    def __init__(self, clue="alpha", number=2, **kwargs):
        self.clue, self.number = clue, number
        CALLS.append(("cm_init", sorted(kwargs)))

    def set_game_state(self, words_on_board, key_grid):
        CALLS.append(("set_game_state", list(words_on_board), list(key_grid)))

    def get_clue(self):
        return self.clue, self.number


class ScriptedGuesser(Guesser):
    """Answers the first of ``order`` on the board (else ``order[0]``); ``keep`` is what
    keep_guessing says."""

    order = []
    keep = True

    def __init__(self, **kwargs):
        CALLS.append(("g_init", sorted(kwargs)))

    def set_board(self, words_on_board):
        CALLS.append(("set_board", list(words_on_board)))
        self.words = words_on_board

    def set_clue(self, clue, num_guesses):
        CALLS.append(("set_clue", clue, num_guesses))

    def keep_guessing(self):
        CALLS.append(("keep_guessing",))
        return self.keep

    def get_answer(self):
        CALLS.append(("get_answer",))
        return next((w for w in self.order if w in self.words), self.order[0])

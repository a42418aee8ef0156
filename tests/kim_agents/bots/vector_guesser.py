"""A GloVe guesser in the framework's call shapes: cards ranked by cosine to the clue,
``num`` guesses a clue (``keep_guessing`` while some are left)."""

import numpy as np

from bots.base import Guesser


class VectorGuesser(Guesser):
    def __init__(self, brown_ic=None, glove_vecs=None, word_vectors=None):
        self.glove_vecs = glove_vecs
        self.num = 0

    def set_board(self, words_on_board):
        self.words = words_on_board

    def set_clue(self, clue, num_guesses):
        self.clue, self.num = clue, num_guesses

    def keep_guessing(self):
        return self.num > 0

    def get_answer(self):
        clue = self.glove_vecs[self.clue]
        live = [w for w in self.words if not w.startswith("*")]
        vecs = np.stack([self.glove_vecs[w.lower()] for w in live])
        cos = vecs @ clue / (np.linalg.norm(vecs, axis=1) * np.linalg.norm(clue))
        self.num -= 1
        return live[int(np.argmax(cos))]

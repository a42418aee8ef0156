"""A GloVe codemaster in the framework's call shapes: ``glove_vecs[word]`` lookups, a clue word
list read from ``bots/clue_words.txt`` relative to the working directory, one card a clue."""

import numpy as np

from bots.base import Codemaster


def _unit(v):
    return v / (np.linalg.norm(v) or 1.0)


class VectorCodemaster(Codemaster):
    def __init__(self, brown_ic=None, glove_vecs=None, word_vectors=None):
        with open("bots/clue_words.txt") as infile:
            words = [line.strip() for line in infile if line.strip()]
        self.clues = [w for w in words if w in glove_vecs]
        self.matrix = np.stack([_unit(glove_vecs[w]) for w in self.clues])
        self.glove_vecs = glove_vecs

    def set_game_state(self, words_on_board, key_grid):
        self.words = words_on_board
        self.key = key_grid

    def get_clue(self):
        live = [(w.lower(), k) for w, k in zip(self.words, self.key) if not w.startswith("*")]
        ours = [w for w, k in live if k == "Red"]
        bad = [w for w, k in live if k != "Red"]
        board = {w for w, _ in live}
        sims = self.matrix @ np.stack([_unit(self.glove_vecs[w]) for w in ours + bad]).T
        target, worst = sims[:, :len(ours)], sims[:, len(ours):].max(axis=1)
        margin = target - worst[:, None]
        margin[[c in board for c in self.clues], :] = -np.inf
        row, col = np.unravel_index(int(np.argmax(margin)), margin.shape)
        return self.clues[row], 1

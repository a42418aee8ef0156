"""The two roles of Kim et al.'s framework, as their README states them (our own writing)."""

from abc import ABC, abstractmethod


class Codemaster(ABC):
    @abstractmethod
    def set_game_state(self, words_on_board, key_grid):
        """The 25 cards (covered ones as *Red*, *Blue*, *Civilian*, *Assassin*) and the key."""

    @abstractmethod
    def get_clue(self):
        """(clue word, number of cards it is meant for)."""


class Guesser(ABC):
    @abstractmethod
    def set_board(self, words_on_board):
        """The 25 cards, covered ones as tokens."""

    @abstractmethod
    def set_clue(self, clue, num_guesses):
        """The clue of this turn."""

    @abstractmethod
    def keep_guessing(self):
        """Asked after every correct guess."""

    @abstractmethod
    def get_answer(self):
        """A card still on the board."""

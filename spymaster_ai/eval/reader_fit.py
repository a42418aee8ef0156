"""Fitting the human reader to the human Duet data, and scoring it honestly on that same data.

Why here and not in the agents: fitting reads the human data (the evaluation layer's job);
the agents only load the fitted weights. Why cross-fitting: the shipped reader was fitted on
the validation split, so scoring it there would score it on games it has seen. When
``eval human`` meets the very data the shipped weights were fitted on (same fingerprint), it
scores every turn with a reader fitted on the *other* games only (:class:`CrossFittedReader`,
five folds of whole games); on any other data (the held-out test split) it uses the shipped
weights as they are.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from ..agents.human.features import feature_names
from ..agents.human.reader import ChoiceSet, HumanReader, ReaderParams, fit_conditional_logit, stop_features
from ..rules.cards import normalise_word
from .human_data import HumanDataset
from .human_join import game_groups

__all__ = [
    "FitSettings", "CrossFittedReader", "JudgedGuess", "build_choice_sets", "data_fingerprint", "fit_reader",
    "fit_stop_rule", "game_ids", "load_judged_guesses", "row_hashes", "seen_rows",
]


@dataclass(frozen=True)
class FitSettings:
    """``later``: weight of a clue's second and third guesses (0: first guesses only);
    ``intended``: weight of the clue task's intended targets; ``l2``: the penalty."""

    later: float = 0.0
    intended: float = 0.5
    l2: float = 1.0
    # where intended targets are read: "clue" (the clue task: among the giver's black and tan
    # cards only) or "board" (guess turns joined to their giver's turn: among every card then
    # visible, as the guesser saw them)
    intended_on: str = "clue"
    # the logit a phrase link of strength 1 adds (``phrase_link``), held rather than fitted
    # (None: fitted like every weight). Why: phrase clues are rare in the human data, so the
    # fitted weight is what a few dozen cases allow; see experiments/results/phrase_links.md.
    phrase_prior: Optional[float] = None

    def to_json(self) -> dict:
        out = {"later": self.later, "intended": self.intended, "l2": self.l2, "intended_on": self.intended_on}
        if self.phrase_prior is not None:
            out["phrase_prior"] = self.phrase_prior
        return out

    def fixed_weights(self, features: Sequence[str]) -> dict[int, float]:
        """Column -> held raw slope, for :func:`fit_conditional_logit`."""
        if self.phrase_prior is None or "phrase_link" not in features:
            return {}
        return {list(features).index("phrase_link"): float(self.phrase_prior)}


def data_fingerprint(dataset: HumanDataset) -> str:
    """sha256 over the guess and clue rows' content: which data a reader was fitted on."""
    h = hashlib.sha256()
    for g in dataset.guesses:
        h.update(repr((g.remaining, g.clue, g.guesses)).encode())
    for c in dataset.clues:
        h.update(repr((c.black, c.tan, c.targets, c.clue)).encode())
    return h.hexdigest()


def row_hashes(dataset: HumanDataset) -> list[str]:
    """A short hash per guess and clue row: which rows a reader was fitted on, so that
    ``eval human`` can tell data it has seen (all of it, or a ``--limit`` part) from new data."""
    rows = [repr((g.remaining, g.clue, g.guesses)) for g in dataset.guesses]
    rows += [repr((c.black, c.tan, c.targets, c.clue)) for c in dataset.clues]
    return sorted({hashlib.sha256(r.encode()).hexdigest()[:12] for r in rows})


def seen_rows(dataset: HumanDataset, params: ReaderParams) -> int:
    """How many of ``dataset``'s rows the reader ``params`` was fitted on."""
    fitted = set(params.provenance.get("rows_sha256_12", ()))
    return sum(1 for h in row_hashes(dataset) if h in fitted)


def game_ids(dataset: HumanDataset) -> tuple[np.ndarray, np.ndarray]:
    """One game id per guess row and per clue row, linked across the two tasks by the board."""
    sets = [g.remaining for g in dataset.guesses] + [c.black + c.tan + c.targets for c in dataset.clues]
    ids = game_groups(sets)
    return ids[: len(dataset.guesses)], ids[len(dataset.guesses):]


def extraction_reader(models: Sequence[str], loaded: Optional[dict] = None) -> HumanReader:
    """A reader that only computes features (its weights are zeros)."""
    models = tuple(models)
    n = len(feature_names(models))
    blank = ReaderParams(models, feature_names(models), np.zeros(n), np.ones(n), np.zeros(n))
    return HumanReader(blank, loaded)


def build_choice_sets(dataset: HumanDataset, reader: HumanReader, settings: FitSettings) -> tuple[list[ChoiceSet], int, dict[int, int]]:
    """(choice sets, how many come from the guess task, guess row -> its first-guess set).

    Guess task: each guess a person made, among the cards still visible then (the first of a
    clue weighs 1, later ones ``settings.later``). Clue task: each intended target among the
    giver's black and tan cards (weight ``settings.intended``, shared by a clue's targets).
    """
    guess_games, clue_games = game_ids(dataset)
    sets: list[ChoiceSet] = []
    first_of_row: dict[int, int] = {}
    for turn, game in zip(dataset.guesses, guess_games):
        if not turn.guesses or not reader.reads(turn.clue):
            continue
        visible = np.ones(len(turn.remaining), dtype=bool)
        for j, guess in enumerate(turn.guesses):
            if j:
                if settings.later <= 0:
                    break
                visible[turn.remaining.index(turn.guesses[j - 1])] = False
            x = reader.features(turn.remaining, [turn.clue], visible)[0]
            idx = np.flatnonzero(visible)
            chosen = int(np.searchsorted(idx, turn.remaining.index(guess)))
            if j == 0:
                first_of_row[turn.row] = len(sets)
            sets.append(ChoiceSet(x[idx], chosen, 1.0 if j == 0 else settings.later, int(game)))
    n_guess = len(sets)
    if settings.intended > 0 and settings.intended_on == "board":
        from .human_join import join_intended_targets

        game_of = {t.row: int(g) for t, g in zip(dataset.guesses, guess_games)}
        for m in join_intended_targets(dataset.guesses, dataset.clues).matched:
            turn = m.guess
            if not reader.reads(turn.clue):
                continue
            x = reader.features(turn.remaining, [turn.clue])[0]
            t_idx = [turn.remaining.index(t) for t in m.targets]
            for t in t_idx:
                keep = [i for i in range(len(turn.remaining)) if i == t or i not in t_idx]
                sets.append(ChoiceSet(x[keep], keep.index(t), settings.intended / len(t_idx), game_of[turn.row]))
    elif settings.intended > 0:
        for turn, game in zip(dataset.clues, clue_games):
            if not reader.reads(turn.clue):
                continue
            cards = list(turn.targets + turn.black + turn.tan)
            x = reader.features(cards, [turn.clue])[0]
            for t in range(len(turn.targets)):
                keep = [i for i in range(len(cards)) if i == t or i >= len(turn.targets)]
                sets.append(ChoiceSet(x[keep], 0, settings.intended / len(turn.targets), int(game)))
    return sets, n_guess, first_of_row


def fit_reader(sets: Sequence[ChoiceSet], models: Sequence[str], settings: FitSettings, provenance: Optional[dict] = None) -> ReaderParams:
    models = tuple(models)
    names = feature_names(models)
    mean, scale, w = fit_conditional_logit(sets, settings.l2, fixed=settings.fixed_weights(names))
    return ReaderParams(models, names, mean, scale, w, dict(provenance or {}))


class CrossFittedReader(HumanReader):
    """A reader whose weights, for any board of ``dataset``, were fitted on the other folds.

    The games are split into ``folds`` groups (scikit-learn's GroupKFold); a query's fold is
    that of the game whose cards contain the query's cards (every row of a game shows a
    subset of its board). A query that fits no game of the data gets the shipped weights.
    """

    def __init__(self, dataset: HumanDataset, shipped: ReaderParams, settings: FitSettings, folds: int = 5,
                 models: Optional[dict] = None) -> None:
        from sklearn.model_selection import GroupKFold

        super().__init__(shipped, models)
        extractor = extraction_reader(shipped.models, self._models)
        self._models = extractor._models
        sets, _, _ = build_choice_sets(dataset, extractor, settings)
        self._stats = extractor._stats
        self._reference = extractor._reference
        groups = np.array([s.group for s in sets])
        guess_games, clue_games = game_ids(dataset)
        boards: dict[int, set[str]] = {}
        for turn, g in zip(dataset.guesses, guess_games):
            boards.setdefault(int(g), set()).update(turn.remaining)
        for turn, g in zip(dataset.clues, clue_games):
            boards.setdefault(int(g), set()).update(turn.black + turn.tan + turn.targets)
        self._boards = boards
        self._fold_of: dict[int, int] = {}
        self._fold_params: list[ReaderParams] = []
        self.folds = folds
        for k, (train, test) in enumerate(GroupKFold(n_splits=folds).split(np.zeros(len(sets)), groups=groups)):
            self._fold_params.append(fit_reader([sets[i] for i in train], shipped.models, settings))
            for g in set(groups[test].tolist()):
                self._fold_of[int(g)] = k

    @classmethod
    def of_shipped(cls, dataset: HumanDataset, shipped: HumanReader, folds: int = 5) -> "CrossFittedReader":
        """The cross-fitted twin of a shipped reader: its fitting settings and its loaded models."""
        settings = FitSettings(**shipped.params.provenance.get("settings", {}))
        return cls(dataset, shipped.params, settings, folds, models=dict(zip(shipped.model_names, shipped.models)))

    def params_for(self, cards: Sequence[str]) -> ReaderParams:
        query = set(cards)
        best = [g for g, words in self._boards.items() if query <= words]
        if not best:
            return self.params
        # the smallest board that holds the query (games share words; a full board is unique)
        game = min(best, key=lambda g: len(self._boards[g]))
        # a game with no usable choice set is in no fold's test part: no fold was fitted on it
        return self._fold_params[self._fold_of.get(game, 0)]


CORRECT_GUESS_FILE = "correct_guess_task_val.csv"
_CORRECT_ROW = re.compile(r"remaining: (\[.*?\]), rationale: (.*), target: (.*), hint: (.*)$", re.S)


@dataclass(frozen=True)
class JudgedGuess:
    """A person's guess and whether it was one of the giver's targets (the correct-guess task)."""

    remaining: tuple[str, ...]
    guess: str
    clue: str
    correct: bool


def load_judged_guesses(folder: Path) -> list[JudgedGuess]:
    """The correct-guess task of the validation split (rows that cannot be read are skipped)."""
    import ast
    import csv

    path = Path(folder) / CORRECT_GUESS_FILE
    if not path.is_file():
        path = Path(folder) / "correct_guess_task" / "val.csv"
    out = []
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            m = _CORRECT_ROW.match(row.get("base_text", ""))
            if not m or row.get("output") not in ("True", "False"):
                continue
            try:
                remaining = tuple(normalise_word(w) for w in ast.literal_eval(m.group(1)))
            except (ValueError, SyntaxError):
                continue
            guess, clue = normalise_word(m.group(3)), normalise_word(m.group(4))
            if guess in remaining:
                out.append(JudgedGuess(remaining, guess, clue, row["output"] == "True"))
    return out


def fit_stop_rule(judged: Sequence[JudgedGuess], reader: HumanReader) -> tuple[float, ...]:
    """(intercept, coefficients) of a logistic regression (scikit-learn) of whether a
    person's guess was right on :func:`..agents.human.reader.stop_features` of that guess."""
    from sklearn.linear_model import LogisticRegression

    X, y = [], []
    for j in judged:
        if not reader.reads(j.clue):
            continue
        probs = reader.probabilities(j.remaining, j.clue)
        X.append(stop_features(probs, j.remaining.index(j.guess)))
        y.append(int(j.correct))
    model = LogisticRegression(C=1.0).fit(np.array(X), np.array(y))
    return (float(model.intercept_[0]), *map(float, model.coef_[0]))

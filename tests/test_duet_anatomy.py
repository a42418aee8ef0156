"""experiments/studies/duet_anatomy.py: its per-guess counts agree with what the runner recorded.

The games are real Duet games played by the runner with the scripted agents of
``test_sim_scripted`` (a code-book pair that always wins, and a pool spymaster with a random
guesser that meets bystanders, black cards and sudden death), laid out as a leave-one-out
results folder. The study replays every record through the engine; its totals must match the
runner's own figures for the same games.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from test_sim_scripted import scripted_factory

from spymaster_ai.sim.play import lineup
from spymaster_ai.sim.runner import run_games

STUDY = Path(__file__).resolve().parents[1] / "experiments" / "studies" / "duet_anatomy.py"


@pytest.fixture(scope="module")
def study():
    loader = importlib.util.spec_from_file_location("duet_anatomy", STUDY)
    module = importlib.util.module_from_spec(loader)
    sys.modules["duet_anatomy"] = module  # its dataclass resolves annotations through it
    try:
        loader.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("duet_anatomy", None)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("loo")
    cells = {"g__g__1.jsonl": "codebook:2", "robust_exclude=g_partner=a+b__g__2.jsonl": "random",
             "robust_exclude=g+h_partner=a__g__3.jsonl": "random", "a__g__4.jsonl": "random"}
    folder = root / "duet" / "g"
    folder.mkdir(parents=True)
    for name, spec in cells.items():
        run_games("duet", lineup("duet", spec, spec), games=30, seed=7, results_path=folder / name,
                  factory=scripted_factory)
    return root


def _lines(path: Path) -> list[dict]:
    return [json.loads(t) for t in path.read_text().splitlines() if t.strip()]


def test_the_replayed_counts_match_the_runners_records(study, results):
    folder = results / "duet" / "g"
    for path in sorted(folder.glob("*.jsonl")):
        games = _lines(path)
        a = study.anatomy_of([path])
        assert a.games == len(games) == 30
        assert a.wins == sum(bool(g["won"]) for g in games)
        assert a.clues == sum(g["clues"] for g in games)
        sudden_greens = a.guesses["sudden death"]["green"]
        assert a.greens + sudden_greens == sum(15 - g["extra"]["greens_left"] for g in games)
        on_clues = sum(sum(a.guesses[p].values()) for p in ("first", "within", "past"))
        guesses = sum(1 for g in games for act in g["record"]["actions"] if act["type"] == "guess")
        assert on_clues == guesses
        assert a.guesses["first"].total() == a.clues  # every clue gets its first guess
    # The code-book pair guesses exactly its count, all green: the second card of a count-2
    # clue is "within", nothing is "past".
    mirror_games = _lines(folder / "g__g__1.jsonl")
    mirror = study.anatomy_of([folder / "g__g__1.jsonl"])
    assert mirror.wins == 30 and set(mirror.guesses["first"]) == {"green"}
    counts = [act["count"] for g in mirror_games for act in g["record"]["actions"] if act["type"] == "clue"]
    assert mirror.guesses["within"] == {"green": sum(c - 1 for c in counts)} and max(counts) == 2
    assert not mirror.guesses["past"]
    # The pool spymaster's clues are all count 1 and its random guesser stops at the count:
    # first guesses only, black cards among them, and sudden death reached.
    noisy = study.anatomy_of([folder / "robust_exclude=g_partner=a+b__g__2.jsonl"])
    assert not noisy.guesses["within"] and not noisy.guesses["past"]
    assert noisy.guesses["first"]["black"] > 0 and noisy.guesses["sudden death"].total() > 0


def test_the_table_has_one_row_per_kind_of_cell(study, results):
    text = study.table(results)
    rows = [line for line in text.splitlines() if line.startswith("| `g` |")]
    assert [r.split(" | ")[1] for r in rows] == [
        "mirror", "each other single model (pooled)", "robust, G held out", "robust, G's family held out"]
    assert "| 30 | 100.0 |" in rows[0]
    assert study.cell_kind(Path("robust_exclude=g+h_partner=a__g__3.jsonl"), "g") == "robust, family"
    # leave_one_out.py's reference cell (G in the pool) is neither cross-play nor a single model
    assert study.cell_kind(Path("robust_partner=a+b+g__g__4.jsonl"), "g") == "reference"


def test_black_first_guesses_are_ranked_among_the_cards_the_guesser_could_take(study, results):
    """--black-ranks: every black first guess (as the anatomy counts them) is ranked once,
    among cards still guessable for that guesser: never a covered card, always the card taken."""
    path = results / "duet" / "g" / "robust_exclude=g_partner=a+b__g__2.jsonl"
    seen = []

    def rank_of(clue, words, guessable, card):
        assert card in guessable and len(set(guessable)) == len(guessable) <= len(words) == 25
        seen.append(len(guessable))
        return len(guessable)  # a stand-in rank: how many cards were left to choose from

    ranks = study.black_first_guess_ranks(path, rank_of)
    blacks = study.anatomy_of([path]).guesses["first"]["black"]
    assert blacks > 0 and sum(ranks.values()) == blacks == len(seen)
    assert ranks == {n: seen.count(n) for n in set(seen)}
    assert min(seen) < 25  # later clues choose among fewer cards: covered greens are left out


def test_a_results_folder_without_duet_cells_is_refused_clearly(study, tmp_path):
    with pytest.raises(SystemExit, match="no Duet cells"):
        study.table(tmp_path)


class HashedModel:
    """A stand-in model for the --black-ranks readings: a deterministic pseudo-random vector
    per (model, word), so any clue or card reads, and each model reads them differently."""

    def __init__(self, name: str) -> None:
        from spymaster_ai.embeddings.keyed_vectors import hashed_vector

        self.name, self._vector = name, lambda w: hashed_vector(f"{name}:{w}", 16)

    def clue_vocabulary(self) -> tuple[str, ...]:
        return ("apple", "river", "music", "stone", "cloud")

    def similarity(self, rows, cols):
        import numpy as np

        left = np.array([self._vector(w) for w in rows])
        right = np.array([self._vector(w) for w in cols])
        return left @ right.T


def test_a_reading_ranks_a_card_by_the_mean_or_by_its_best_single_model(study):
    import numpy as np

    reading = study.PoolReading(["a", "b"], load=HashedModel)
    words = [f"card{i}" for i in range(25)]
    guessable = words[3:]
    z = reading.z_scores("river", words, guessable)
    assert z.shape == (2, len(guessable)) and np.allclose(z.mean(axis=1), 0.0)
    top_of_a = guessable[int(np.argmax(z[0]))]
    assert reading.best_rank("river", words, guessable, top_of_a) == 1
    mean_order = [guessable[i] for i in np.argsort(-z.mean(axis=0), kind="stable")]
    assert reading.rank("river", words, guessable, mean_order[0]) == 1
    assert reading.rank("river", words, guessable, mean_order[-1]) == len(guessable)
    # a group of one model: its mean is its own reading, so both ranks agree
    alone = study.PoolReading(["a"], load=HashedModel)
    assert all(alone.rank("river", words, guessable, w) == alone.best_rank("river", words, guessable, w) for w in guessable)


def test_the_black_rank_table_reads_each_cross_play_cell_three_ways(study, results):
    """Every black first guess of a robust cell is ranked once per reading; G's own reading
    and the best single partner model only for the cross-play cells."""
    text = study.black_rank_table(results, load=HashedModel)
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| `g` |")]
    readings = [label for label, _, _ in study.READINGS]
    assert [(r[1], r[2]) for r in rows] == [
        ("robust, G held out", label) for label in readings] + [("robust, G's family held out", label) for label in readings]
    folder = results / "duet" / "g"
    blacks = {"robust, G held out": "robust_exclude=g_partner=a+b__g__2.jsonl",
              "robust, G's family held out": "robust_exclude=g+h_partner=a__g__3.jsonl"}
    for row in rows:
        total = study.anatomy_of([folder / blacks[row[1]]]).guesses["first"]["black"]
        assert int(row[3]) == total > 0
        assert sum(int(cell.split(" ")[0]) for cell in row[4:]) == total
    # the scripted cells' spymaster spec names no partner, so the packaged pool reads them; G
    # reads its own clues (one loaded model per name)
    loaded = []
    study.black_rank_table(results, load=lambda name: loaded.append(name) or HashedModel(name))
    assert sorted(loaded) == sorted(["minilm", "glove50", "wordllama", "e5small", "g"])

"""experiments/duet_anatomy.py: its per-guess counts agree with what the runner recorded.

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

STUDY = Path(__file__).resolve().parents[1] / "experiments" / "duet_anatomy.py"


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

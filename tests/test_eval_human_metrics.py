"""The human-play metrics against values computed by hand on the invented fixtures.

Toy vectors (tests/fixtures/human_duet/toy_vectors.json) are one-hot-like over eight meanings
(animal, water, fire, space, music, food, tool, sport), so every cosine below is a fraction
worked out on paper: e.g. ocean=(water) against whale=(animal+2 water) is 2/sqrt(5) = 0.894,
against shark=(animal+water) 1/sqrt(2) = 0.707, against every other card 0.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from spymaster_ai.eval.adapter import AgentAdapter, ClueRanking, Unscorable, giver_view, guesser_view, make_adapter
from spymaster_ai.eval.bootstrap import estimate_difference, estimate_mean
from spymaster_ai.eval.calibration import CalibratedGuesser, split_by_game
from spymaster_ai.eval.human_data import ClueTurn, GuessTurn, load_human_data
from spymaster_ai.eval.human_eval import evaluate_human
from spymaster_ai.eval.human_join import fits, game_groups, guess_games, join_intended_targets
from spymaster_ai.eval.human_metrics import (
    clue_counts,
    clue_giving_metrics,
    guessing_metrics,
    jaccard,
    target_choice_metrics,
    understanding_metrics,
)

FIXTURES = Path(__file__).parent / "fixtures" / "human_duet"
TOY_AGENTS = FIXTURES / "toy_agents.py"
sys.path.insert(0, str(FIXTURES))
from toy_agents import VECTORS as TOY_VECTORS  # noqa: E402
from toy_agents import ProtocolOnlyGuesser, ToyGuesser, ToySpymaster, toy_embedding  # noqa: E402


@pytest.fixture(scope="module")
def data():
    return load_human_data(FIXTURES)


@pytest.fixture(scope="module")
def toy():
    return AgentAdapter(ToyGuesser(), ToySpymaster(), name="toy")


class Prescribed:
    """An agent whose answers are written in the test: isolates the metric arithmetic."""

    name = "prescribed"

    def __init__(self, clue_ranks=None, targets=None, refused=None):
        self.clue_ranks = clue_ranks or {}
        self.targets = targets or {}
        self.refused = refused or {}

    def check_clue_candidate(self, clue, targets, black, tan):
        if clue in self.refused:
            raise Unscorable(self.refused[clue])

    def rank_clues(self, targets, black, tan, depth):
        key = (tuple(targets), tuple(black), tuple(tan))
        rank = self.clue_ranks[key]
        words = [f"filler{i}" for i in range(depth)]
        if rank is not None and rank <= depth:
            words[rank - 1] = self.human_clue[key]
        return ClueRanking(tuple(words), tuple(float(-i) for i in range(depth)))

    def choose_targets(self, green, black, tan):
        return self.targets[tuple(green)]


# -- joins and games ---------------------------------------------------------------------------


def test_join_on_content_matches_ambiguous_and_unmatched_turns(data):
    join = join_intended_targets(data.guesses, data.clues)
    assert {m.guess.row: m.targets for m in join.matched} == {
        1: ("whale", "shark"), 2: ("sun",), 3: ("piano",), 4: ("lion",), 5: ("lion",),
        6: ("moon",), 7: ("cake",), 8: ("piano", "ball")}
    # Row 9 ("heat" on board B) fits two giver turns aiming at different cards.
    assert [g.row for g in join.ambiguous] == [9]
    # Row 10 ("night"): the only "night" turn aims at moon, which is no longer visible.
    assert [g.row for g in join.unmatched] == [10]
    assert clue_counts(join)[8] == 2


def test_join_does_not_depend_on_row_order(data):
    forward = join_intended_targets(data.guesses, data.clues)
    backward = join_intended_targets(data.guesses[::-1], data.clues[::-1])
    assert sorted((m.guess.row, m.clue.row) for m in forward.matched) == \
        sorted((m.guess.row, m.clue.row) for m in backward.matched)


def test_fit_rule_allows_one_covered_black_card_but_no_covered_tan_or_target():
    guess = GuessTurn(1, ("a", "b", "c", "d", "e"), "clue", ("a",))
    assert fits(guess, ClueTurn(1, ("d", "x"), ("b", "c"), ("a",), "clue"))  # one black covered
    assert not fits(guess, ClueTurn(1, ("x", "y"), ("b",), ("a",), "clue"))  # two black covered
    assert not fits(guess, ClueTurn(1, ("d",), ("b", "x"), ("a",), "clue"))  # tan covered
    assert not fits(guess, ClueTurn(1, ("d",), ("b",), ("x",), "clue"))  # target covered
    assert not fits(guess, ClueTurn(1, ("d",), ("b",), ("a",), "other"))  # another clue
    twins = [ClueTurn(1, ("d",), ("b",), ("a",), "clue"), ClueTurn(2, ("d",), ("b",), ("a",), "clue")]
    join = join_intended_targets([guess], twins)
    assert len(join.matched) == 1 and join.matched[0].clue.row == 1  # identical duplicates: one match


def test_game_groups_follow_set_inclusion_transitively():
    groups = game_groups([{"a", "b", "c"}, {"a", "b"}, {"x", "y"}, {"a", "b", "c", "d"}, {"x"}, {"q", "a"}])
    assert groups.tolist() == [0, 0, 1, 0, 1, 2]


# -- bootstrap ------------------------------------------------------------------------------------


def test_bootstrap_is_seeded_and_resamples_games():
    rng = np.random.default_rng(7)
    values = rng.random(60)
    groups = np.repeat(np.arange(12), 5)
    a = estimate_mean(values, groups, seed=3)
    assert a == estimate_mean(values, groups, seed=3)
    assert a.ci95 != estimate_mean(values, groups, seed=4).ci95
    assert a.ci95[0] < a.value < a.ci95[1] and (a.n, a.games) == (60, 12)


def test_two_games_give_the_interval_between_the_two_game_means():
    # Resampling two games: {A,A}, {A,B}, {B,A}, {B,B}, each at least 1/4 of the time.
    est = estimate_mean([1, 0, 1, 1, 1, 0, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1], seed=0)
    assert est.value == pytest.approx(6 / 8)
    assert est.ci95 == pytest.approx((2 / 3, 4 / 5))


def test_clustered_games_widen_the_interval_over_independent_rows():
    values = np.repeat([1.0, 0.0] * 5, 10)  # ten games, every turn of a game alike
    groups = np.repeat(np.arange(10), 10)
    clustered = estimate_mean(values, groups, seed=1)
    rows = estimate_mean(values, None, seed=1)
    width = lambda e: e.ci95[1] - e.ci95[0]  # noqa: E731
    assert width(clustered) > width(rows)


def test_paired_difference_and_small_samples():
    same = estimate_difference([1, 0, 1], [1, 0, 1], seed=0)
    assert same.value == 0 and same.ci95 == (0.0, 0.0)
    assert estimate_mean([], seed=0).value is None
    assert estimate_mean([0.5], seed=0).ci95 is None


# -- the four metrics ------------------------------------------------------------------------------


def test_guessing_top1_and_mrr_by_hand(data, toy):
    result = guessing_metrics(data.guesses, toy, seed=0)
    # Scored rows and the rank of the human's first guess under cosine (see module doc):
    # 1 ocean->whale 1; 2 heat->sun 2 (fire=heat is 1.0); 3 song->piano 1; 6 tide->moon 1;
    # 7 fruit->cake 1; 8 beat->piano 2 (ball 2/sqrt5 > piano 1/sqrt5); 9 heat->fire 1; 10 night->star 1.
    assert [(o.row, o.rank) for o in result.outcomes] == [(1, 1), (2, 2), (3, 1), (6, 1), (7, 1), (8, 2), (9, 1), (10, 1)]
    assert result.top1.value == pytest.approx(6 / 8)
    assert result.mrr.value == pytest.approx(7 / 8)
    assert (result.top1.n, result.top1.games, result.turns) == (8, 2, 10)
    # Row 4 has no recorded guess; row 5's clue "zzyzx" is unknown to the toy model.
    assert result.unscorable == {"clue-unknown": 1, "no-human-guess": 1}
    # Game A scores 2/3, game B 4/5: the interval spans the two.
    assert result.top1.ci95 == pytest.approx((2 / 3, 4 / 5))


def test_understanding_compares_agent_and_humans_on_the_same_turns(data, toy):
    join = join_intended_targets(data.guesses, data.clues)
    result = understanding_metrics(join, toy, seed=0)
    # Matched rows with a human guess: 1,2,3,5,6,7,8; row 5's clue is unknown to the toy model.
    # Agent: row 2 guesses fire for "heat" (aimed at sun): 5 hits of 6. Humans: 6 of 6.
    assert [(o.row, o.agent) for o in result.outcomes] == [
        (1, "whale"), (2, "fire"), (3, "piano"), (6, "moon"), (7, "cake"), (8, "ball")]
    assert result.agent.value == pytest.approx(5 / 6)
    assert result.human.value == pytest.approx(1.0)
    assert result.gap.value == pytest.approx(-1 / 6)
    assert result.join == {"matched": 8, "ambiguous": 1, "unmatched": 1}
    assert result.unscorable == {"clue-unknown": 1, "no-human-guess": 1}
    only = understanding_metrics(join, toy, seed=0, rows={1, 2, 9})
    assert only.agent.n == 2 and only.join == {"matched": 2, "ambiguous": 1, "unmatched": 0}


def test_clue_giving_mrr_and_top_k_by_hand(data):
    ranks = {1: 1, 2: 3, 3: 10, 4: 11, 5: 100, 6: 101, 7: None, 8: 2, 9: 1, 10: 50}
    agent = Prescribed(refused={"zzyzx": "outside-vocabulary", "drummer": "illegal-clue"})
    agent.clue_ranks = {(c.targets, c.black, c.tan): ranks[c.row] for c in data.clues if c.row in ranks}
    agent.human_clue = {(c.targets, c.black, c.tan): c.clue for c in data.clues if c.row in ranks}
    result = clue_giving_metrics(data.clues, agent, depth=200, seed=0)
    assert result.unscorable == {"illegal-clue": 1, "outside-vocabulary": 1}
    expected_rr = [1, 1 / 3, 1 / 10, 1 / 11, 1 / 100, 1 / 101, 0, 1 / 2, 1, 1 / 50]
    assert result.mrr.value == pytest.approx(sum(expected_rr) / 10)
    assert result.top10.value == pytest.approx(5 / 10)
    assert result.top100.value == pytest.approx(8 / 10)
    assert (result.mrr.n, result.beyond_depth, result.depth) == (10, 1, 200)
    with pytest.raises(ValueError, match="depth"):
        clue_giving_metrics(data.clues, agent, depth=0)


def test_clue_giving_with_the_embedding_spymaster_and_unscorable_clues(data, toy):
    result = clue_giving_metrics(data.clues, toy, depth=50, seed=0)
    # "ocean" is the only toy clue close to both whale and shark and to no card to avoid.
    assert result.outcomes[0].row == 1 and result.outcomes[0].rank == 1
    # "zzyzx" is no toy clue; "drummer" is a form of the visible "drum" (RULES.md §4.2).
    assert result.unscorable == {"illegal-clue": 1, "outside-vocabulary": 1}
    assert result.mrr.n == 10


def test_target_choice_jaccard_by_hand(data):
    agent = Prescribed(targets={
        ("whale", "shark", "sun", "piano", "lion"): ("whale",),  # human whale, shark: 1/2
        ("sun", "piano", "lion"): ("sun",),  # 1
        ("moon", "cake", "piano", "ball"): ("cake",),  # human moon: 0
        ("piano", "ball"): ("ball", "piano"),  # 1
    })
    result = target_choice_metrics(data.targets, agent, seed=0)
    assert result.jaccard.value == pytest.approx((0.5 + 1 + 0 + 1) / 4)
    assert result.exact.value == pytest.approx(2 / 4)
    assert result.agent_count.value == pytest.approx(5 / 4)
    assert result.human_count.value == pytest.approx(6 / 4)
    assert jaccard(("a", "b"), ("b", "c")) == pytest.approx(1 / 3) and jaccard((), ()) == 1.0


def test_target_choice_with_the_embedding_spymaster_aims_at_green_cards_only(data, toy):
    result = target_choice_metrics(data.targets, toy, seed=0)
    assert result.jaccard.n == 4
    for turn, outcome in zip(data.targets, result.outcomes):
        assert outcome.agent and set(outcome.agent) <= set(turn.green)


# -- the adapter -----------------------------------------------------------------------------------


def test_views_built_for_recorded_turns():
    view = guesser_view(("a", "b", "c"), "clue", 2)
    assert view.game == "duet" and view.visible == ("a", "b", "c") and not view.can_stop
    assert view.clue.word == "clue" and view.clue.count == 2 and view.max_guesses is None
    giver = giver_view(("a",), ("b",), ("c", "d"))
    assert giver.own == ("a",) and giver.assassins == ("b",) and giver.bystanders == ("c", "d")
    assert giver.visible == ("a", "b", "c", "d") and giver.bad == ("c", "d", "b")


def test_protocol_only_guesser_ranks_by_repeated_next_guess(data, toy):
    plain = AgentAdapter(ProtocolOnlyGuesser(), None, name="protocol-only")
    assert plain.guess_method == "next_guess" and toy.guess_method == "rank_cards"
    for turn in data.guesses[:3]:
        assert plain.rank_cards(turn.remaining, turn.clue) == toy.rank_cards(turn.remaining, turn.clue)
    # Without an exposed embedding nothing is refused as unknown: the protocol is asked.
    assert plain.rank_cards(("lion", "whale"), "ocean")[0] == "whale"
    with pytest.raises(Unscorable) as info:
        toy.rank_cards(("lion", "whale"), "zzyzx")
    assert info.value.reason == "clue-unknown"


def test_a_clue_the_guesser_reads_but_does_not_know_is_scored():
    """WordLlama knows single-token words only but reads any word, and plays that way: the
    evaluation scores it on the same clues as in play, not on the ones it knows best."""

    class Composing(type(toy_embedding())):
        def knows(self, word):
            return word != "ocean" and super().knows(word)

    class Reads(Composing):
        def reads(self, word):
            return super(Composing, self).knows(word)

    for embedding, scorable in ((Composing(*_toy_parts()), False), (Reads(*_toy_parts()), True)):
        guesser = ToyGuesser()
        guesser.embedding = embedding
        adapter = AgentAdapter(guesser, None, name="composing")
        if scorable:
            assert adapter.rank_cards(("lion", "whale"), "ocean")[0] == "whale"
        else:
            with pytest.raises(Unscorable, match="cannot read 'ocean'"):
                adapter.rank_cards(("lion", "whale"), "ocean")


def _toy_parts():
    data = json.loads(TOY_VECTORS.read_text(encoding="utf-8"))
    return data["vectors"], data["clue_vocabulary"]


def test_registry_specs_and_roles_missing(data):
    adapter = make_adapter(f"{TOY_AGENTS}:ToyGuesser", spymaster=f"{TOY_AGENTS}:ToySpymaster")
    assert adapter.can_guess and adapter.can_rank_clues
    assert adapter.rank_cards(("lion", "whale"), "ocean") == ["whale", "lion"]
    guesser_only = make_adapter("random")
    assert guesser_only.can_guess and not guesser_only.can_rank_clues
    assert "guesser" in guesser_only.spymaster_note
    report = evaluate_human(data, guesser_only, metrics=("guessing", "clue-giving", "target-choice"))
    assert report.guessing is not None and report.guessing.top1.n == 9  # random knows every word
    assert set(report.skipped) == {"clue-giving", "target-choice"}
    with pytest.raises(ValueError, match="unknown metric"):
        evaluate_human(data, guesser_only, metrics=("guesing",))


def test_the_report_is_named_by_the_specs_that_played(monkeypatch):
    # --guesser X --spymaster X once reported the --agent default ("minilm") in its title.
    import spymaster_ai.agents.registry as registry

    monkeypatch.setattr(registry, "make_guesser", lambda spec, **kw: ToyGuesser())
    monkeypatch.setattr(registry, "make_spymaster", lambda spec, **kw: ToySpymaster())
    assert make_adapter("minilm", guesser="wordnet", spymaster="wordnet").name == "wordnet"
    assert make_adapter("glove50").name == "glove50"
    assert make_adapter("glove50", spymaster="glove50").name == "glove50"
    assert make_adapter("minilm", guesser="glove50").name == "guesser=glove50, spymaster=minilm"


# -- calibration -------------------------------------------------------------------------------------


def test_split_by_game_is_seeded_disjoint_and_whole_games(data):
    split = split_by_game(data.guesses, seed=5)
    assert split == split_by_game(data.guesses, seed=5)
    assert split.fit_rows.isdisjoint(split.test_rows)
    assert split.fit_rows | split.test_rows == {t.row for t in data.guesses}
    games = dict(zip((t.row for t in data.guesses), guess_games(data.guesses)))
    assert {games[r] for r in split.fit_rows}.isdisjoint({games[r] for r in split.test_rows})
    assert (split.fit_games, split.test_games) == (1, 1)


def test_calibration_learns_a_frequency_preference():
    # Human "guessers" who always pick the most common card, whatever the clue says.
    from wordfreq import zipf_frequency

    emb = toy_embedding()
    boards = [("whale", "fire", "drum"), ("shark", "star", "hammer"), ("lion", "sun", "piano"),
              ("whale", "ball", "apple"), ("shark", "fire", "cake"), ("lion", "moon", "drum")]
    clues = ["ocean", "cat", "song", "tool", "fruit", "game"]
    turns = []
    for i, board in enumerate(boards):
        for j, clue in enumerate(clues):
            common = max(board, key=lambda w: zipf_frequency(w, "en"))
            turns.append(GuessTurn(len(turns) + 1, board, clue, (common,)))
    model = CalibratedGuesser([emb], name="cal").fit(turns)
    assert model.feature_names == ["toy:similarity", "toy:board_z", "toy:is_top", "toy:hubness", "card_zipf"]
    assert model.coefficients()["card_zipf"] > 0
    hits = np.mean([model.rank_cards(t.remaining, t.clue)[0] == t.first_guess for t in turns])
    plain = AgentAdapter(ToyGuesser(), None)
    base = np.mean([plain.rank_cards(t.remaining, t.clue)[0] == t.first_guess for t in turns])
    assert hits == 1.0 and base < 1.0
    again = CalibratedGuesser([emb], name="cal").fit(turns)
    assert again.coefficients() == model.coefficients()
    with pytest.raises(Unscorable):
        model.rank_cards(("whale", "fire"), "zzyzx")


def test_evaluate_with_calibration_reports_only_held_out_games(data, toy):
    report = evaluate_human(data, toy, seed=0, calibrate=True, metrics=("guessing",))
    cal = report.calibration
    assert cal is not None
    held_out = cal.split.test_rows
    assert {o.row for o in cal.baseline_guessing.outcomes} <= held_out
    assert {o.row for o in cal.calibrated_guessing.outcomes} <= held_out
    assert cal.baseline_guessing.top1.n == cal.calibrated_guessing.top1.n > 0
    body = report.to_json()["calibration"]
    assert set(body) == {"split", "features", "coefficients", "baseline", "calibrated"}

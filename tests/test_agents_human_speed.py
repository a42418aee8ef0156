"""Issue 43: the human agents' fast paths give the numbers of the slow ones, bit for bit.

The spymaster reads only the clue words that can pass its tests (``rank_clues``) and must
choose what reading every word chooses (``rank_clues_everywhere``); a part of the vocabulary's
features must be those rows of the whole; the vectorised spelling, phrase links and median
must be the pairwise rules and numpy's median; the reader's kept answers must be its answers.
Timings are not tested here (``experiments/human_speed.py`` measures them).
"""

from __future__ import annotations

import numpy as np
import pytest

from spymaster_ai.agents.human import features as F
from spymaster_ai.agents.human.board import MIN_ROWS
from spymaster_ai.agents.human.features import features_from_sims, median_of_models, silent_cards, spelled_matrix
from spymaster_ai.agents.human.reader import load_params
from spymaster_ai.agents.partner_model import expected_outcome

# -- the median and the spelling ------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_median_of_a_few_models_is_numpys_median_bit_for_bit(n):
    rng = np.random.default_rng(n)
    values = [rng.normal(size=(300, 25)).astype(np.float32) for _ in range(n)]
    values[1][:40] = values[0][:40]  # ties
    values[-1][50:60] = 0.0
    got = median_of_models(values)
    want = np.median(np.stack(values, axis=-1), axis=-1)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    x = np.zeros((300, 25, 3 * n), dtype=np.float32)  # the features, each model's evoke second of three
    for k, v in enumerate(values):
        x[:, :, 3 * k + 1] = v
    assert np.array_equal(F.median_evoke(x, n), want)


def _spelled_pairwise(clue: str, card: str) -> bool:
    """The rule of :func:`spelled_like`, pair by pair (the loop the vectorised matrix replaced)."""
    from rapidfuzz.distance import Levenshtein

    a, b = clue.lower().replace(" ", ""), card.lower().replace(" ", "")
    bound = 1 if min(len(a), len(b)) <= 4 else 2
    return (Levenshtein.distance(a, b) <= bound or (len(a) >= 4 and len(b) >= 4 and a[:4] == b[:4])
            or (len(b) >= 3 and b in a) or (len(a) >= 3 and a in b))


def test_the_spelling_matrix_is_the_pairwise_rule_and_a_long_clue_list_is_prepared_once():
    from spymaster_ai.rules.wordlists import load_words

    words = list(load_words("classic"))
    clues = words[:300] + ["moonlight", "fire", "ice", "icecream", "ab", "a b c", "grab", "purses"]
    cards = words[280:320] + ["ice cream", "moon", "crab", "ab", "abc", "purse", "new york"]
    got = spelled_matrix(clues, cards)
    want = np.array([[_spelled_pairwise(c, w) for w in cards] for c in clues])
    assert got.dtype == bool and np.array_equal(got, want)
    assert tuple(clues) in F._SPELLINGS  # the clue side is prepared once for the next board
    assert np.array_equal(spelled_matrix(clues, cards[::-1]), want[:, ::-1])
    assert np.array_equal(spelled_matrix(clues[:5], cards), want[:5])  # a short list, not kept


def test_phrase_links_of_a_long_clue_list_are_those_of_the_sparse_index():
    from spymaster_ai.embeddings.phrase_links import PhraseLinks, build_pairs

    index = PhraseLinks(*build_pairs(None))
    clues = index.words[:200] + ["eye", "batten", "qwertyuiop", "hatches"]
    cards = ["storm", "hatch", "batten down", "zzzz", "eye storm", index.words[3]]
    got = index.links(clues, cards)
    ids = np.array([index._ids(c)[0] for c in clues])
    want = np.zeros_like(got)
    for j, card in enumerate(cards):
        card_ids = index._ids(card)
        if min(card_ids) >= 0:
            rows = index._matrix[card_ids][:, ids[ids >= 0]].toarray()
            want[ids >= 0, j] = rows.min(axis=0)
    assert np.array_equal(got, want) and got[clues.index("eye"), 0] == 1.0
    assert tuple(clues) in index._clue_cache


# -- a part of the vocabulary -------------------------------------------------------------------


def _board_like(rng, n_vocab=400, n_cards=25):
    """Similarities laid out as the spymaster holds them (cards-major, read transposed), with a
    card and a clue word one model has no vector for, and tied best cards."""
    sims = [np.ascontiguousarray(rng.normal(0.1, 0.2, (n_cards, n_vocab)).astype(np.float32)) for _ in range(4)]
    sims[3][:, 7] = 0.0  # a clue word the thesaurus lacks
    sims[3][5, :] = 0.0  # a card it lacks
    sims[0][2, :50] = sims[0][9, :50] = 2.0  # two cards tied for best
    means = [s.mean(axis=1).astype(np.float32) for s in sims]
    stds = [s.std(axis=1).astype(np.float32) for s in sims]
    return sims, means, stds


def test_the_features_of_some_clue_words_are_those_rows_of_the_whole_vocabulary():
    rng = np.random.default_rng(7)
    sims, means, stds = _board_like(rng)
    n_vocab = sims[0].shape[1]
    visible = rng.random(25) < 0.8
    visible[[2, 9]] = True
    vocab = [f"w{i}" for i in range(n_vocab)]
    cards = [f"c{j}" for j in range(25)]
    spelled = rng.random((n_vocab, 25)) < 0.02
    phrase = (rng.random((n_vocab, 25)) < 0.02).astype(np.float32)
    degree = rng.integers(0, 500, n_vocab).astype(np.float32)
    full = features_from_sims([s.T for s in sims], means, stds, visible, vocab, cards, spelled, phrase,
                              phrase_degree=degree)
    params = load_params()
    logits = params.logits(full).astype(np.float32)
    silent = [silent_cards(s.T) for s in sims]
    # the lead: each card's z minus the best other visible card's (a partition's answer)
    z = full[:, :, 0]
    top2 = -np.partition(-np.where(visible, z, -np.inf), 1, axis=1)[:, :2]
    lead = z - np.where(z >= top2[:, :1], top2[:, 1:2], top2[:, :1])
    assert np.array_equal(full[:, :, 2], lead)
    for rows in (np.arange(0, n_vocab, 3), np.sort(rng.choice(n_vocab, MIN_ROWS, replace=False)), np.arange(40)):
        part = features_from_sims([np.ascontiguousarray(s[:, rows]).T for s in sims], means, stds, visible,
                                  [vocab[i] for i in rows], cards, spelled[rows], phrase[rows], silent=silent,
                                  phrase_degree=degree[rows])
        assert np.array_equal(part, full[rows])
        assert np.array_equal(params.logits(part).astype(np.float32), logits[rows])
        # and what a partner is expected to find for them, clue by clue
        own = rng.random(25) < 0.4
        cost = np.where(own, 0.0, 0.5).astype(np.float32)
        every = expected_outcome(np.ascontiguousarray(logits.T), visible, own, own.astype(np.float32), cost, 3, 1.0, None, 1.0)
        some = expected_outcome(np.ascontiguousarray(logits[rows].T), visible, own, own.astype(np.float32), cost, 3, 1.0, None, 1.0)
        assert np.array_equal(some.found, every.found[rows]) and np.array_equal(some.cost, every.cost[rows])


# -- the agents, on the packaged models ------------------------------------------------------------


def _play_and_compare(spymasters, games: int, seeds) -> int:
    """Play Duet games with the human agents; before every clue, each spymaster in
    ``spymasters`` ranks its clues both ways. Returns how many views were compared."""
    from spymaster_ai.agents.registry import make_guesser, make_spymaster
    from spymaster_ai.sim.play import ROLES, play_game

    compared = 0
    seated = {r: (make_spymaster("human") if r.endswith("spymaster") else make_guesser("human")) for r in ROLES["duet"]}

    def checking(agent):
        real = agent.give_clue

        def give_clue(view):
            nonlocal compared
            for other in spymasters:
                other._aims = dict(agent._aims)  # the same cards tired as the giver's
                fast, slow = other.rank_clues(view, top=25), other.rank_clues_everywhere(view, top=25)
                assert fast == slow, (view.words, [o.word for o in fast], [o.word for o in slow])
                compared += 1
            return real(view)

        agent.give_clue = give_clue

    for role in ("a_spymaster", "b_spymaster"):
        checking(seated[role])
    for seed in seeds[:games]:
        play_game("duet", seated, {r: "human" for r in ROLES["duet"]}, seed=seed)
    return compared


@pytest.mark.models
def test_the_human_spymaster_reading_only_its_candidates_chooses_as_reading_every_word():
    from spymaster_ai.agents.human import HumanSpymaster
    from spymaster_ai.agents.registry import make_spymaster

    plain = make_spymaster("human")
    # the levers that lower the bars (finishing, thesaurus links) widen the candidates: still the same clues
    levers = HumanSpymaster(plain.reader, finish_evoke=0.6, finish_margin=0.2, assoc_strength=0.02,
                            linked_evoke=0.8, linked_margin=0.3, unlinked_cost=0.3)
    compared = _play_and_compare([plain, levers], games=3, seeds=[11, 12, 13])
    assert compared >= 20


@pytest.mark.models
def test_the_human_spymaster_reads_fewer_words_than_its_vocabulary_and_falls_back_to_all():
    from spymaster_ai.agents.human.spymaster import HumanSpymaster
    from spymaster_ai.agents.registry import make_spymaster
    from spymaster_ai.rules.cards import Player, deal_words, generate_duet_key
    from spymaster_ai.rules.duet import DuetGame
    from spymaster_ai.rules.wordlists import load_words
    import random

    spy = make_spymaster("human")
    rng = random.Random(3)
    view = DuetGame(deal_words(load_words("classic"), 25, rng), generate_duet_key(rng)).spymaster_view(Player.A)
    spy.reset(0)
    hb = spy._reading_board(view)
    targets = spy._targets(view)
    visible, guessable, own = spy._masks(view, targets, hb.board.column, 25)
    rows = spy._candidates(view, hb, targets, guessable, own, spy._allowed(view, hb, visible))
    assert MIN_ROWS <= len(rows) < len(spy.vocabulary) / 2
    assert spy.rank_clues(view, top=10) == spy.rank_clues_everywhere(view, top=10)
    # nothing a person can follow (every own card aimed at too often): the plain fallback, as before
    spy._aims = {w: spy.max_aims for w in targets}
    plain = spy.rank_clues(view, top=10)
    assert plain == spy.rank_clues_everywhere(view, top=10) and all(o.count == 1 for o in plain)
    assert isinstance(spy, HumanSpymaster)


@pytest.mark.models
def test_the_reader_keeps_its_answers_and_they_are_its_answers():
    from spymaster_ai.agents.human import shared_reader
    from spymaster_ai.agents.human.adapt import PersonalReader, ReaderAdaptation

    reader = shared_reader()
    cards = ["ocean", "beach", "doctor", "nurse", "moon", "ice cream", "crab"]
    visible = np.array([True, True, True, False, True, True, True])
    x = reader.features(cards, ["sea"], visible)
    assert reader.features(cards, ["sea"], visible) is x and not x.flags.writeable
    sims = [np.asarray(m.similarity(["sea"], cards), dtype=np.float32) for m in reader.models]
    assert np.array_equal(x, reader.features(cards, ["sea"], visible, sims=sims))  # computed afresh
    personal = PersonalReader(reader, ReaderAdaptation(reader.params))
    assert np.array_equal(personal.features(cards, ["sea"], visible), x)
    assert reader.reads("sea") and not reader.reads("qwxzzy") and reader._read["sea"] is True


@pytest.mark.models
def test_on_a_german_board_no_clue_is_spelled_like_a_visible_card():
    """The features read spelling in English only, but the spymaster gives no clue spelled like a
    visible card on any board (SCHAF beside SCHWAN): the board keeps the spelling in every language."""
    import random

    from spymaster_ai.agents.registry import make_spymaster
    from spymaster_ai.rules.cards import deal_words
    from spymaster_ai.rules.wordlists import load_words
    from spymaster_ai.views import SpymasterView

    board = deal_words(list(load_words("de")), 25, random.Random(42))
    view = SpymasterView(game="duet", me="A", words=tuple(board), visible=tuple(board), own=tuple(board[:9]),
                         opponent=(), bystanders=tuple(board[12:]), assassins=tuple(board[9:12]))
    spy = make_spymaster("human:lang=de")
    spy.reset(0)
    options = spy.rank_clues(view, top=30)
    spelled = spelled_matrix([o.word for o in options], list(board))
    assert options and not spelled.any(), [o.word for o, s in zip(options, spelled) if s.any()]
    assert options == spy.rank_clues_everywhere(view, top=30)

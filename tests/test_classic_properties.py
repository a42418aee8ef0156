"""Property tests: thousands of random legal move sequences through ClassicGame.

Every game is played to its end by a random player that picks among the legal moves (random
clue counts, 0 and unlimited clues, guesses biased towards the team's own agents so that games
end by wins as well as by the assassin, stops, penalty and solo covers). After every move the
card counts, the turn order and the end conditions are checked against the key; refused moves
must leave the state unchanged; after the end every move must raise GameOverError; and the
logged actions must replay to the same state.

Legality is a trivial fake here ("bad" clues are illegal) so the tests exercise the engine's
strict/penalty handling without depending on the real checker's speed.
"""

from __future__ import annotations

import random
from collections import Counter
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from spymaster_ai.rules import classic
from spymaster_ai.rules.cards import (
    CLASSIC_LAYOUT,
    KIM2019_LAYOUT,
    PICTURES_LAYOUT,
    Identity,
    generate_classic_key,
)
from spymaster_ai.rules.classic import ClassicGame, WrongCardError
from spymaster_ai.rules.moves import (
    AlreadyCoveredError,
    Clue,
    GameOverError,
    InvalidClueError,
    LossCause,
    NotOnBoardError,
    Phase,
    WrongPhaseError,
)

LAYOUTS = {"classic": CLASSIC_LAYOUT, "pictures": PICTURES_LAYOUT, "kim2019": KIM2019_LAYOUT}
MOVE_CAP = 1000  # far above the longest possible game with the limits below


class _Verdict:
    def __init__(self, legal: bool) -> None:
        self.legal, self.reason, self.rule, self.collides_with = legal, "fake checker", "fake", None


def fake_check(clue_word, visible_words, *, options, count, pictures):
    return _Verdict(not clue_word.startswith("bad") and clue_word not in visible_words)


def new_game(rnd: random.Random, kind: str, **flags) -> ClassicGame:
    size = LAYOUTS[kind][0]
    key = generate_classic_key(rnd.getrandbits(32), LAYOUTS[kind])
    words = [f"card{i}" for i in range(size)]
    rnd.shuffle(words)
    pictures = [rnd.random() < 0.5 for _ in range(size)] if rnd.random() < 0.3 else None
    legality = rnd.choice(["off", "strict", "penalty"])
    return ClassicGame(words, key, kind=kind, legality=legality, pictures=pictures, **flags)


# ------------------------------------------------------------------ invariants
def check_cards(g: ClassicGame) -> None:
    size = len(g.words)
    visible = g.visible_words()
    covered = g.covered
    assert len(visible) + len(covered) == size
    assert set(visible) | set(covered) == set(g.words) and not set(visible) & set(covered)
    ids = dict(zip(g.words, g.key.identities))
    assert all(ids[w] is i for w, i in covered.items())
    covered_counts = Counter(covered.values())
    for identity in Identity:
        remaining = g.remaining(identity)
        assert all(ids[w] is identity and w in visible for w in remaining)
        assert len(remaining) + covered_counts[identity] == g.key.count(identity)


def agents_done(g: ClassicGame, team) -> bool:
    return not g.remaining(Identity.of_team(team))


def check_phase(g: ClassicGame, clue_teams: list) -> None:
    start = g.key.starting
    if g.single_team:
        assert all(t is start for t in clue_teams)
    else:  # teams alternate, the starting team first, penalised clues included
        assert all(t is (start if n % 2 == 0 else start.other) for n, t in enumerate(clue_teams))
    assert g.turns == {t: clue_teams.count(t) for t in g.turns}
    phase = g.phase
    if phase in (Phase.GUESS, Phase.SUDDEN_DEATH):
        assert g.clue is not None and g.current_team is clue_teams[-1]
    if phase is Phase.GUESS:
        assert g.guesses_made >= 0
        if g.max_guesses is not None:
            assert g.guesses_made < g.max_guesses  # reaching the cap ends the turn
    if phase is Phase.SUDDEN_DEATH:
        assert g.assassin_ending and not g.remaining(Identity.ASSASSIN) and g.max_guesses is None
    if phase is Phase.PENALTY_COVER:
        assert g.legality == "penalty" and g.current_team is clue_teams[-1].other
        assert not agents_done(g, g.current_team)
    if phase is Phase.SOLO_COVER:
        assert g.solo and g.current_team is start
    if phase is Phase.CLUE:
        assert g.clue is None and (g.current_team is start if g.single_team else True)
    if g.single_team:
        assert g.current_team is start or phase is Phase.PENALTY_COVER


def check_not_over(g: ClassicGame) -> None:
    assert g.winner is None and g.loss_cause is None and g.score() is None
    start = g.key.starting
    if g.single_team:
        assert not agents_done(g, start.other)
    if not g.assassin_ending:
        assert g.remaining(Identity.ASSASSIN)
        assert not agents_done(g, start) and not agents_done(g, start.other)
    else:
        assert g.remaining(Identity.ASSASSIN) or g.phase is Phase.SUDDEN_DEATH


def check_end(g: ClassicGame, last_guesser, last_move: dict) -> None:
    assert g.is_over and g.phase is Phase.OVER
    assert g.winner is not None and g.loss_cause is not None and g.loser is g.winner.other
    start = g.key.starting
    cause = g.loss_cause
    if g.single_team and g.winner is not start:
        # the solo / Kim team lost: assassin, a sudden-death mistake, or all opponent agents covered
        if cause is LossCause.OPPONENT:
            assert agents_done(g, start.other)
    if cause is LossCause.ASSASSIN:
        assert not g.assassin_ending and not g.remaining(Identity.ASSASSIN)
        assert last_move["type"] == "guess" and g.identity_of(last_move["word"]) is Identity.ASSASSIN
        assert g.loser is last_guesser
    elif cause is LossCause.MISTAKE:
        assert g.assassin_ending and not g.remaining(Identity.ASSASSIN) and g.loser is last_guesser
        assert last_move["type"] == "guess"
        assert g.identity_of(last_move["word"]) in (Identity.BYSTANDER, Identity.of_team(last_guesser.other))
    else:
        assert cause is LossCause.OPPONENT
        assert agents_done(g, g.winner)
        if g.assassin_ending and not (g.single_team and g.winner is not start):
            assert not g.remaining(Identity.ASSASSIN)  # the winner touched the assassin
        if not g.assassin_ending and not g.single_team:
            assert not agents_done(g, g.loser)  # the game stops at the first completed team
    if g.solo and g.winner is start:
        assert g.score() == len(g.remaining(Identity.of_team(start.other))) >= 1
    else:
        assert g.score() is None


def expect_refused(move, errors) -> None:
    try:
        move()
    except errors:
        pass
    else:  # pragma: no cover - reported as a failure
        raise AssertionError("a move that must be refused was accepted")


def check_refused(g: ClassicGame, move, errors) -> None:
    before = g.state_json()  # a fresh snapshot, sharing nothing with the game
    expect_refused(move, errors)
    assert g.state_json() == before


def check_everything_refused_after_end(g: ClassicGame) -> None:
    moves = [
        lambda: g.give_clue(Clue("clue", 1)),
        lambda: g.give_clue(Clue("clue", 0, unlimited=True)),
        g.stop,
        lambda: g.guess("not-a-card"),
    ]
    for w in g.words:
        moves += [lambda w=w: g.guess(w), lambda w=w: g.penalty_cover(w), lambda w=w: g.solo_cover(w)]
    before = g.state_json()
    for move in moves:
        expect_refused(move, GameOverError)
    assert g.state_json() == before


def try_a_refused_move(g: ClassicGame, rnd: random.Random) -> None:
    """Now and then, a move the rules refuse in this phase; it must change nothing."""
    covered = list(g.covered)
    phase = g.phase
    options = [(lambda: g.guess("not-a-card"), (WrongPhaseError, NotOnBoardError))]
    if phase is not Phase.CLUE:
        options.append((lambda: g.give_clue(Clue("clue", 1)), WrongPhaseError))
    else:
        options.append((lambda: g.give_clue(Clue("clue", -1)), InvalidClueError))
        options.append((lambda: g.guess(g.visible_words()[0]), WrongPhaseError))
    if phase is not Phase.GUESS or g.guesses_made == 0:
        options.append((g.stop, WrongPhaseError))
    if covered:
        options.append((lambda: g.guess(rnd.choice(covered)), (WrongPhaseError, AlreadyCoveredError)))
    if phase is Phase.SOLO_COVER:
        bad = g.remaining(Identity.BYSTANDER) + g.remaining(Identity.of_team(g.current_team))
        if bad:
            options.append((lambda: g.solo_cover(bad[0]), WrongCardError))
    if phase is Phase.PENALTY_COVER:
        bad = g.remaining(Identity.BYSTANDER) + g.remaining(Identity.of_team(g.current_team.other))
        if bad:
            options.append((lambda: g.penalty_cover(bad[0]), WrongCardError))
    move, errors = rnd.choice(options)
    check_refused(g, move, errors)


# ------------------------------------------------------------------ the random player
def play_randomly(g: ClassicGame, rnd: random.Random) -> None:
    clue_teams: list = []
    bad_in_a_row = 0
    last_guesser = None
    moves = 0
    check_cards(g)
    check_phase(g, clue_teams)
    while not g.is_over:
        moves += 1
        assert moves < MOVE_CAP, "game did not end"
        if rnd.random() < 0.2:
            try_a_refused_move(g, rnd)
        n_covered = len(g.covered)
        phase, team = g.phase, g.current_team
        if phase is Phase.CLUE:
            bad = g.legality != "off" and bad_in_a_row < 3 and rnd.random() < 0.15
            clue = Clue("bad" if bad else "clue", rnd.randint(0, 4), rnd.random() < 0.1)
            if bad and g.legality == "strict":
                check_refused(g, lambda: g.give_clue(clue), InvalidClueError)
                bad_in_a_row += 1
                continue
            result = g.give_clue(clue)
            clue_teams.append(team)
            assert result.legal is not bad and result.penalised is bad
            bad_in_a_row = bad_in_a_row + 1 if bad else 0
            added = 0
        elif phase is Phase.GUESS and g.guesses_made >= 1 and rnd.random() < 0.25:
            g.stop()
            added = 0
        elif phase in (Phase.GUESS, Phase.SUDDEN_DEATH):
            own = g.remaining(Identity.of_team(team))
            word = rnd.choice(own) if own and rnd.random() < 0.6 else rnd.choice(g.visible_words())
            made = g.guesses_made
            result = g.guess(word)
            last_guesser = team
            assert result.identity is g.identity_of(word)
            assert result.correct is (result.identity is Identity.of_team(team))
            assert result.game_over is g.is_over
            assert result.turn_over is (g.is_over or g.phase not in (Phase.GUESS, Phase.SUDDEN_DEATH))
            if not result.game_over and result.turn_over and result.correct:
                assert made + 1 == finished_clue_cap(g)  # a correct guess ends a turn only at the cap
            added = 1
        elif phase is Phase.PENALTY_COVER:
            g.penalty_cover(rnd.choice(g.remaining(Identity.of_team(team))))
            added = 1
        elif phase is Phase.SOLO_COVER:
            g.solo_cover(rnd.choice(g.remaining(Identity.of_team(team.other))))
            added = 1
        else:  # pragma: no cover
            raise AssertionError(f"unexpected phase {phase}")
        assert len(g.covered) == n_covered + added
        check_cards(g)
        if not g.is_over:
            check_phase(g, clue_teams)
            check_not_over(g)
    check_end(g, last_guesser, g.actions[-1])
    check_everything_refused_after_end(g)
    replayed = ClassicGame.from_config(g.config())
    replayed.replay(g.actions)
    assert replayed.state_json() == g.state_json()


def finished_clue_cap(g: ClassicGame) -> int | None:
    """The cap of the clue just finished (taken from the log: the last clue action)."""
    clue = next(a for a in reversed(g.actions) if a["type"] == "clue")
    if clue["unlimited"] or clue["count"] == 0:
        return None
    return clue["count"] + 1


def run(seed_rnd: random.Random, kind: str, **flags) -> None:
    with mock.patch.object(classic, "_check_clue", fake_check):
        g = new_game(seed_rnd, kind, **flags)
        play_randomly(g, seed_rnd)


# ------------------------------------------------------------------ the properties
SETTINGS = settings(max_examples=600, deadline=None)


@SETTINGS
@given(st.randoms(use_true_random=True), st.booleans())
def test_random_classic_games(rnd: random.Random, three_player: bool) -> None:
    run(rnd, "classic", three_player=three_player)


@SETTINGS
@given(st.randoms(use_true_random=True), st.sampled_from(["classic", "pictures"]), st.booleans())
def test_random_solo_games(rnd: random.Random, kind: str, assassin_ending: bool) -> None:
    run(rnd, kind, solo=True, assassin_ending=assassin_ending)


@SETTINGS
@given(st.randoms(use_true_random=True), st.sampled_from(["classic", "pictures"]))
def test_random_assassin_ending_games(rnd: random.Random, kind: str) -> None:
    run(rnd, kind, assassin_ending=True)


@SETTINGS
@given(st.randoms(use_true_random=True))
def test_random_pictures_games(rnd: random.Random) -> None:
    run(rnd, "pictures")


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=True), st.booleans())
def test_random_kim2019_games(rnd: random.Random, solo: bool) -> None:
    run(rnd, "kim2019", solo=solo)

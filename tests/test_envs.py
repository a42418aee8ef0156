"""The PettingZoo environments and the Gymnasium wrappers (spymaster_ai.envs).

PettingZoo's own api_test runs on each environment and variant. The fairness test changes the
key where no guesser can have seen it (identities of cards still hidden) and checks that every
guesser observation stays the same while the spymasters' change.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.passive_env_checker import (
    check_action_space,
    check_observation_space,
    env_reset_passive_checker,
    env_step_passive_checker,
)
from pettingzoo.test import api_test

from spymaster_ai.envs import GuesserEnv, SpymasterEnv, classic_env, duet_env, kim2019_env
from spymaster_ai.rules.cards import ClassicKey, DuetKey
from spymaster_ai.rules.classic import ClassicGame
from spymaster_ai.rules.moves import GiveClue

VARIANTS = {
    "classic": lambda: classic_env(),
    "duet": lambda: duet_env(),
    "kim2019": lambda: kim2019_env(),
    "solo_penalty": lambda: classic_env(solo=True, legality="penalty"),
    "assassin_ending": lambda: classic_env(assassin_ending=True),
    "duet_moscow": lambda: duet_env(mission="moscow"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_pettingzoo_api_test_passes(variant):
    api_test(VARIANTS[variant](), num_cycles=300, verbose_progress=False)


def play_some(env, seed: int, steps: int):
    """The environment after ``steps`` random legal moves that do not end the game."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    for _ in range(steps):
        agent = env.agent_selection
        legal = [int(a) for a in np.flatnonzero(env.observe(agent)["action_mask"])]
        rng.shuffle(legal)
        for action in legal:  # the first action after which the game goes on
            trial = type(env.game).from_config(env.game.config())
            trial.replay(_logged(env.game))
            trial.apply(agent, env.layout.decode(action, trial.words, trial.phase))
            if not trial.is_over:
                env.step(action)
                break
        else:
            return env
    return env


def _logged(game):
    return game.actions if isinstance(game.actions, list) else list(game.actions)


def hidden_key_variant(game, rng: random.Random):
    """The same game replayed on a key that differs only on cards nobody has guessed."""
    state = game.state_json()
    touched = {w for w, *_ in state["covered"]} if isinstance(game, ClassicGame) else set(state["covered"])
    touched |= {w for w, _ in state.get("marks", ())}
    hidden = [i for i, w in enumerate(game.words) if w not in touched]
    if isinstance(game, ClassicGame):
        cells = list(game.key.identities)
        values = [cells[i] for i in hidden]
        rng.shuffle(values)
        for i, v in zip(hidden, values):
            cells[i] = v
        key = ClassicKey(tuple(cells), game.key.starting)
    else:
        a, b = list(game.key.side_a), list(game.key.side_b)
        for _ in range(50):  # swap B's side between hidden cards with the same A side: A's view is unchanged
            i, j = rng.sample(hidden, 2)
            if a[i] == a[j]:
                b[i], b[j] = b[j], b[i]
        key = DuetKey(tuple(a), tuple(b))
    other = type(game).from_config(dict(game.config(), key=key.to_json()))
    other.replay(_logged(game))
    return other


@pytest.mark.parametrize("make", [classic_env, duet_env, kim2019_env], ids=["classic", "duet", "kim2019"])
def test_guesser_observations_hold_no_key_information(make):
    env = make()
    for seat in env.possible_agents:
        fields = set(env.observation_space(seat)["observation"].spaces)
        assert ("key" in fields) == seat.endswith("_spymaster"), seat
    rng = random.Random(1)
    spymaster_changed = 0
    for seed in range(6):
        play_some(env, seed, steps=rng.randrange(0, 12))
        other = hidden_key_variant(env.game, rng)
        assert other.state_json() == env.game.state_json() or env.game_kind == "duet"
        original = env.game
        for seat in env.possible_agents:
            mine = env.observe(seat)["observation"]
            env.game = other
            theirs = env.observe(seat)["observation"]
            env.game = original
            same = all(np.array_equal(mine[k], theirs[k]) for k in mine)
            if seat.endswith("_guesser"):
                if env.game_kind == "duet":
                    # Duet: the swaps changed player B's side only, which A's guesser never sees.
                    if seat.startswith("a"):
                        assert same, f"{seat}'s observation depends on B's key side"
                else:
                    assert same, f"{seat}'s observation depends on hidden key cards"
            else:
                spymaster_changed += not same
    assert spymaster_changed, "the key changes were invisible to the spymasters too: the test checks nothing"


def test_mask_is_the_rules_legal_moves_and_illegal_actions_are_refused():
    env = classic_env()
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    legal = env.game.legal_moves(agent, env.layout.clue_words)
    assert int(mask.sum()) == len(legal)
    decoded = {env.layout.decode(int(a), env.game.words, env.game.phase) for a in np.flatnonzero(mask)}
    assert decoded == set(legal)
    illegal = next(a for a in range(env.layout.size) if not mask[a])
    before = env.game.state_json()
    with pytest.raises(ValueError, match="not a legal move"):
        env.step(illegal)
    assert env.game.state_json() == before
    board_word_clue = env.layout.n_clues  # first card action: a guess, not allowed to a spymaster
    assert not mask[board_word_clue]
    assert all(isinstance(m, GiveClue) for m in legal)


def test_same_seed_same_game():
    one, two = duet_env(), duet_env()
    one.reset(seed=11)
    two.reset(seed=11)
    assert one.game.config() == two.game.config()
    two.reset(seed=12)
    assert one.game.config() != two.game.config()


def test_rewards_are_the_duet_score():
    env = duet_env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, done, trunc, _ = env.last()
        total[agent] += reward
        env.step(None if done or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.game
    expected = game.score() if game.winner else -2.0
    assert set(total.values()) == {expected}


def test_guesser_env_passes_gymnasium_checks_and_plays():
    """Gymnasium's checks of spaces, reset and step (check_env itself steps unmasked random
    actions, which a masked environment refuses with an error, as it should)."""
    env = GuesserEnv("kim2019")
    check_observation_space(env.observation_space)
    check_action_space(env.action_space)
    obs, info = env_reset_passive_checker(env, seed=0)
    assert "key" not in obs["observation"]
    with pytest.raises(ValueError, match="not a legal move"):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    done, reward = False, 0.0
    while not done:
        obs, reward, done, _, info = env_step_passive_checker(env, int(np.flatnonzero(obs["action_mask"])[0]))
    assert reward in (-1.0, 1.0) and info["won"] == (reward == 1.0)


def test_spymaster_env_plays_with_builtin_guessers():
    env = SpymasterEnv("duet")
    obs, _ = env.reset(seed=0)
    assert "key" in obs["observation"] and env.learner == ("a_spymaster", "b_spymaster")
    done = False
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert reward == (env.aec.game.score() if info["won"] else -2.0)


def test_docs_examples_run_as_written():
    """Every python block of docs/envs.md runs, in order, as a reader would paste it."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "envs.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, "docs/envs.md", "exec"), {})

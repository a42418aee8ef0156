"""The AI partner for a person on boards in other languages: clear margins, no clue spelled
like a visible card, and the play settings that choose it (a German playtest lost three Duet
games on "word: 4" clues linked by spelling: LAGERN: 4, ZIELT: 4 beside ZIEGE)."""

from __future__ import annotations

import numpy as np
import pytest

from spymaster_ai.agents.registry import add_language, make_guesser, make_spymaster
from spymaster_ai.agents.spymaster import EmbeddingSpymaster, shares_letters
from spymaster_ai.agents.toy import ToyEmbedding
from spymaster_ai.play import PlaySettings
from spymaster_ai.views import SpymasterView

AXES = ("fruit", "space", "sea", "music", "other")


def vec(**axes: float) -> list[float]:
    return [axes.get(a, 0.0) for a in AXES]


VECTORS = {
    "apple": vec(fruit=1.0), "moon": vec(space=1.0), "shark": vec(sea=1.0, other=0.1),
    "piano": vec(music=1.0), "whale": vec(sea=1.0, other=-0.1), "rocket": vec(space=1.0, music=0.3),
    # clue words: "shork" is SHARK by its letters and (in this toy) by its vector too
    "fruit": vec(fruit=1.0), "galaxy": vec(space=1.0), "both": vec(fruit=1.0, space=1.0),
    "shork": vec(sea=1.0, other=0.1), "ocean": vec(sea=1.0, fruit=0.2), "melody": vec(music=1.0),
}
CLUES = ("fruit", "galaxy", "both", "shork", "ocean", "melody")
BOARD = ("apple", "moon", "shark", "piano", "whale", "rocket")


def view(own, assassins=()) -> SpymasterView:
    bad = set(own) | set(assassins)
    return SpymasterView(game="classic", me="red", words=BOARD, visible=BOARD, own=tuple(own), opponent=(),
                         bystanders=tuple(w for w in BOARD if w not in bad), assassins=tuple(assassins), history=())


def spymaster(**kw) -> EmbeddingSpymaster:
    kw.setdefault("min_zipf", None)
    kw.setdefault("hub_correction", False)
    kw.setdefault("prefer_common", 0.0)
    return EmbeddingSpymaster(ToyEmbedding(VECTORS, CLUES), **kw)


def test_margin_keeps_a_count_only_where_every_target_stands_out() -> None:
    """"both" reaches APPLE and MOON, but MOON no more than ROCKET (not ours): with a margin,
    no clue for two is given; each clue's targets lead every card not ours."""
    v = view(own=("apple", "moon"))
    assert spymaster(risk=1.0, max_count=2).rank_clues(v)[0].count == 2
    options = [o for o in spymaster(risk=1.0, max_count=2, margin=0.5).rank_clues(v, top=6) if np.isfinite(o.score)]
    assert options and {o.count for o in options} == {1}
    assert "galaxy" not in {o.word for o in options}  # MOON no clearer than ROCKET
    sims = ToyEmbedding(VECTORS, CLUES).similarity(list(BOARD), [o.word for o in options])
    z = (sims - sims.mean(axis=0)) / sims.std(axis=0)
    for j, o in enumerate(options):
        target = z[BOARD.index(o.targets[0]), j]
        others = [z[i, j] for i, w in enumerate(BOARD) if w not in v.own]
        assert target - max(others) >= 0.5


def test_a_clue_spelled_like_a_visible_card_is_never_given() -> None:
    v = view(own=("shark",))
    assert spymaster().give_clue(v).word == "shork"
    assert spymaster(avoid_lookalikes=True).give_clue(v).word != "shork"


@pytest.mark.parametrize("clue, card, alike", [
    ("volumen", "VOLLMOND", True), ("pfand", "PFAU", True), ("entwurf", "EISWÜRFEL", True),
    ("landschaft", "STRAND", False), ("flugzeug", "FLIEGE", False), ("benzin", "AUTO", False),
])
def test_shared_letters(clue: str, card: str, alike: bool) -> None:
    assert shares_letters(clue, [card], 4) is alike


def test_option_errors() -> None:
    with pytest.raises(ValueError, match="margin"):
        spymaster(margin=-1)
    with pytest.raises(ValueError, match="shared_letters"):
        spymaster(shared_letters=-1)


@pytest.mark.parametrize("lang", ["de", "vi", "fa"])
def test_play_partner_on_other_boards(lang: str) -> None:
    s = PlaySettings(mode="duet", seed=0, agent="e5small", lang=lang)
    spy, guesser = s.ai_spymaster_spec(), s.ai_guesser_spec()
    assert "max_count=2" in spy and "margin=" in spy and "avoid_lookalikes=true" in spy
    assert ("use3" in spy) is (lang == "de")  # the second model that reads German
    assert "duet_extra_ratio=3.0" in guesser
    make_spymaster(add_language(spy, lang), load=False)
    make_guesser(add_language(guesser, lang), load=False)


def test_english_and_explicit_specs_are_unchanged() -> None:
    assert PlaySettings(mode="duet", seed=0, agent="minilm").ai_spymaster_spec() == "minilm:risk=0.5"
    given = PlaySettings(mode="duet", seed=0, agent="e5small", lang="de", spymaster_spec="e5small:max_count=4")
    assert given.ai_spymaster_spec() == "e5small:max_count=4"
    assert PlaySettings(mode="duet", seed=0, agent="e5small").ai_spymaster_spec() == "e5small:risk=0.5"

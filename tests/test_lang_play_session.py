"""Play sessions on German boards, after the issue 32 playtest.

* German typed without umlauts (SUESSIGKEIT went through as written): a person on a keyboard
  without ä, ö, ü types ae, oe, ue; the session reads the word they spell when it is a card,
  a known clue word or a much more frequent German word, and says so.
* ``why`` gave no reading of the person's clue (that reading came from the English reader):
  it now shows the German AI guesser's own model scores, labelled as such.
"""

from __future__ import annotations

import unicodedata

import numpy as np
from wordfreq import zipf_frequency

from spymaster_ai.play import PlaySettings, Session, new_game
from spymaster_ai.play.parse import match_card, names_as_typed, read_spelling
from spymaster_ai.rules.lang.normalise import de_fold, de_umlaut_spellings
from spymaster_ai.rules.lang.words import clue_words

from test_play_session import RecordingGuesser, Scored, ScriptedSpymaster


def _read(word: str, board=()) -> str | None:
    return read_spelling(word, [*board, *clue_words("de")], de_fold, de_umlaut_spellings,
                         lambda w: zipf_frequency(w, "de"))


def test_umlaut_spellings_are_read_as_the_word_they_spell() -> None:
    assert de_umlaut_spellings("suessigkeit") == ["süssigkeit"]
    assert set(de_umlaut_spellings("aeoe")) == {"äoe", "aeö", "äö"}
    assert _read("SUESSIGKEIT") == "süssigkeit"  # no clue word, but a German word (Zipf 2.9)
    assert _read("MAEDCHEN") == "mädchen" and _read("baer") == "bär"  # clue words
    assert _read("MUENCHEN", board=["münchen"]) == "münchen"  # a card first
    # A word as typed is kept: QUELLE, FEUER, STEUER, AKTUELL are words with "ue".
    assert all(_read(w) is None for w in ("QUELLE", "feuer", "steuer", "aktuell", "haus", "michael"))


def test_a_card_is_named_with_ae_oe_ue() -> None:
    cards = ["brücke", "bär", "bus"]
    assert match_card("BRUECKE", cards, set(cards), fold=de_fold) == "brücke"
    assert match_card("bae", cards, set(cards), fold=de_fold) == "bär"
    assert match_card("bus", cards, set(cards), fold=de_fold) == "bus"
    assert not names_as_typed("BRUECKE", "brücke") and names_as_typed("brü", "brücke")


def test_the_session_reads_the_clue_and_tells_the_person() -> None:
    settings = PlaySettings(mode="duet", seed=4, lang="de", first="human", agent="e5small")
    game, labels = new_game(settings)
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": RecordingGuesser()}, labels)
    reply = session.answer("SUESSIGKEIT 1")
    notes = [e.text for e in reply.events if e.kind == "info"]
    assert "read SUESSIGKEIT as SÜSSIGKEIT" in notes
    assert [a["word"] for a in session.game.actions if a["type"] == "clue"][0] == "süssigkeit"


def test_english_boards_read_as_typed() -> None:
    settings = PlaySettings(mode="duet", seed=4, first="human", agent="glove50")
    game, labels = new_game(settings)
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": RecordingGuesser()}, labels)
    reply = session.answer("maedchen 1")
    assert not any(e.text.startswith("read ") for e in reply.events)


def test_why_gives_the_german_guessers_model_reading_of_the_persons_clue() -> None:
    """The AI guesser here ranks the visible cards in board order (scores 0, -1, -2...): the
    reading shows its three best with the softmax of those scores, said plainly to be a word
    model's odds (a playtester read the guesser's name and 'softmax' as jargon)."""
    settings = PlaySettings(mode="duet", seed=4, lang="de", first="human", agent="e5small")
    game, labels = new_game(settings)
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": Scored()}, labels)
    assert session.answer("tier 1").moved
    session.advance()  # the AI guesses
    line = next(line for line in session.why().splitlines() if line.startswith("your TIER: 1"))
    assert "how the AI read it (its word model's odds, not fitted to people)" in line
    named = line.rsplit("): ", 1)[1].split(", ")
    softmax = np.exp(-np.arange(25.0)) / np.exp(-np.arange(25.0)).sum()
    assert named == [f"{session.label(card)} {p:.0%}" for card, p in zip(game.words[:3], softmax[:3])]


def test_english_boards_keep_their_why() -> None:
    settings = PlaySettings(mode="duet", seed=4, first="human", agent="glove50")
    game, labels = new_game(settings)
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": Scored()}, labels)
    session.answer("animal 1")
    session.advance()
    assert "word model's odds" not in session.why()


def test_the_german_ai_guesser_reads_with_use3() -> None:
    """experiments/results/lang_de_guesser.md: use3's first pick is the meant card for 29 of
    60 clues a person would give, e5small's for 15; Vietnamese and Persian keep e5small."""
    german = PlaySettings(mode="duet", seed=1, lang="de", agent="e5small").ai_guesser_spec()
    assert german.startswith("use3:stop_threshold=") and "duet_extra_ratio=3.0" in german
    for lang in ("vi", "fa"):
        assert PlaySettings(mode="duet", seed=1, lang=lang, agent="e5small").ai_guesser_spec().startswith("e5small:")


# Issue 40: Persian typed with Arabic letters, ZWNJ in messages, Vietnamese typed without marks.
def _session(lang: str) -> Session:
    settings = PlaySettings(mode="duet", seed=4, lang=lang, first="human", agent="e5small")
    game, labels = new_game(settings)
    return Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": RecordingGuesser()}, labels)


def test_a_persian_guess_with_arabic_yeh_or_kaf_names_its_card() -> None:
    session = _session("fa")
    fold = session._spelling_fold()
    cards = list(session.game.words)
    persian = [c for c in cards if "ک" in c or "ی" in c]
    assert persian  # this seed's board has cards with the Persian kaf or yeh
    for card in persian:  # typed with the Arabic letters, each still names its card
        assert match_card(card.replace("ک", "ك").replace("ی", "ي"), cards, set(cards), fold=fold) == card
    arabic = ["مسواك", "صندلي"]  # and the reverse: a card written with Arabic letters
    assert match_card("مسواک", arabic, set(arabic), fold=fold) == "مسواك"
    assert match_card("صندلی", arabic, set(arabic), fold=fold) == "صندلي"


def test_a_refusal_shows_the_persian_zwnj_itself() -> None:
    session = _session("fa")
    card = next(c for c in session.game.words if "\u200c" not in c)
    reply = session.answer(f"{card}\u200cها 1")  # the plural of a card: a form (RULES.md §4)
    error = next(e.text for e in reply.events if e.kind == "error")
    assert "\u200c" in error and "\\u200c" not in error and "rule 2" in error and card in error


def test_a_vietnamese_clue_typed_without_marks_is_read_not_called_english() -> None:
    session = _session("vi")
    reply = session.answer("tien 1")
    assert reply.moved and "read TIEN as TIỀN" in [e.text for e in reply.events if e.kind == "info"]
    assert [a["word"] for a in session.game.actions if a["type"] == "clue"] == ["tiền"]


def test_a_vietnamese_guess_typed_without_marks_names_its_card() -> None:
    session = _session("vi")
    cards = list(session.game.words)
    fold = session._spelling_fold()
    bare = {card: _without_marks(card) for card in cards}
    unique = [c for c in cards if c != bare[c] and list(bare.values()).count(bare[c]) == 1]
    assert len(unique) >= 5  # this seed's board: giấy, chìa khóa, người máy, ...
    for card in unique:
        assert match_card(bare[card], cards, set(cards), fold=fold) == card


def _without_marks(word: str) -> str:
    """The word as typed on a keyboard without Vietnamese marks: giấy -> giay, đậu -> dau."""
    stripped = "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))
    return stripped.replace("đ", "d").replace("Đ", "D")

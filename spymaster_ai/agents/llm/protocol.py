"""Prompts and answer parsing after Stephenson, Sidji and Ronval (2024), "Codenames as a
Benchmark for Large Language Models" (arXiv:2412.11373), as their published agents do it
(github.com/stepmat/Codenames_GPT, ``codenames/players/codemaster_GPT.py``,
``guesser_GPT.py``, ``gpt_manager.py``, read at commit 7348840).

What follows them: one chat per agent and game, opened by a system message with the rules and
the agent's role and colour; every request repeats the remaining words (the spymaster's by
identity: Red, Blue, Civilian, Assassin) and the clue as ``(CLUE, N)``; the spymaster answers
``('pebble',2)`` and nothing else, parsed as the letters before the comma and the digits
after it; the guesser answers one remaining word, then after each correct guess ``yes`` or
``no`` to going on; a refused answer is followed by a message saying why, then the same
request again. The wording is ours (paraphrased), their structure and format are kept.
Differences are listed in docs/llm.md.
"""

from __future__ import annotations

import re
from typing import Optional

from ...rules.moves import Clue

CLASSIC_RULES = """Codenames is a game of word association and communication in English.
Two teams, red and blue, each have a Codemaster and a Guesser.
The board holds 25 English words. The Codemasters see a secret map saying what each word is: Red, Blue, Civilian or Assassin. The Guessers do not see it.
Each turn the team's Codemaster gives a clue and a number (how many words the clue is about).
A clue must be one English word, related in meaning to the words it is meant for, and must not be derived from a word on the board nor one of them derived from it.
The Guesser then picks remaining words one at a time, those most associated with the clue. Every pick is revealed to everyone.
A pick of the team's own colour lets the Guesser pick again; any other pick ends the turn.
A Guesser must pick at least once a turn, may stop after any pick, and may pick at most one word more than the number.
The game ends when a team's words are all picked (that team wins), or when the Assassin is picked (the team that picked it loses).
"""

DUET_RULES = """Codenames Duet is a cooperative game of word association and communication in English.
Two players share a board of 25 English words; each sees one side of a secret map saying what each word is on that side: Green, Civilian or Assassin.
In turn each player gives a clue and a number for the Green words of their own side; the other player, the Guesser, picks remaining words one at a time.
A clue must be one English word and must not be derived from a word on the board nor one of them derived from it.
A Green pick lets the Guesser pick again; a Civilian pick ends the turn; an Assassin pick loses the game for both.
The players win together when every Green word of both sides is picked before the turns run out.
"""

# The answer format both roles are shown (the spymaster's example is theirs).
CLUE_FORMAT = "('pebble',2)"


def system_prompt(game: str, me: str, role: str) -> str:
    """The rules and the agent's seat: its colour (classic) or player (Duet), and its role."""
    if game == "duet":
        return DUET_RULES + f"You are player {me} of Codenames Duet, playing as the {role}. "
    return CLASSIC_RULES + f"You are playing the game Codenames as the {me.capitalize()} {role}. "


def _listed(words) -> str:
    return str([w.upper() for w in words])


def clue_request(view) -> str:
    """The spymaster's request: the remaining words by identity, and the answer format."""
    if view.game == "duet":
        groups = [("Green", view.own), ("Civilian", view.bystanders), ("Assassin", view.assassins)]
    else:
        mine, theirs = (view.me, "blue" if view.me == "red" else "red")
        groups = [(mine.capitalize(), view.own), (theirs.capitalize(), view.opponent),
                  ("Civilian", view.bystanders), ("Assassin", view.assassins)]
    listed = " ".join(f"{name}: {_listed(words)}." for name, words in groups)
    return (
        f"The words still on the board are: {listed} "
        f"Give one clue word and one number for your Guesser, written exactly as {CLUE_FORMAT}. "
        "The clue must not be derived from a word on the board, nor one of them from it. "
        "Answer in exactly this format, with no other text. "
    )


def parse_clue(text: str) -> Optional[Clue]:
    """``('pebble',2)`` -> Clue("pebble", 2): letters of the part before the first comma, digits
    of the part after it (as their parser reads it); None when either is missing."""
    parts = text.strip().split(",")
    if len(parts) < 2:
        return None
    word = re.sub(r"[^a-z]", "", parts[0].lower())
    digits = re.sub(r"[^0-9]", "", parts[1])
    if not word or not digits:
        return None
    return Clue(word, int(digits))


def remaining(view) -> list[str]:
    """The words the guesser may still pick (in Duet, not those it already marked)."""
    marked = set(view.marked_by_me)
    return [w for w in view.visible if w not in marked]


def guess_request(view) -> str:
    clue = view.clue
    return (
        f"The words still on the board are: {_listed(remaining(view))}. "
        f"Your Codemaster's clue is: ({clue.word.upper()}, {clue.count}). "
        "Pick the one remaining word most associated with this clue. "
        "Answer with that word only, exactly as it is written on the board, with no other text. "
    )


def continue_request(view) -> str:
    clue = view.clue
    return (
        f"The words still on the board are: {_listed(remaining(view))}. "
        f"Your Codemaster's clue is: ({clue.word.upper()}, {clue.count}). "
        f"You have picked {view.guesses_made} words this turn. "
        "Do you want to keep picking? Answer only 'yes' or 'no'. "
    )


def parse_guess(text: str, words: list[str]) -> Optional[str]:
    """The board word the answer names: all of it, its first token, or a quoted word."""
    upper = {w.upper(): w for w in words}
    answer = text.strip().upper()
    candidates = [answer, answer.split(" ")[0].strip(" .,!'\""), *re.findall(r"['\"]([^'\"]+)['\"]", answer)]
    for candidate in candidates:
        if candidate.strip() in upper:
            return upper[candidate.strip()]
    return None


def parse_continue(text: str) -> Optional[bool]:
    """yes -> True, no -> False (checked in that order, as theirs), else None."""
    low = text.lower()
    if "yes" in low:
        return True
    if "no" in low:
        return False
    return None


# Why an answer was refused: the message that opens the next request.
BAD_FORMAT = "That answer is not in the required format. "
ZERO_COUNT = "The number must be at least one. "
BAD_WORD = "That is not one of the remaining words. "
BAD_YES_NO = "That is not a valid answer: reply only 'yes' or 'no'. "


def illegal_clue(reason: str) -> str:
    return f"That clue is not allowed: {reason.rstrip('.')}. "

"""Do two source trees play the same play sessions? Every prompt, reply, event and screen written out.

Why: moving the play session onto the engines' move surface (rules: current_seats,
legal_moves, apply) and splitting it must change nothing a person sees, nor how a saved game
replays. This script drives many scripted sessions with no terminal (and a few through the
terminal front end, :func:`spymaster_ai.play.run_console`, into a recording console):
classic two-team (the person as spymaster and as guesser, either team, the Assassin Ending),
solo, penalty legality (penalty covers, the simulated opponent's covers), Duet (the person
first and the AI first, few tokens so that sudden death comes, the person handing a
sudden-death guess to the AI with 'ai', passes, stops, a mission), Pictures (picture and word
cards, two-team and solo), illegal clues refused, an unreadable clue offered back once, and
typing mistakes. The AI players are seeded glove50 agents (fast), the "human" guesser where a
clue's reading or an unknown word is wanted, and the seeded random guesser. The "person" is a
seeded script answering from what the board allows, sometimes wrongly on purpose.

For each session it writes, in ``--out``: a transcript (every Prompt, typed line, Reply,
Event and rendered Screen, then the summary and the key), the final save, and the result of
replaying saves (the final one, and one from the middle, resumed and played on).

    PYTHONPATH=. python experiments/session_identity.py --tree /work/wt-session-base --out /tmp/id_base
    PYTHONPATH=. python experiments/session_identity.py --tree . --out /tmp/id_new
    cmp -r ... or: diff -r /tmp/id_base /tmp/id_new && echo identical

``--tree`` is put first on ``sys.path`` (the script checks that ``spymaster_ai`` comes from it).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

CLUE_WORDS = (
    "zebra quantum saxophone galaxy tornado wizard violin glacier falcon harbor meteor canyon jungle pirate "
    "lantern compass orbit thunder marble velvet ocean music animal metal water"
).split()


@dataclass(frozen=True)
class Case:
    name: str
    settings: dict
    guesser: str = "glove50:stop_threshold=0.5"  # the partner's guesser spec
    console: bool = False  # drive it through run_console instead of the Session calls
    chatty: float = 0.15  # how often the person types something other than a move
    extra: dict = field(default_factory=dict)


def cases(seeds: int) -> list[Case]:
    out: list[Case] = []
    for seed in range(1, seeds + 1):
        for role in ("guesser", "spymaster"):
            for team in ("red", "blue"):
                out.append(Case(f"classic_{role}_{team}_{seed}", dict(mode="classic", seed=seed, role=role, team=team),
                                guesser="human" if role == "spymaster" and team == "blue" else "glove50:stop_threshold=0.5"))
        out.append(Case(f"classic_penalty_spymaster_{seed}", dict(mode="classic", seed=seed, role="spymaster", penalty=True)))
        out.append(Case(f"classic_assassin_ending_{seed}", dict(mode="classic", seed=seed, role="guesser",
                                                                assassin_ending=True), guesser="random"))
        out.append(Case(f"classic_assassin_person_{seed}", dict(mode="classic", seed=seed, role="guesser",
                                                                 assassin_ending=True), extra={"assassin": 0.15}))
        out.append(Case(f"classic_human_reader_{seed}", dict(mode="classic", seed=seed, role="spymaster"),
                        guesser="human"))
        for role in ("guesser", "spymaster"):
            for penalty in (False, True):
                out.append(Case(f"solo_{role}_{'penalty' if penalty else 'strict'}_{seed}",
                                dict(mode="solo", seed=seed, role=role, penalty=penalty)))
        for first in ("human", "ai"):
            for tokens in (9, 4, 2):
                out.append(Case(f"duet_{first}_t{tokens}_{seed}", dict(mode="duet", seed=seed, first=first, tokens=tokens),
                                guesser="human" if tokens != 9 else "glove50:stop_threshold=0.5"))
        out.append(Case(f"duet_penalty_{seed}", dict(mode="duet", seed=seed, first="human", tokens=3, penalty=True),
                        guesser="human"))
        out.append(Case(f"duet_mission_{seed}", dict(mode="duet", seed=seed, mission="cairo")))
        out.append(Case(f"pictures_guesser_{seed}", dict(mode="pictures", seed=seed, role="guesser")))
        out.append(Case(f"pictures_spymaster_{seed}", dict(mode="pictures", seed=seed, role="spymaster", penalty=True)))
        out.append(Case(f"pictures_solo_{seed}", dict(mode="pictures", seed=seed, role="spymaster", solo=True)))
        out.append(Case(f"pictures_words_{seed}", dict(mode="pictures", seed=seed, role="guesser", cards="words")))
        out.append(Case(f"console_classic_{seed}", dict(mode="classic", seed=seed, role="spymaster"), console=True))
        out.append(Case(f"console_duet_{seed}", dict(mode="duet", seed=seed, first="ai", tokens=3), console=True))
    return out


# ----------------------------------------------------------------------------- the person
class Person:
    """A seeded scripted person: reads the board (and the key, to play sensibly) through the
    engines' public API only, and types what a person might, mistakes included."""

    def __init__(self, session, rng: random.Random, chatty: float, illegal: float = 0.08, assassin: float = 0.0) -> None:
        self.session, self.rng, self.chatty, self.illegal, self.assassin = session, rng, chatty, illegal, assassin
        self.last = ""

    def _name(self, card: str) -> str:
        label = self.session.labels.get(card, card)
        r = self.rng.random()
        if r < 0.15 and len(label) > 4:
            return label[:4]  # a unique start, or an ambiguous one (refused)
        return label.upper() if r < 0.5 else label.lower()

    def line(self, prompt) -> str:
        self.last = self._line(prompt)
        return self.last

    def _line(self, prompt) -> str:
        from spymaster_ai.rules.cards import Identity, Player
        from spymaster_ai.rules.duet import DuetGame
        from spymaster_ai.rules.moves import Phase

        s, g, rng = self.session, self.session.game, self.rng
        r = rng.random()
        if r < self.chatty:
            return rng.choice(["why", "board", "help", "", "stop", "ai", "pass", "nonsense words here", "zzz"])
        visible = list(g.visible_words())
        if prompt.kind == "clue":
            if self.last == "xqzvbt 2" and rng.random() < 0.7:
                return self.last  # given anyway, once offered back
            r = rng.random()
            if r < self.illegal:
                return f"{s.labels.get(visible[0], visible[0])} 1"  # a board word: illegal
            if r < self.illegal + 0.08:
                return "xqzvbt 2"  # a word no model knows
            if r < self.illegal + 0.12:
                return "ocean"  # no number
            used = {line.clue.split(":")[0] for line in s.clues}
            word = next((w for w in rng.sample(CLUE_WORDS, len(CLUE_WORDS)) if w not in used), "zebra")
            count = rng.choice(["0", "1", "1", "2", "2", "3", "unlimited"])
            return f"{word} {count}" if rng.random() < 0.5 else f"{word}: {count}"
        if isinstance(g, DuetGame):
            wanted = [w for w in g.words_left_for(Player.B) if g.can_guess(Player.A, w)]
            if prompt.kind == "sudden_death":
                if prompt.handover and rng.random() < 0.4:
                    return "ai"
                if rng.random() < 0.08:
                    return "pass"
                pool = wanted if wanted and rng.random() < 0.85 else visible
                return self._name(rng.choice(pool))
            if rng.random() < (0.3 if g.correct_this_turn >= 1 else 0.04):
                return "stop"
            pool = wanted if wanted and rng.random() < 0.75 else visible
            return self._name(rng.choice(pool))
        if prompt.kind == "cover":
            team = g.current_team.other if g.phase is Phase.SOLO_COVER else g.current_team
            own = list(g.remaining(Identity.of_team(team)))
            pool = own if own and rng.random() < 0.8 else list(g.words)
            return self._name(rng.choice(pool))
        if prompt.kind == "guess" and rng.random() < (0.3 if g.guesses_made >= 1 else 0.04):
            return "stop"
        if prompt.kind == "guess" and rng.random() < self.assassin and g.remaining(Identity.ASSASSIN):
            return self._name(g.remaining(Identity.ASSASSIN)[0])  # Assassin Ending: sudden death
        own = list(g.remaining(Identity.of_team(g.current_team)))
        pool = own if own and rng.random() < 0.7 else list(g.words)
        return self._name(rng.choice(pool))


# ----------------------------------------------------------------------------- recording
class Log:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, text: str) -> None:
        self.lines.append(text)

    def events(self, events) -> None:
        for e in events:
            self.add(f"EVENT {e.kind}: {e.text}")

    def screen(self, screen) -> None:
        from rich.console import Console

        from spymaster_ai.play.render import render_screen

        console = Console(file=io.StringIO(), width=140, color_system=None, record=True, force_terminal=False)
        console.print(render_screen(screen))
        self.add("SCREEN " + repr(screen))
        self.add(console.export_text())

    def prompt(self, prompt) -> None:
        self.add(f"PROMPT {prompt!r}" if prompt is not None else "PROMPT None")


def make_agents(settings, guesser: str) -> dict:
    """Fresh seeded agents for the session's AI roles (the session resets them with its seeds)."""
    from spymaster_ai.agents.registry import make_guesser, make_spymaster
    from spymaster_ai.play import ai_roles

    out = {}
    for role in ai_roles(settings):
        if role.endswith("spymaster"):
            out[role] = make_spymaster("glove50:risk=0.5")
        else:
            partner = settings.mode == "duet" or settings.solo or role.startswith(settings.team)
            out[role] = make_guesser(guesser if partner else "glove50:stop_threshold=0.5")
    return out


def play_on(session, person: Person, log: Log, limit: int = 300) -> None:
    """Drive ``session`` with ``person`` until the end (or ``limit`` typed lines)."""
    for _ in range(limit):
        log.events(session.advance())
        prompt = session.prompt()
        log.prompt(prompt)
        if prompt is None:
            break
        line = person.line(prompt)
        log.add(f"TYPE {line!r}")
        reply = session.answer(line)
        log.add(f"REPLY moved={reply.moved} redraw={reply.redraw} quit={reply.quit}")
        log.events(reply.events)
        if reply.redraw:
            log.screen(session.screen())
    log.add(f"OVER {session.is_over} ERROR {session.error!r} MISMATCHES {session.mismatches}")
    log.screen(session.screen())
    events, key = session.summary()
    log.events(events)
    for screen in key:
        log.screen(screen)


def run_case(case: Case, out: Path) -> str:
    from spymaster_ai.play import PlaySettings, Session, new_game, run_console
    from spymaster_ai.play.store import check_saved, restore_session, session_record

    settings = PlaySettings(**case.settings)
    game, labels = new_game(settings)
    records: list[dict] = []
    session = Session(settings, game, make_agents(settings, case.guesser), labels,
                      save=lambda s: records.append(session_record(s)))
    log = Log()
    illegal = 0.3 if case.settings.get("penalty") else 0.08
    assassin = case.extra.get("assassin", 0.0)
    person = Person(session, random.Random(f"person-{case.name}"), case.chatty, illegal, assassin)
    if case.console:
        from rich.console import Console

        console = Console(file=io.StringIO(), width=140, color_system=None, record=True, force_terminal=False)
        asked = [0]

        def read(prompt_text: str) -> str:
            asked[0] += 1
            prompt = session.prompt()
            line = person.line(prompt) if prompt is not None and asked[0] < 300 else "quit"
            console.print(f"[typed] {line}")
            return line

        status = run_console(session, console, read=read, echo=False)
        log.add(f"CONSOLE status={status}")
        log.add(console.export_text())
    else:
        play_on(session, person, log)
    (out / f"{case.name}.transcript.txt").write_text("\n".join(log.lines) + "\n", encoding="utf-8")
    (out / f"{case.name}.save.json").write_text(json.dumps(records[-1] if records else None, indent=1,
                                                           ensure_ascii=False) + "\n", encoding="utf-8")
    # Replays: the final save, and the middle one resumed and played on by a fresh person.
    rlog = Log()
    for which, record in (("final", records[-1] if records else None), ("middle", records[len(records) // 2] if records else None)):
        rlog.add(f"== replay {which}")
        if record is None:
            rlog.add("no save")
            continue
        record = json.loads(json.dumps(record))
        try:
            saved = check_saved(record, which)
            again = restore_session(saved, which, make_agents(settings, case.guesser))
        except Exception as exc:  # recorded, not raised: a refusal is a result to compare
            rlog.add(f"REFUSED {type(exc).__name__}: {exc}")
            continue
        rlog.add(f"MISMATCHES {again.mismatches} OVER {again.is_over} ERROR {again.error!r}")
        rlog.add(f"STATE {json.dumps(again.game.state_json(), sort_keys=True)}")
        rlog.add(f"TARGETS {again.targets!r}")
        rlog.add(f"READINGS {again.readings!r}")
        rlog.add(f"CLUES {again.clues!r}")
        rlog.prompt(again.prompt())
        rlog.screen(again.screen())
        if which == "middle":
            play_on(again, Person(again, random.Random(f"resumed-{case.name}"), case.chatty, illegal, assassin), rlog)
    (out / f"{case.name}.replay.txt").write_text("\n".join(rlog.lines) + "\n", encoding="utf-8")
    over = session.is_over
    return f"{case.name}: {'over' if over else 'not over'}, {len(records)} saves"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, required=True, help="the source tree to import spymaster_ai from")
    parser.add_argument("--out", type=Path, required=True, help="folder for the transcripts, saves and replays")
    parser.add_argument("--seeds", type=int, default=5, help="seeds 1..N of every case")
    parser.add_argument("--only", default="", help="run only the cases whose name contains this")
    args = parser.parse_args()
    tree = args.tree.resolve()
    sys.path.insert(0, str(tree))
    import spymaster_ai

    if not Path(spymaster_ai.__file__).resolve().is_relative_to(tree):
        raise SystemExit(f"spymaster_ai comes from {spymaster_ai.__file__}, not from {tree}")
    args.out.mkdir(parents=True, exist_ok=True)
    for case in cases(args.seeds):
        if args.only in case.name:
            print(run_case(case, args.out), flush=True)


if __name__ == "__main__":
    main()

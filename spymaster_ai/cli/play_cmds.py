"""``spymaster-ai play classic|solo|duet|pictures`` and ``spymaster-ai play resume FILE``.

A human plays one seat in the terminal, the AI the others. The game is saved after every move
while the save path is writable (default: ``spymaster-<mode>-<seed>.json`` in the current
folder; ``--save FILE`` elsewhere, ``--no-save`` not at all); when it cannot be written the
player is told in one line and offered another path, and the game goes on in memory.
``play resume FILE`` continues a saved game (a finished one is shown, not resumed). The save
file holds the key card (the engine replays the moves from it): the command warns a guesser
not to open it.
Bad options print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Optional

import typer

from .app import app
from .errors import BadInput, check_output_file, fail, user_errors

play_app = typer.Typer(
    name="play",
    help="Play Codenames in the terminal with AI partners: classic, solo, duet, pictures; resume a saved game.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(play_app, name="play")


def _bad_input_types() -> tuple[type[BaseException], ...]:
    from ..play import SaveFileError, SettingsError

    return user_errors(SettingsError, SaveFileError)


def _console(no_color: bool):
    from rich.console import Console

    return Console(no_color=True if no_color else None, highlight=False)


# Options shared by the four game commands.
SeedOpt = typer.Option(None, "--seed", min=0, metavar="N", help="Board seed (default: a random one, printed).")
AgentOpt = typer.Option("human", "--agent", metavar="NAME",
                        help="The AI partner: human (default: reads and gives clues as people do), or an embedding "
                             "(minilm, glove50, mpnet...).")
LevelOpt = typer.Option("normal", "--level", metavar="LEVEL", help="The opposing AI team: easy, normal or hard.")
RiskOpt = typer.Option(0.5, "--risk", min=0.0, max=1.0, metavar="RISK", help="The AI's risk appetite, 0 (cautious) to 1 (bold).")
SpySpecOpt = typer.Option(None, "--spymaster-spec", metavar="SPEC", help="Full agent spec for AI spymasters (overrides --agent/--risk).")
GuesserSpecOpt = typer.Option(None, "--guesser-spec", metavar="SPEC", help="Full agent spec for AI guessers (overrides --agent/--risk).")
PenaltyOpt = typer.Option(
    False, "--penalty",
    help="Play an illegal clue with the rule's penalty instead of refusing it (a refused clue costs nothing).",
)
SaveOpt = typer.Option(
    None, "--save", metavar="FILE",
    help="Save file, written after every move while it can be (default: spymaster-<mode>-<seed>.json here); "
         "if it cannot, play says so and asks for another path.",
)
NoSaveOpt = typer.Option(False, "--no-save", help="Do not save the game.")
ForceOpt = typer.Option(False, "--force", help="Overwrite an existing save file.")
WordlistOpt = typer.Option("classic", "--wordlist", metavar="NAME", help="Board word list.")
NoColorOpt = typer.Option(False, "--no-color", help="No colours (identities are also written as words).")
FreshOpt = typer.Option(False, "--fresh", help="Ignore your profile (how the AI learned you read clues) for this "
                                                "game: it is neither read nor changed.")
LangOpt = typer.Option("en", "--lang", metavar="en|de|vi|fa",
                       help="Board language: its cards, legality rules and clue words (prompts stay English; "
                            "the AI partner reads it through a speaker's glossary of each word's English senses, unless "
                            "--agent or a spec says otherwise; --agent e5small: the multilingual model).")


def _start(settings_kw: dict, *, save: Optional[Path], no_save: bool, force: bool, no_color: bool,
           png: Optional[Path] = None, fresh: bool = False) -> None:
    """Validate, deal, load the AI, then hand over to the console loop."""

    def run() -> int:
        from ..play import PlaySettings, default_save_path, hold_save
        from ..play.settings import agent_for_language

        seed = settings_kw.pop("seed")
        if "agent" in settings_kw:
            settings_kw["agent"] = agent_for_language(settings_kw["agent"], settings_kw.get("lang", "en"))
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        settings = PlaySettings(seed=seed, **settings_kw)
        if no_save and save is not None:
            raise BadInput("--save and --no-save contradict each other: give one of them")
        path = None if no_save else (save or default_save_path(settings))
        check_output_file(path, "--save", probe=False)  # an unwritable one: the game goes on in memory
        if path is None:
            return play(settings, path)
        with hold_save(path):  # a file a live session holds is refused, --force or not
            return play(settings, path)

    def play(settings, path) -> int:
        from ..play import Session, load_session_agents, new_game, run_console, saver
        from ..play.profile import start_learning
        from ..play.session import Event

        if path is not None and path.exists() and not force:
            raise BadInput(_exists_message(path))
        if png is not None and settings.mode != "pictures":
            raise BadInput("--png applies to play pictures")
        check_output_file(png, "--png", probe=False)
        for wanted, what in ((path, "--save"), (png, "--png")):
            if wanted is not None and not wanted.parent.is_dir():
                raise BadInput(f"{what}: no folder {wanted.parent}")
        game, labels = new_game(settings)
        agents = load_session_agents(settings)
        learner, profile, said, warned = start_learning(settings, agents, fresh)
        session = Session(settings, game, agents, labels, save=saver(path) if path is not None else None, learner=learner)
        intro = [Event("info", f"{settings.describe()}. Seed {settings.seed} (the same board again: --seed {settings.seed}).")]
        intro += [Event("warning", w) for w in warned] + [Event("info", line) for line in said]
        if path is not None and session.save_now():  # the file exists from the first moment
            intro.append(Event("info", f"The game is saved after every move in {path}."))
            if not settings.human_holds_key:
                intro.append(Event("warning", f"Spoiler: {path} holds the key card (it is needed to replay the game); "
                                              "do not open it before the game ends."))
        return _play_and_keep(session, profile, lambda: run_console(session, _console(no_color), save_path=path,
                                                                     png=png, intro=intro))

    _run(run)


def _play_and_keep(session, profile, play) -> int:
    """Play, then keep what the game taught of the person in their profile (finished, quit
    or interrupted alike)."""
    from ..play.profile import keep_profile, learned_line

    learner = session.learner
    before = (learner.adaptation.choices, learner.adaptation.clues) if learner is not None else (0, 0)
    try:
        return play()
    finally:
        failed = keep_profile(profile, session.learner)
        if failed:
            typer.echo(f"Warning: {failed}", err=True)
        line = learned_line(session.learner, before)
        if line:
            typer.echo(line + (" See 'spymaster-ai play profile'." if profile is not None and not failed else ""))


def _mismatch_line(n: int, profile: bool, fresh: bool) -> str:
    """Why past AI moves would come out differently on resume: with a profile, mostly because
    the AI has learned more of the person since (it replays with what it knows now)."""
    moves = f"{n} past AI move{'s' if n != 1 else ''} would come out differently now"
    if profile:
        why = ("the AI has since learned more of how you read clues (see 'spymaster-ai play profile'), "
               "or is another version")
    elif fresh:
        why = "--fresh sets aside what the AI had learned of you, or this is another version of the AI"
    else:
        why = "this is another version of the AI"
    return f"{moves}: {why}. The saved moves are kept."


@play_app.command("profile")
def play_profile() -> None:
    """What the AI has learned of how you read clues: where it is kept, from how many guesses
    and clues, and its three largest differences from most people, in words."""

    def run() -> int:
        from ..agents.human.reader import load_params
        from ..play.profile import default_profile_path, describe_profile, read_profile

        path = default_profile_path()
        if not path.exists():
            typer.echo(f"No profile yet at {path}: the AI has not learned you (play a game without --fresh).")
            return 0
        try:
            profile = read_profile(path, load_params())
        except (OSError, ValueError) as exc:
            raise BadInput(f"the profile {path} cannot be read ({exc}); the next game sets it aside, "
                           "or 'spymaster-ai play forget' deletes it") from None
        typer.echo("\n".join(describe_profile(profile)))
        return 0

    _run(run)


@play_app.command("forget")
def play_forget() -> None:
    """Delete your profile: the AI forgets how you read clues."""
    from ..play.profile import forget_profile

    typer.echo(forget_profile())


def _exists_message(path: Path) -> str:
    """Why an existing --save file is not overwritten: resume it, unless its game is over."""
    from ..play import SaveFileError, read_saved
    from ..play.session import result_events

    try:
        saved = read_saved(path)
    except SaveFileError:
        saved = None
    if saved is not None and saved.game.is_over:
        result = " ".join(e.text for e in result_events(saved.settings, saved.game)[:1])
        return f"{path} holds a finished game ({result}); choose another --save file (or --force to overwrite it)"
    return (f"{path} exists: continue it with 'spymaster-ai play resume {path}', "
            "or choose another --save file (or --force to overwrite it)")


def _run(run) -> None:
    bad = _bad_input_types()
    try:
        status = run()
    except bad as exc:
        fail(str(exc))
    except KeyboardInterrupt:  # while the AI thinks: the moves saved so far are kept
        typer.echo("\nInterrupted; every move saved so far is kept.", err=True)
        status = 130
    raise typer.Exit(status)


@play_app.command("classic")
def play_classic(
    role: str = typer.Option("guesser", "--role", metavar="spymaster|guesser", help="Your role: spymaster or guesser."),
    team: str = typer.Option("red", "--team", metavar="red|blue", help="Your team: red or blue."),
    assassin_ending: bool = typer.Option(False, "--assassin-ending", help="Assassin Ending variant."),
    seed: Optional[int] = SeedOpt, agent: str = AgentOpt, risk: float = RiskOpt, level: str = LevelOpt,
    spymaster_spec: Optional[str] = SpySpecOpt, guesser_spec: Optional[str] = GuesserSpecOpt,
    penalty: bool = PenaltyOpt, save: Optional[Path] = SaveOpt, no_save: bool = NoSaveOpt, force: bool = ForceOpt,
    wordlist: str = WordlistOpt, no_color: bool = NoColorOpt, lang: str = LangOpt, fresh: bool = FreshOpt,
) -> None:
    """Classic Codenames, two teams: you take one role on one team, the AI the other three."""
    _start(dict(mode="classic", seed=seed, role=role, team=team, agent=agent, risk=risk, level=level, spymaster_spec=spymaster_spec,
                guesser_spec=guesser_spec, penalty=penalty, assassin_ending=assassin_ending, wordlist=wordlist, lang=lang),
           save=save, no_save=no_save, force=force, no_color=no_color, fresh=fresh)


@play_app.command("solo")
def play_solo(
    role: str = typer.Option("guesser", "--role", metavar="spymaster|guesser", help="Your role: spymaster (the AI guesses) or guesser (the AI clues)."),
    seed: Optional[int] = SeedOpt, agent: str = AgentOpt, risk: float = RiskOpt,
    spymaster_spec: Optional[str] = SpySpecOpt, guesser_spec: Optional[str] = GuesserSpecOpt,
    penalty: bool = PenaltyOpt, save: Optional[Path] = SaveOpt, no_save: bool = NoSaveOpt, force: bool = ForceOpt,
    wordlist: str = WordlistOpt, no_color: bool = NoColorOpt, lang: str = LangOpt, fresh: bool = FreshOpt,
) -> None:
    """Classic Codenames, two-player variant: you and the AI against a simulated opponent; scored."""
    _start(dict(mode="solo", seed=seed, role=role, agent=agent, risk=risk, spymaster_spec=spymaster_spec,
                guesser_spec=guesser_spec, penalty=penalty, wordlist=wordlist, lang=lang),
           save=save, no_save=no_save, force=force, no_color=no_color, fresh=fresh)


@play_app.command("duet")
def play_duet(
    mission: Optional[str] = typer.Option(None, "--mission", metavar="NAME", help="Campaign mission: prague, moscow, bangkok, singapore, cairo, berlin."),
    tokens: Optional[int] = typer.Option(None, "--tokens", metavar="N", help="Timer tokens (default 9)."),
    mistakes: Optional[int] = typer.Option(None, "--mistakes", metavar="N", help="Bystander-face tokens (missions: the second number)."),
    first: str = typer.Option("ai", "--first", metavar="ai|human", help="Who gives the first clue: ai or human."),
    seed: Optional[int] = SeedOpt, agent: str = AgentOpt, risk: float = RiskOpt,
    spymaster_spec: Optional[str] = SpySpecOpt, guesser_spec: Optional[str] = GuesserSpecOpt,
    penalty: bool = PenaltyOpt, save: Optional[Path] = SaveOpt, no_save: bool = NoSaveOpt, force: bool = ForceOpt,
    wordlist: str = WordlistOpt, no_color: bool = NoColorOpt, lang: str = LangOpt, fresh: bool = FreshOpt,
) -> None:
    """Codenames Duet with an AI partner: you see your side of the key, the AI the other."""
    _start(dict(mode="duet", seed=seed, mission=mission, tokens=tokens, mistakes=mistakes, first=first, agent=agent,
                risk=risk, spymaster_spec=spymaster_spec, guesser_spec=guesser_spec, penalty=penalty, wordlist=wordlist, lang=lang),
           save=save, no_save=no_save, force=force, no_color=no_color, fresh=fresh)


@play_app.command("pictures")
def play_pictures(
    role: str = typer.Option("guesser", "--role", metavar="spymaster|guesser", help="Your role: spymaster or guesser."),
    team: str = typer.Option("red", "--team", metavar="red|blue", help="Your team: red or blue."),
    solo: bool = typer.Option(False, "--solo", help="The two-player variant against a simulated opponent."),
    cards: str = typer.Option("pictures", "--cards", metavar="pictures|words", help="pictures (the shipped deck, shown by captions) or words (20 word cards)."),
    png: Optional[Path] = typer.Option(None, "--png", metavar="FILE", help="Write the board as a PNG image here after every move."),
    assassin_ending: bool = typer.Option(False, "--assassin-ending", help="Assassin Ending variant."),
    seed: Optional[int] = SeedOpt, agent: str = AgentOpt, risk: float = RiskOpt, level: str = LevelOpt,
    spymaster_spec: Optional[str] = SpySpecOpt, guesser_spec: Optional[str] = GuesserSpecOpt,
    penalty: bool = PenaltyOpt, save: Optional[Path] = SaveOpt, no_save: bool = NoSaveOpt, force: bool = ForceOpt,
    wordlist: str = WordlistOpt, no_color: bool = NoColorOpt, lang: str = LangOpt, fresh: bool = FreshOpt,
) -> None:
    """Codenames Pictures (5x4): picture cards named by their captions; the AI reads the captions."""
    _start(dict(mode="pictures", seed=seed, role=role, team=team, solo=solo, cards=cards, agent=agent, risk=risk, level=level,
                spymaster_spec=spymaster_spec, guesser_spec=guesser_spec, penalty=penalty,
                assassin_ending=assassin_ending, wordlist=wordlist, lang=lang),
           save=save, no_save=no_save, force=force, no_color=no_color, png=png, fresh=fresh)


@play_app.command("resume")
def play_resume(
    file: Path = typer.Argument(..., metavar="FILE", help="A save file written by spymaster-ai play."),
    png: Optional[Path] = typer.Option(None, "--png", metavar="FILE", help="Pictures: write the board as a PNG image here."),
    no_color: bool = NoColorOpt, fresh: bool = FreshOpt,
) -> None:
    """Continue a saved game where it stopped (the AI players are rebuilt from their specs and seed).

    A finished game is not resumed: its result and key are shown.
    """

    def run() -> int:
        from ..play import hold_save

        with hold_save(file):  # another live session on this file: refused before anything is read
            return resume()

    def resume() -> int:
        from ..play import load_session_agents, read_saved, resume_session, run_console
        from ..play.console import show_finished
        from ..play.profile import start_learning
        from ..play.session import Event

        saved = read_saved(file)  # a bad file fails here, before any model is loaded
        if saved.game.is_over:
            return show_finished(_console(no_color), file, saved.settings, saved.game, saved.labels)
        if png is not None and saved.settings.mode != "pictures":
            raise BadInput("--png applies to pictures sessions")
        if png is not None and not png.parent.is_dir():
            raise BadInput(f"--png: no folder {png.parent}")
        # the AI replays with the person's weights, as it played; it learns only from the moves
        # after the replay (the replayed guesses were learned when first made)
        agents = load_session_agents(saved.settings)
        learner, profile, said, warned = start_learning(saved.settings, agents, fresh)
        session = resume_session(file, agents)
        session.learner = learner
        moves = len(saved.record["actions"])
        intro = [Event("info", f"Resumed {file}: {saved.settings.describe()}, seed {saved.settings.seed}, "
                               f"{moves} move{'s' if moves != 1 else ''} replayed.")]
        intro += [Event("warning", w) for w in warned] + [Event("info", line) for line in said]
        if session.mismatches:
            intro.append(Event("warning", _mismatch_line(session.mismatches, profile is not None, fresh)))
        if session.save_now():  # a folder that became read-only shows now, not after the next move
            intro.append(Event("info", f"The game is saved after every move in {file}."))
        return _play_and_keep(session, profile, lambda: run_console(session, _console(no_color), save_path=file,
                                                                     png=png, intro=intro))

    _run(run)

"""The FastAPI app behind ``spymaster-ai serve``: pages, a JSON API and the static files.

Routes (``{id}`` is a game's unguessable id; the seat token travels in the ``seat-{id}``
cookie set when the game starts, or in an ``X-Seat-Token`` header for the JSON API):

* ``GET /`` the new-game form; ``POST /games`` starts one (form) and opens it.
* ``GET /g/{id}`` the game page; ``GET /g/{id}/board`` the board fragment the page polls;
  ``POST /g/{id}/move`` a typed or clicked move (form; JSON back when asked for it);
  ``GET /g/{id}/seat/{token}`` the seat link: sets the cookie on another browser.
* ``POST /api/games``, ``GET /api/games/{id}``, ``POST /api/games/{id}/move``: the same in JSON.
* ``/static/*`` CSS and JS, ``/deck/*`` the picture cards' images.
* ``POST /profile/forget``, ``GET|DELETE /api/profile``: the browser's profile (how the AI
  learned its person reads clues; opt-in with ``learn=browser`` on a new game), in words, or
  deleted. Its random id travels in the HttpOnly ``profile`` cookie; the server keeps only
  the id's SHA-256.

Anyone may look at a game (a spectator: the public board only, see :mod:`.present`); only the
seat token plays and sees the seat's view. Every refusal is a clear message and changes nothing.
"""

from __future__ import annotations

import json
import secrets
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Optional, Sequence

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from ..play.settings import LEVELS, PlaySettings, SettingsError, agent_for_language
from ..play.store import SaveFileError
from .db import GameStore
from .games import AgentFactory, GameHub, LiveGame, MoveRefused, UnknownGame, token_hash
from .limits import MAX_BODY, MAX_DEPTH, BodyLimit, HeadAsGet, SecurityHeaders, json_depth, secure
from .present import view_json, view_of

__all__ = ["LOCAL_HOSTS", "allowed_hosts_for", "create_app", "settings_from_form"]

HERE = Path(__file__).parent
TEXT_LIMIT = 200  # characters of a typed move
RISKS = {"cautious": 0.2, "balanced": 0.5, "bold": 0.8}
NEW_GAME_FIELDS = ("mode", "seed", "role", "team", "level", "strength", "mission", "tokens", "first", "cards", "solo",
                   "lang", "learn")
# how the AI partner learns the person: within the game (the default), also into this
# browser's profile (opt-in), or not at all
LEARN = ("game", "browser", "off")
PROFILE_COOKIE = "profile"


# The Host names a request may carry: this machine's, plus the --host the server listens on.
# Any other Host is refused (400) before a route runs, so no page, link or redirect repeats it.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


def allowed_hosts_for(host: str) -> list[str]:
    """The Host names to accept when serving on ``host``: on every interface (0.0.0.0, ::) the
    names it is reached by cannot be known, so any is taken (the pages build no link from it)."""
    if host in ("0.0.0.0", "::", ""):
        return ["*"]
    return list(dict.fromkeys([*LOCAL_HOSTS, host]))


def _as_host_headers(hosts: Sequence[str]) -> list[str]:
    """The names as a Host header carries them: an IPv6 address comes in brackets ("[::1]:8000"),
    so ``::1`` alone would refuse every request made to it (issue 41's probe)."""
    return list(dict.fromkeys(f"[{h}]" if ":" in h and not h.startswith("[") else h for h in hosts))


class BadRequest(Exception):
    """Input the server cannot take (garbled body, bad setting); the message says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _int_or_none(value: Any, name: str) -> Optional[int]:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise BadRequest(f"{name} must be a whole number")
    text = str(value).strip()
    if not text.lstrip("+-").isascii():  # int() reads any script's digits: ٣ and １２ too
        raise BadRequest(f"{name}: write the number with the digits 0-9, got {text[:20]!r}")
    try:
        return int(text)
    except ValueError:
        raise BadRequest(f"{name} must be a whole number, got {text[:20]!r}") from None


def settings_from_form(form: dict, default_agent: str = "human") -> PlaySettings:
    """The new-game form (or JSON) as validated play settings; BadRequest says what to fix."""
    unknown = sorted(set(form) - set(NEW_GAME_FIELDS))
    if unknown:
        raise BadRequest(f"unknown setting(s): {', '.join(unknown)[:100]}")
    for name, value in form.items():
        if value is not None and not isinstance(value, (str, int, bool)):
            raise BadRequest(f"{name} must be text or a number")
    mode = str(form.get("mode") or "duet")
    seed = _int_or_none(form.get("seed"), "seed")
    if seed is None:
        import secrets

        seed = secrets.randbelow(1_000_000)
    strength = str(form.get("strength") or "balanced")
    if strength not in RISKS:
        raise BadRequest(f"AI strength must be one of {', '.join(RISKS)}, got {strength[:20]!r}")
    lang = str(form.get("lang") or "en")
    kw: dict[str, Any] = dict(mode=mode, seed=seed, agent=agent_for_language(default_agent, lang),
                              risk=RISKS[strength], lang=lang)
    if mode == "duet":
        mission = str(form.get("mission") or "").strip().lower() or None
        kw.update(mission=mission, tokens=None if mission else _int_or_none(form.get("tokens"), "tokens"),
                  first=str(form.get("first") or "ai"))
    else:
        kw.update(role=str(form.get("role") or "guesser"))
        if mode in ("classic", "pictures"):
            solo = str(form.get("solo") or "").lower() in ("1", "true", "on", "yes")
            kw.update(level=str(form.get("level") or "normal"))
            if mode == "pictures":
                kw.update(solo=solo, cards=str(form.get("cards") or "pictures"))
            if not solo:
                kw.update(team=str(form.get("team") or "red"))
    try:
        return PlaySettings(**kw)
    except SettingsError as exc:
        raise BadRequest(str(exc).replace("--", "")) from exc


def learn_of(form: dict) -> str:
    learn = str(form.get("learn") or "game")
    if learn not in LEARN:
        raise BadRequest(f"learn must be one of {', '.join(LEARN)}, got {learn[:20]!r}")
    return learn


def learning_line(live: LiveGame) -> Optional[str]:
    """What the game page says of the AI's learning (to the seat only), and how to stop it."""
    if live.session.learner is None:
        return None
    if live.profile_sha256 is not None:
        return ("The AI partner learns how you read clues from your guesses and clues, and remembers it in this "
                "browser's profile on this server. To stop: Forget me deletes it; start games with "
                "'in this game only' or 'do not learn'.")
    return ("The AI partner learns how you read clues from your guesses and clues, in this game only. To stop it, "
            "start a game with 'do not learn'.")


def create_app(
    db: str | Path,
    agents: Optional[AgentFactory] = None,
    *,
    workers: int = 2,
    default_agent: str = "human",
    allowed_hosts: Optional[Sequence[str]] = None,
) -> FastAPI:
    """The app over the SQLite file ``db``; ``agents`` builds a game's AI players (default: the
    play command's, models loaded once per process); ``allowed_hosts`` the Host names requests
    may carry (default :data:`LOCAL_HOSTS`; ``serve`` passes :func:`allowed_hosts_for` its --host)."""
    if agents is None:
        from ..play.seats import load_session_agents

        agents = load_session_agents
    store = GameStore(db)
    hub = GameHub(store, agents, workers=workers)
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        hub.close()
        store.close()

    app = FastAPI(title="spymaster-ai", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.hub = hub
    app.router.redirect_slashes = False  # its redirects are absolute URLs built from the Host header
    # outermost last: the headers go on every answer, HEAD is GET without a body, a foreign Host is refused
    app.add_middleware(BodyLimit, max_body=MAX_BODY)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=_as_host_headers(allowed_hosts or LOCAL_HOSTS), www_redirect=False)
    app.add_middleware(HeadAsGet)
    app.add_middleware(SecurityHeaders)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    deck = HERE.parent / "pictures" / "deck" / "img"
    if deck.is_dir():
        app.mount("/deck", StaticFiles(directory=str(deck)), name="deck")

    # ------------------------------------------------------------------ helpers
    def wants_json(request: Request) -> bool:
        return request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", "")

    def token_of(request: Request, game_id: str) -> Optional[str]:
        return request.headers.get("x-seat-token") or request.cookies.get(f"seat-{game_id}")

    def page(request: Request, name: str, context: dict, status: int = 200) -> HTMLResponse:
        response = templates.TemplateResponse(request, name, {"levels": list(LEVELS), **context}, status_code=status)
        return response

    def seat_link(request: Request, live: LiveGame, seat: bool) -> Optional[str]:
        """The seat's own link (a path: the page's script puts the page's own origin before it; no
        Host header goes into it), built from the token its request carries (the server keeps only a hash)."""
        return f"/g/{live.id}/seat/{token_of(request, live.id)}" if seat else None

    def game_page(request: Request, live: LiveGame, seat: bool, notice: Optional[str] = None, status: int = 200):
        view = view_of(live.snapshot, seat=seat)
        context = {"game_id": live.id, "v": view, "notice": notice, "seat_link": seat_link(request, live, seat),
                   "learning": learning_line(live) if seat else None, "remembers": live.profile_sha256 is not None}
        return page(request, "game.html", context, status)

    async def load(game_id: str) -> LiveGame:
        return await run_in_threadpool(request_game, game_id)

    def request_game(game_id: str) -> LiveGame:
        return hub.get(game_id)

    async def body_of(request: Request) -> dict:
        """The request body as a dict (form or JSON); BadRequest for anything garbled."""
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "application/json":
            raw = await request.body()
            if json_depth(raw) > MAX_DEPTH:
                raise BadRequest(f"the JSON body nests too deeply (at most {MAX_DEPTH} levels): nothing was played")
            try:
                data = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                raise BadRequest("the body is not valid JSON") from None
            if not isinstance(data, dict):
                raise BadRequest("the body must be a JSON object")
            return data
        if kind in ("application/x-www-form-urlencoded", "multipart/form-data"):
            try:
                form = await request.form()
            except Exception:
                raise BadRequest("the form could not be read (garbled body)") from None
            out: dict = {}
            for name, value in form.multi_items():
                if not isinstance(value, str):
                    raise BadRequest("files are not accepted")
                out[name] = value
            return out
        raise BadRequest("send a form or a JSON object (Content-Type application/x-www-form-urlencoded or application/json)",
                         415)

    def move_args(body: dict) -> tuple[str, Optional[int]]:
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("type a move: a card name, a clue such as 'ocean 2', 'stop' or 'pass'")
        if len(text) > TEXT_LIMIT or "\x00" in text:
            raise BadRequest(f"a move is at most {TEXT_LIMIT} characters of text")
        version = _int_or_none(body.get("version"), "version")
        return text, version

    def profile_id(request: Request) -> Optional[str]:
        """The browser's profile id, if its cookie holds a plausible one."""
        value = request.cookies.get(PROFILE_COOKIE)
        if value and 20 <= len(value) <= 64 and all(c.isalnum() or c in "-_" for c in value):
            return value
        return None

    async def start_game(request: Request, body: dict, settings: PlaySettings) -> tuple[LiveGame, str, Optional[str]]:
        """A new game learning as the form asks; (game, seat token, the profile id to set)."""
        learn = learn_of(body)
        pid = (profile_id(request) or secrets.token_urlsafe(24)) if learn == "browser" else None
        live, token = await run_in_threadpool(lambda: hub.create(settings, learn=learn != "off",
                                                                 profile_sha256=token_hash(pid) if pid else None))
        return live, token, pid

    def set_profile_cookie(response: Response, pid: Optional[str]) -> None:
        if pid is not None:
            response.set_cookie(PROFILE_COOKIE, pid, max_age=60 * 60 * 24 * 365, httponly=True, samesite="strict",
                                path="/")

    def set_seat_cookie(response: Response, game_id: str, token: str) -> None:
        response.set_cookie(f"seat-{game_id}", token, max_age=60 * 60 * 24 * 365, httponly=True, samesite="strict",
                            path="/")

    # ------------------------------------------------------------------ errors
    def error_response(request: Request, status: int, message: str) -> Response:
        if wants_json(request):
            return JSONResponse({"error": message}, status_code=status)
        return page(request, "error.html", {"status": status, "message": message}, status)

    @app.exception_handler(BadRequest)
    async def _bad(request: Request, exc: BadRequest):
        return error_response(request, exc.status, exc.message)

    @app.exception_handler(UnknownGame)
    async def _unknown(request: Request, exc: UnknownGame):
        return error_response(request, 404, "no game has this id (check the address; ids are given when a game starts)")

    @app.exception_handler(SaveFileError)
    async def _damaged(request: Request, exc: SaveFileError):
        return error_response(request, 500, "this game's stored record cannot be replayed; it is left as it was")

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        return error_response(request, 400, "the request could not be read")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        messages = {404: "no such page", 405: "this address does not take that method"}
        return error_response(request, exc.status_code, messages.get(exc.status_code, "the request was refused"))

    @app.exception_handler(Exception)
    async def _failed(request: Request, exc: Exception):
        """A server fault: a short message, the same headers as every page (this answer is sent
        outside the middlewares); the traceback goes to the log as before."""
        message = "the server failed on this request (its log says why); try again, or start a new game"
        try:
            response = error_response(request, 500, message)
        except Exception:
            response = Response(message, status_code=500, media_type="text/plain; charset=utf-8")
        secure(response.headers)
        return response

    # ------------------------------------------------------------------ pages
    @app.get("/favicon.ico")
    async def favicon():
        return Response(status_code=204)

    @app.get("/", response_class=HTMLResponse)
    async def index(request: Request):
        return page(request, "index.html", {"error": None, "form": {}, "has_profile": has_profile(request)})

    def has_profile(request: Request) -> bool:
        pid = profile_id(request)
        return pid is not None and hub.store.load_profile(token_hash(pid)) is not None

    @app.post("/games")
    async def new_game_form(request: Request):
        body = await body_of(request)
        try:
            settings = settings_from_form(body, default_agent)
            learn_of(body)
        except BadRequest as exc:
            return page(request, "index.html", {"error": exc.message, "form": body,
                                                "has_profile": has_profile(request)}, 400)
        live, token, pid = await start_game(request, body, settings)
        response = RedirectResponse(f"/g/{live.id}", status_code=303)
        set_seat_cookie(response, live.id, token)
        set_profile_cookie(response, pid)
        return response

    @app.post("/profile/forget")
    async def forget_form(request: Request):
        pid = profile_id(request)
        forgot = pid is not None and await run_in_threadpool(hub.forget, token_hash(pid))
        notice = ("Forgotten: this browser's profile is deleted from the server." if forgot
                  else "This browser has no profile on this server: nothing to forget.")
        response = page(request, "index.html", {"error": None, "notice": notice, "form": {}, "has_profile": False})
        response.delete_cookie(PROFILE_COOKIE, path="/")
        return response

    @app.get("/g/{game_id}", response_class=HTMLResponse)
    async def game(request: Request, game_id: str):
        live = await load(game_id)
        seat = live.seat(token_of(request, game_id))
        return game_page(request, live, seat)

    @app.get("/g/{game_id}/board", response_class=HTMLResponse)
    async def board(request: Request, game_id: str):
        live = await load(game_id)
        seat = live.seat(token_of(request, game_id))
        view = view_of(live.snapshot, seat=seat)
        return page(request, "_board.html", {"game_id": live.id, "v": view, "notice": None,
                                             "seat_link": seat_link(request, live, seat)})

    @app.get("/g/{game_id}/seat/{token}")
    async def take_seat(request: Request, game_id: str, token: str):
        live = await load(game_id)
        if not live.seat(token):
            return error_response(request, 403, "this seat link is not valid for this game")
        response = RedirectResponse(f"/g/{live.id}", status_code=303)
        set_seat_cookie(response, live.id, token)
        return response

    @app.post("/g/{game_id}/move")
    async def move_form(request: Request, game_id: str):
        live = await load(game_id)
        return await play_move(request, live)

    # ------------------------------------------------------------------ JSON API
    @app.post("/api/games")
    async def api_new_game(request: Request):
        body = await body_of(request)
        settings = settings_from_form(body, default_agent)
        live, token, pid = await start_game(request, body, settings)
        data = {"token": token, "seat_link": f"/g/{live.id}/seat/{token}", "learning": learning_line(live),
                "state": view_json(live.id, view_of(live.snapshot, seat=True))}
        response = JSONResponse(data, status_code=201)
        set_seat_cookie(response, live.id, token)
        set_profile_cookie(response, pid)
        return response

    @app.get("/api/profile")
    async def api_profile(request: Request):
        pid = profile_id(request)
        lines = await run_in_threadpool(hub.profile_lines, token_hash(pid)) if pid else None
        return JSONResponse({"profile": lines})

    @app.delete("/api/profile")
    async def api_forget(request: Request):
        pid = profile_id(request)
        forgot = pid is not None and await run_in_threadpool(hub.forget, token_hash(pid))
        response = JSONResponse({"forgotten": bool(forgot)})
        response.delete_cookie(PROFILE_COOKIE, path="/")
        return response

    @app.get("/api/games/{game_id}")
    async def api_state(request: Request, game_id: str):
        live = await load(game_id)
        seat = live.seat(token_of(request, game_id))
        return JSONResponse(view_json(live.id, view_of(live.snapshot, seat=seat)))

    @app.post("/api/games/{game_id}/move")
    async def api_move(request: Request, game_id: str):
        live = await load(game_id)
        return await play_move(request, live)

    async def play_move(request: Request, live: LiveGame) -> Response:
        if not live.seat(token_of(request, live.id)):
            return error_response(request, 403, "only the player of this game may move (its seat token is missing "
                                                "or wrong); you can watch it here")
        body = await body_of(request)
        text, version = move_args(body)
        try:
            events = await run_in_threadpool(hub.move, live, text, version)
        except MoveRefused as exc:
            if wants_json(request):
                state = view_json(live.id, view_of(live.snapshot, seat=True))
                return JSONResponse({"error": exc.message, "state": state}, status_code=exc.status)
            return game_page(request, live, True, exc.message, exc.status)
        refused = [e.text for e in events if e.kind == "error"]
        if wants_json(request):
            state = view_json(live.id, view_of(live.snapshot, seat=True))
            if refused:
                return JSONResponse({"error": " ".join(refused), "state": state}, status_code=422)
            return JSONResponse({"events": [{"kind": e.kind, "text": e.text} for e in events], "state": state})
        if refused:
            return game_page(request, live, True, " ".join(refused), 422)
        return RedirectResponse(f"/g/{live.id}", status_code=303)

    return app

"""A pleasant layer over the generated gameai client.

``gameai_client`` is generated from the service's ``openapi.yaml`` by
openapi-python-client (``clients/generate.sh``); every route and body is
there as typed attrs classes. ``GameAI`` wraps the calls most programs make:
``search()`` taking a game and its moves, sessions, and the event stream,
with refusals raised as ``GameAIError`` carrying the problem document.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx

from gameai_client import AuthenticatedClient, Client
from gameai_client.api.search import describe_position, find_best_move, list_games
from gameai_client.api.sessions import create_session, play_move
from gameai_client.models import (
    CreateSessionRequest,
    DepthEvent,
    GamesResponse,
    LineBody,
    MoveRequest,
    PositionRequest,
    PositionResponse,
    Problem,
    SearchRequest,
    SearchResponse,
    SessionResponse,
)
from gameai_client.types import Response

__all__ = ["GameAI", "GameAIError", "SearchResponse", "DepthEvent", "LineBody"]


class GameAIError(Exception):
    """A refused request: the HTTP status, the problem document and, for 429
    and 503, the seconds to wait before retrying."""

    def __init__(self, status: int, problem: Problem | None, retry_after: int | None) -> None:
        detail = problem.detail if problem is not None else f"gameai answered {status}"
        super().__init__(detail)
        self.status = status
        self.problem = problem
        self.retry_after = retry_after


def _position(moves: list[str] | str | None, board: list[str] | None, extra: dict[str, Any]) -> dict[str, Any]:
    body = dict(extra)
    if moves is not None:
        body["moves"] = moves
    if board is not None:
        body["board"] = board
    return body


def _ok(response: Response[Any]) -> Any:
    parsed = response.parsed
    if 200 <= response.status_code < 300 and parsed is not None and not isinstance(parsed, Problem):
        return parsed
    retry = response.headers.get("retry-after")
    problem = parsed if isinstance(parsed, Problem) else None
    raise GameAIError(response.status_code, problem, int(retry) if retry and retry.isdigit() else None)


class GameAI:
    """A gameai service at ``base_url``; ``api_key`` when the server sets keys."""

    def __init__(self, base_url: str, api_key: str | None = None, timeout: float = 30.0) -> None:
        httpx_timeout = httpx.Timeout(timeout)
        # The generated calls ask for an authenticated client; without a key a
        # plain one sends no Authorization header at all.
        self.client: AuthenticatedClient | Client
        if api_key:
            self.client = AuthenticatedClient(base_url=base_url, token=api_key, timeout=httpx_timeout)
        else:
            self.client = Client(base_url=base_url, timeout=httpx_timeout)

    def search(
        self,
        game: str,
        moves: list[str] | str | None = None,
        *,
        board: list[str] | None = None,
        **controls: Any,
    ) -> SearchResponse:
        """The best move of ``game`` after ``moves`` (or on ``board``).

        ``controls`` are the search request's other fields: ``depth``,
        ``time_ms``, ``clock={"time_left_ms": ...}``, ``multi_pv``, ``level``...
        """
        body = SearchRequest.from_dict(_position(moves, board, {"game": game, **controls}))
        return _ok(find_best_move.sync_detailed(client=self.client, body=body))  # type: ignore[arg-type]

    def position(
        self, game: str, moves: list[str] | str | None = None, *, board: list[str] | None = None, **options: Any
    ) -> PositionResponse:
        """Validates and describes a position without searching it."""
        body = PositionRequest.from_dict(_position(moves, board, {"game": game, **options}))
        return _ok(describe_position.sync_detailed(client=self.client, body=body))  # type: ignore[arg-type]

    def games(self) -> GamesResponse:
        """The games the server plays, with their sizes, rules and limits."""
        return _ok(list_games.sync_detailed(client=self.client))  # type: ignore[arg-type]

    def create_session(self, game: str, **options: Any) -> SessionResponse:
        """Starts a game kept on the server (``ai={"plays": "O", "depth": 9}``...)."""
        body = CreateSessionRequest.from_dict({"game": game, **options})
        return _ok(create_session.sync_detailed(client=self.client, body=body))  # type: ignore[arg-type]

    def play(self, session_id: str, move: str, expected_version: int | None = None) -> SessionResponse:
        """Plays the client's move; the AI's reply comes in the same answer."""
        fields: dict[str, Any] = {"move": move}
        if expected_version is not None:
            fields["expected_version"] = expected_version
        body = MoveRequest.from_dict(fields)
        return _ok(play_move.sync_detailed(session_id, client=self.client, body=body))  # type: ignore[arg-type]

    def stream(
        self,
        game: str,
        moves: list[str] | str | None = None,
        *,
        board: list[str] | None = None,
        **controls: Any,
    ) -> Iterator[DepthEvent | LineBody | SearchResponse]:
        """Each completed depth (``DepthEvent``, or ``LineBody`` with
        ``multi_pv``), then the ``SearchResponse``. Leaving the loop early
        closes the connection, which stops the search on the server."""
        body = SearchRequest.from_dict(_position(moves, board, {"game": game, **controls}))
        http = self.client.get_httpx_client()
        with http.stream("POST", "/v1/search/stream", json=body.to_dict()) as response:
            if response.status_code != 200:
                response.read()
                try:
                    problem = Problem.from_dict(response.json())
                except (ValueError, KeyError):
                    problem = None
                retry = response.headers.get("retry-after")
                raise GameAIError(response.status_code, problem, int(retry) if retry and retry.isdigit() else None)
            name, data = "message", []
            for line in response.iter_lines():
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].removeprefix(" "))
                elif line == "" and data:
                    event, document = name, json.loads("\n".join(data))
                    name, data = "message", []
                    if event == "error":
                        raise GameAIError(document.get("status", 500), Problem.from_dict(document), None)
                    kind = _EVENTS.get(event)
                    if kind is not None:
                        yield kind.from_dict(document)
                    if event == "result":
                        return


# The stream's event names and the classes their data reads as.
_EVENTS: dict[str, Any] = {"depth": DepthEvent, "line": LineBody, "result": SearchResponse}

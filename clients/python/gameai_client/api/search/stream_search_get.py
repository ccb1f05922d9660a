from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.side import Side
from ...models.stream_event import StreamEvent
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    game: str,
    moves: str | Unset = UNSET,
    board: str | Unset = UNSET,
    to_move: Side | Unset = UNSET,
    size: int | Unset = UNSET,
    rules: str | Unset = UNSET,
    depth: int | Unset = UNSET,
    time_ms: int | Unset = UNSET,
    nodes: int | Unset = UNSET,
    multi_pv: int | Unset = UNSET,
    level: int | Unset = UNSET,
    randomize: str | Unset = UNSET,
    seed: int | Unset = UNSET,
    threads: int | Unset = UNSET,
    time_left_ms: int | Unset = UNSET,
    increment_ms: int | Unset = UNSET,
    moves_to_go: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["game"] = game

    params["moves"] = moves

    params["board"] = board

    json_to_move: str | Unset = UNSET
    if not isinstance(to_move, Unset):
        json_to_move = to_move.value

    params["to_move"] = json_to_move

    params["size"] = size

    params["rules"] = rules

    params["depth"] = depth

    params["time_ms"] = time_ms

    params["nodes"] = nodes

    params["multi_pv"] = multi_pv

    params["level"] = level

    params["randomize"] = randomize

    params["seed"] = seed

    params["threads"] = threads

    params["time_left_ms"] = time_left_ms

    params["increment_ms"] = increment_ms

    params["moves_to_go"] = moves_to_go

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/search/stream",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | StreamEvent | None:
    if response.status_code == 200:
        response_200 = StreamEvent.from_dict(response.text)

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | StreamEvent]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    game: str,
    moves: str | Unset = UNSET,
    board: str | Unset = UNSET,
    to_move: Side | Unset = UNSET,
    size: int | Unset = UNSET,
    rules: str | Unset = UNSET,
    depth: int | Unset = UNSET,
    time_ms: int | Unset = UNSET,
    nodes: int | Unset = UNSET,
    multi_pv: int | Unset = UNSET,
    level: int | Unset = UNSET,
    randomize: str | Unset = UNSET,
    seed: int | Unset = UNSET,
    threads: int | Unset = UNSET,
    time_left_ms: int | Unset = UNSET,
    increment_ms: int | Unset = UNSET,
    moves_to_go: int | Unset = UNSET,
) -> Response[Problem | StreamEvent]:
    """Search a position, streaming each completed depth (for `EventSource`).

     The same search as `POST /v1/search/stream`, with the request in the
    query string, so a browser's `EventSource` can open it:
    `GET /v1/search/stream?game=othello&moves=f5+d6&time_ms=300`. The same
    checks apply; errors found before the search starts are problem+json.

    Args:
        game (str):
        moves (str | Unset):
        board (str | Unset):
        to_move (Side | Unset): A side: `X` moves first (black in gomoku and othello).
        size (int | Unset):
        rules (str | Unset):
        depth (int | Unset):
        time_ms (int | Unset):
        nodes (int | Unset):
        multi_pv (int | Unset):
        level (int | Unset):
        randomize (str | Unset):
        seed (int | Unset):
        threads (int | Unset):
        time_left_ms (int | Unset):
        increment_ms (int | Unset):
        moves_to_go (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamEvent]
    """

    kwargs = _get_kwargs(
        game=game,
        moves=moves,
        board=board,
        to_move=to_move,
        size=size,
        rules=rules,
        depth=depth,
        time_ms=time_ms,
        nodes=nodes,
        multi_pv=multi_pv,
        level=level,
        randomize=randomize,
        seed=seed,
        threads=threads,
        time_left_ms=time_left_ms,
        increment_ms=increment_ms,
        moves_to_go=moves_to_go,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    game: str,
    moves: str | Unset = UNSET,
    board: str | Unset = UNSET,
    to_move: Side | Unset = UNSET,
    size: int | Unset = UNSET,
    rules: str | Unset = UNSET,
    depth: int | Unset = UNSET,
    time_ms: int | Unset = UNSET,
    nodes: int | Unset = UNSET,
    multi_pv: int | Unset = UNSET,
    level: int | Unset = UNSET,
    randomize: str | Unset = UNSET,
    seed: int | Unset = UNSET,
    threads: int | Unset = UNSET,
    time_left_ms: int | Unset = UNSET,
    increment_ms: int | Unset = UNSET,
    moves_to_go: int | Unset = UNSET,
) -> Problem | StreamEvent | None:
    """Search a position, streaming each completed depth (for `EventSource`).

     The same search as `POST /v1/search/stream`, with the request in the
    query string, so a browser's `EventSource` can open it:
    `GET /v1/search/stream?game=othello&moves=f5+d6&time_ms=300`. The same
    checks apply; errors found before the search starts are problem+json.

    Args:
        game (str):
        moves (str | Unset):
        board (str | Unset):
        to_move (Side | Unset): A side: `X` moves first (black in gomoku and othello).
        size (int | Unset):
        rules (str | Unset):
        depth (int | Unset):
        time_ms (int | Unset):
        nodes (int | Unset):
        multi_pv (int | Unset):
        level (int | Unset):
        randomize (str | Unset):
        seed (int | Unset):
        threads (int | Unset):
        time_left_ms (int | Unset):
        increment_ms (int | Unset):
        moves_to_go (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamEvent
    """

    return sync_detailed(
        client=client,
        game=game,
        moves=moves,
        board=board,
        to_move=to_move,
        size=size,
        rules=rules,
        depth=depth,
        time_ms=time_ms,
        nodes=nodes,
        multi_pv=multi_pv,
        level=level,
        randomize=randomize,
        seed=seed,
        threads=threads,
        time_left_ms=time_left_ms,
        increment_ms=increment_ms,
        moves_to_go=moves_to_go,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    game: str,
    moves: str | Unset = UNSET,
    board: str | Unset = UNSET,
    to_move: Side | Unset = UNSET,
    size: int | Unset = UNSET,
    rules: str | Unset = UNSET,
    depth: int | Unset = UNSET,
    time_ms: int | Unset = UNSET,
    nodes: int | Unset = UNSET,
    multi_pv: int | Unset = UNSET,
    level: int | Unset = UNSET,
    randomize: str | Unset = UNSET,
    seed: int | Unset = UNSET,
    threads: int | Unset = UNSET,
    time_left_ms: int | Unset = UNSET,
    increment_ms: int | Unset = UNSET,
    moves_to_go: int | Unset = UNSET,
) -> Response[Problem | StreamEvent]:
    """Search a position, streaming each completed depth (for `EventSource`).

     The same search as `POST /v1/search/stream`, with the request in the
    query string, so a browser's `EventSource` can open it:
    `GET /v1/search/stream?game=othello&moves=f5+d6&time_ms=300`. The same
    checks apply; errors found before the search starts are problem+json.

    Args:
        game (str):
        moves (str | Unset):
        board (str | Unset):
        to_move (Side | Unset): A side: `X` moves first (black in gomoku and othello).
        size (int | Unset):
        rules (str | Unset):
        depth (int | Unset):
        time_ms (int | Unset):
        nodes (int | Unset):
        multi_pv (int | Unset):
        level (int | Unset):
        randomize (str | Unset):
        seed (int | Unset):
        threads (int | Unset):
        time_left_ms (int | Unset):
        increment_ms (int | Unset):
        moves_to_go (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamEvent]
    """

    kwargs = _get_kwargs(
        game=game,
        moves=moves,
        board=board,
        to_move=to_move,
        size=size,
        rules=rules,
        depth=depth,
        time_ms=time_ms,
        nodes=nodes,
        multi_pv=multi_pv,
        level=level,
        randomize=randomize,
        seed=seed,
        threads=threads,
        time_left_ms=time_left_ms,
        increment_ms=increment_ms,
        moves_to_go=moves_to_go,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    game: str,
    moves: str | Unset = UNSET,
    board: str | Unset = UNSET,
    to_move: Side | Unset = UNSET,
    size: int | Unset = UNSET,
    rules: str | Unset = UNSET,
    depth: int | Unset = UNSET,
    time_ms: int | Unset = UNSET,
    nodes: int | Unset = UNSET,
    multi_pv: int | Unset = UNSET,
    level: int | Unset = UNSET,
    randomize: str | Unset = UNSET,
    seed: int | Unset = UNSET,
    threads: int | Unset = UNSET,
    time_left_ms: int | Unset = UNSET,
    increment_ms: int | Unset = UNSET,
    moves_to_go: int | Unset = UNSET,
) -> Problem | StreamEvent | None:
    """Search a position, streaming each completed depth (for `EventSource`).

     The same search as `POST /v1/search/stream`, with the request in the
    query string, so a browser's `EventSource` can open it:
    `GET /v1/search/stream?game=othello&moves=f5+d6&time_ms=300`. The same
    checks apply; errors found before the search starts are problem+json.

    Args:
        game (str):
        moves (str | Unset):
        board (str | Unset):
        to_move (Side | Unset): A side: `X` moves first (black in gomoku and othello).
        size (int | Unset):
        rules (str | Unset):
        depth (int | Unset):
        time_ms (int | Unset):
        nodes (int | Unset):
        multi_pv (int | Unset):
        level (int | Unset):
        randomize (str | Unset):
        seed (int | Unset):
        threads (int | Unset):
        time_left_ms (int | Unset):
        increment_ms (int | Unset):
        moves_to_go (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamEvent
    """

    return (
        await asyncio_detailed(
            client=client,
            game=game,
            moves=moves,
            board=board,
            to_move=to_move,
            size=size,
            rules=rules,
            depth=depth,
            time_ms=time_ms,
            nodes=nodes,
            multi_pv=multi_pv,
            level=level,
            randomize=randomize,
            seed=seed,
            threads=threads,
            time_left_ms=time_left_ms,
            increment_ms=increment_ms,
            moves_to_go=moves_to_go,
        )
    ).parsed

"""The Python client against a live gameai at GAMEAI_URL (clients/test.sh starts one)."""

import os

import pytest

from gameai import DepthEvent, GameAI, GameAIError, SearchResponse


@pytest.fixture(scope="module")
def ai() -> GameAI:
    url = os.environ.get("GAMEAI_URL")
    if not url:
        pytest.fail("set GAMEAI_URL to a running gameai (clients/test.sh does)")
    return GameAI(url)


def test_search_answers_with_a_typed_proven_move(ai: GameAI) -> None:
    answer = ai.search("tictactoe", board=["X.O", "...", "..."], depth=9)
    assert isinstance(answer, SearchResponse)
    assert answer.best_move.notation == "a3"
    assert answer.proven.result.value == "win"


def test_moves_as_a_list_or_a_string_and_a_clock(ai: GameAI) -> None:
    answer = ai.search("othello", "f5 d6", clock={"time_left_ms": 2000})
    assert answer.time_ms <= 200
    described = ai.position("connect4", ["4", "4", "5", "3"])
    assert described.board[5] == "..OXX.."


def test_a_refusal_raises_with_the_problem(ai: GameAI) -> None:
    with pytest.raises(GameAIError) as refused:
        ai.search("tictactoe", ["b2", "b2"])
    assert refused.value.status == 422
    assert refused.value.problem.errors[0].field == "moves"


def test_the_stream_yields_each_depth_then_the_result(ai: GameAI) -> None:
    events = list(ai.stream("tictactoe", "b2", depth=4))
    assert isinstance(events[-1], SearchResponse)
    assert events[-1].depth == 4
    assert any(isinstance(e, DepthEvent) for e in events[:-1])


def test_a_session_plays_both_sides(ai: GameAI) -> None:
    session = ai.create_session("tictactoe", ai={"plays": "O", "depth": 9})
    after = ai.play(session.id, "b2", session.version)
    assert len(after.moves) == 2
    assert after.ai_search.to_move.value == "O"
    assert any(g.name == "gomoku" for g in ai.games().games)

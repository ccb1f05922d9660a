from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.game_status import GameStatus
from ..models.side import Side
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_body import AiBody
    from ..models.search_response import SearchResponse


T = TypeVar("T", bound="SessionResponse")


@_attrs_define
class SessionResponse:
    """A game kept on the server.

    Attributes:
        ai (AiBody): The AI's side and strength in a session.
        board (list[str]): The position now, rows top first.
        created_at (str): RFC 3339.
        game (str):
        id (str): The session's id, 128 random bits as a UUID.
        legal_moves (list[str]): Legal moves for the side to move, in notation (empty once over).
        moves (list[str]): Every move since the start, in notation.
        size (int): Board size.
        status (GameStatus):
        to_move (Side): A side: `X` moves first (black in gomoku and othello).
        updated_at (str): RFC 3339.
        version (int): Increases by one with each change; send it back as `expected_version`.
        winning_line (list[str]): The cells of the winning line, in notation (empty unless won).
        ai_search (None | SearchResponse | Unset):
        rules (None | str | Unset): Rule variant, for games with several.
        start_board (list[str] | None | Unset): The board the game started from, when it was not the game's start.
        winner (None | Side | Unset):
    """

    ai: AiBody
    board: list[str]
    created_at: str
    game: str
    id: str
    legal_moves: list[str]
    moves: list[str]
    size: int
    status: GameStatus
    to_move: Side
    updated_at: str
    version: int
    winning_line: list[str]
    ai_search: None | SearchResponse | Unset = UNSET
    rules: None | str | Unset = UNSET
    start_board: list[str] | None | Unset = UNSET
    winner: None | Side | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.search_response import SearchResponse  # noqa: PLC0415

        ai = self.ai.to_dict()

        board = self.board

        created_at = self.created_at

        game = self.game

        id = self.id

        legal_moves = self.legal_moves

        moves = self.moves

        size = self.size

        status = self.status.value

        to_move = self.to_move.value

        updated_at = self.updated_at

        version = self.version

        winning_line = self.winning_line

        ai_search: dict[str, Any] | None | Unset
        if isinstance(self.ai_search, Unset):
            ai_search = UNSET
        elif isinstance(self.ai_search, SearchResponse):
            ai_search = self.ai_search.to_dict()
        else:
            ai_search = self.ai_search

        rules: None | str | Unset
        if isinstance(self.rules, Unset):
            rules = UNSET
        else:
            rules = self.rules

        start_board: list[str] | None | Unset
        if isinstance(self.start_board, Unset):
            start_board = UNSET
        elif isinstance(self.start_board, list):
            start_board = self.start_board

        else:
            start_board = self.start_board

        winner: None | str | Unset
        if isinstance(self.winner, Unset):
            winner = UNSET
        elif isinstance(self.winner, Side):
            winner = self.winner.value
        else:
            winner = self.winner

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ai": ai,
                "board": board,
                "created_at": created_at,
                "game": game,
                "id": id,
                "legal_moves": legal_moves,
                "moves": moves,
                "size": size,
                "status": status,
                "to_move": to_move,
                "updated_at": updated_at,
                "version": version,
                "winning_line": winning_line,
            }
        )
        if ai_search is not UNSET:
            field_dict["ai_search"] = ai_search
        if rules is not UNSET:
            field_dict["rules"] = rules
        if start_board is not UNSET:
            field_dict["start_board"] = start_board
        if winner is not UNSET:
            field_dict["winner"] = winner

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ai_body import AiBody  # noqa: PLC0415
        from ..models.search_response import SearchResponse  # noqa: PLC0415

        d = dict(src_dict)
        ai = AiBody.from_dict(d.pop("ai"))

        board = cast(list[str], d.pop("board"))

        created_at = d.pop("created_at")

        game = d.pop("game")

        id = d.pop("id")

        legal_moves = cast(list[str], d.pop("legal_moves"))

        moves = cast(list[str], d.pop("moves"))

        size = d.pop("size")

        status = GameStatus(d.pop("status"))

        to_move = Side(d.pop("to_move"))

        updated_at = d.pop("updated_at")

        version = d.pop("version")

        winning_line = cast(list[str], d.pop("winning_line"))

        def _parse_ai_search(data: object) -> None | SearchResponse | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ai_search_type_0 = SearchResponse.from_dict(data)

                return ai_search_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SearchResponse | Unset, data)

        ai_search = _parse_ai_search(d.pop("ai_search", UNSET))

        def _parse_rules(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rules = _parse_rules(d.pop("rules", UNSET))

        def _parse_start_board(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                start_board_type_0 = cast(list[str], data)

                return start_board_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        start_board = _parse_start_board(d.pop("start_board", UNSET))

        def _parse_winner(data: object) -> None | Side | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                winner_type_0 = Side(data)

                return winner_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Side | Unset, data)

        winner = _parse_winner(d.pop("winner", UNSET))

        session_response = cls(
            ai=ai,
            board=board,
            created_at=created_at,
            game=game,
            id=id,
            legal_moves=legal_moves,
            moves=moves,
            size=size,
            status=status,
            to_move=to_move,
            updated_at=updated_at,
            version=version,
            winning_line=winning_line,
            ai_search=ai_search,
            rules=rules,
            start_board=start_board,
            winner=winner,
        )

        session_response.additional_properties = d
        return session_response

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

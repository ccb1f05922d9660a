from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.side import Side
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_request import AiRequest
    from ..models.record_body import RecordBody


T = TypeVar("T", bound="CreateSessionRequest")


@_attrs_define
class CreateSessionRequest:
    """A new session: the game, its options, where it starts, and the AI.

    Attributes:
        game (str): The game's name, as `GET /v1/games` lists it. Example: tictactoe.
        ai (AiRequest | None | Unset):
        board (list[str] | None | Unset): A board to start from (default: the game's start position).
        moves (list[str] | None | str | Unset):
        record (None | RecordBody | Unset):
        rules (None | str | Unset): Rule variant, for games with several (gomoku: freestyle, standard, renju).
        size (int | None | Unset): Board size, for games with several (gomoku: 15, 19, 20).
        to_move (None | Side | Unset):
    """

    game: str
    ai: AiRequest | None | Unset = UNSET
    board: list[str] | None | Unset = UNSET
    moves: list[str] | None | str | Unset = UNSET
    record: None | RecordBody | Unset = UNSET
    rules: None | str | Unset = UNSET
    size: int | None | Unset = UNSET
    to_move: None | Side | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_request import AiRequest  # noqa: PLC0415
        from ..models.record_body import RecordBody  # noqa: PLC0415

        game = self.game

        ai: dict[str, Any] | None | Unset
        if isinstance(self.ai, Unset):
            ai = UNSET
        elif isinstance(self.ai, AiRequest):
            ai = self.ai.to_dict()
        else:
            ai = self.ai

        board: list[str] | None | Unset
        if isinstance(self.board, Unset):
            board = UNSET
        elif isinstance(self.board, list):
            board = self.board

        else:
            board = self.board

        moves: list[str] | None | str | Unset
        if isinstance(self.moves, Unset):
            moves = UNSET
        elif isinstance(self.moves, list):
            moves = self.moves

        else:
            moves = self.moves

        record: dict[str, Any] | None | Unset
        if isinstance(self.record, Unset):
            record = UNSET
        elif isinstance(self.record, RecordBody):
            record = self.record.to_dict()
        else:
            record = self.record

        rules: None | str | Unset
        if isinstance(self.rules, Unset):
            rules = UNSET
        else:
            rules = self.rules

        size: int | None | Unset
        if isinstance(self.size, Unset):
            size = UNSET
        else:
            size = self.size

        to_move: None | str | Unset
        if isinstance(self.to_move, Unset):
            to_move = UNSET
        elif isinstance(self.to_move, Side):
            to_move = self.to_move.value
        else:
            to_move = self.to_move

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "game": game,
            }
        )
        if ai is not UNSET:
            field_dict["ai"] = ai
        if board is not UNSET:
            field_dict["board"] = board
        if moves is not UNSET:
            field_dict["moves"] = moves
        if record is not UNSET:
            field_dict["record"] = record
        if rules is not UNSET:
            field_dict["rules"] = rules
        if size is not UNSET:
            field_dict["size"] = size
        if to_move is not UNSET:
            field_dict["to_move"] = to_move

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ai_request import AiRequest  # noqa: PLC0415
        from ..models.record_body import RecordBody  # noqa: PLC0415

        d = dict(src_dict)
        game = d.pop("game")

        def _parse_ai(data: object) -> AiRequest | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ai_type_0 = AiRequest.from_dict(data)

                return ai_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AiRequest | None | Unset, data)

        ai = _parse_ai(d.pop("ai", UNSET))

        def _parse_board(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                board_type_0 = cast(list[str], data)

                return board_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        board = _parse_board(d.pop("board", UNSET))

        def _parse_moves(data: object) -> list[str] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                componentsschemas_moves_type_0 = cast(list[str], data)

                return componentsschemas_moves_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | str | Unset, data)

        moves = _parse_moves(d.pop("moves", UNSET))

        def _parse_record(data: object) -> None | RecordBody | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                record_type_0 = RecordBody.from_dict(data)

                return record_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RecordBody | Unset, data)

        record = _parse_record(d.pop("record", UNSET))

        def _parse_rules(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rules = _parse_rules(d.pop("rules", UNSET))

        def _parse_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        size = _parse_size(d.pop("size", UNSET))

        def _parse_to_move(data: object) -> None | Side | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_move_type_0 = Side(data)

                return to_move_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Side | Unset, data)

        to_move = _parse_to_move(d.pop("to_move", UNSET))

        create_session_request = cls(
            game=game,
            ai=ai,
            board=board,
            moves=moves,
            record=record,
            rules=rules,
            size=size,
            to_move=to_move,
        )

        return create_session_request

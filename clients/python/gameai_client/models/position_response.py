from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.game_status import GameStatus
from ..models.side import Side
from ..types import UNSET, Unset

T = TypeVar("T", bound="PositionResponse")


@_attrs_define
class PositionResponse:
    """A valid position, described.

    Attributes:
        board (list[str]): The position as rows, top first.
        forbidden (list[str]): Renju: points where black may not play.
        legal_moves (list[str]): Legal moves for the side to move, in notation (empty once over).
        status (GameStatus):
        to_move (Side): A side: `X` moves first (black in gomoku and othello).
        winning_line (list[str]): The cells of the winning line, in notation (empty unless won).
        winner (None | Side | Unset):
    """

    board: list[str]
    forbidden: list[str]
    legal_moves: list[str]
    status: GameStatus
    to_move: Side
    winning_line: list[str]
    winner: None | Side | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        board = self.board

        forbidden = self.forbidden

        legal_moves = self.legal_moves

        status = self.status.value

        to_move = self.to_move.value

        winning_line = self.winning_line

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
                "board": board,
                "forbidden": forbidden,
                "legal_moves": legal_moves,
                "status": status,
                "to_move": to_move,
                "winning_line": winning_line,
            }
        )
        if winner is not UNSET:
            field_dict["winner"] = winner

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        board = cast(list[str], d.pop("board"))

        forbidden = cast(list[str], d.pop("forbidden"))

        legal_moves = cast(list[str], d.pop("legal_moves"))

        status = GameStatus(d.pop("status"))

        to_move = Side(d.pop("to_move"))

        winning_line = cast(list[str], d.pop("winning_line"))

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

        position_response = cls(
            board=board,
            forbidden=forbidden,
            legal_moves=legal_moves,
            status=status,
            to_move=to_move,
            winning_line=winning_line,
            winner=winner,
        )

        position_response.additional_properties = d
        return position_response

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

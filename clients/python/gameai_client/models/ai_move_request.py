from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AiMoveRequest")


@_attrs_define
class AiMoveRequest:
    """The AI's move: searched by the server, or, with `move`, found by the
    client's own search (a streamed one it showed live) and played as the
    AI's. The body may be empty.

        Attributes:
            depth (int | None | Unset): With `move` and `score`: the depth of that search, in plies.
            expected_version (int | None | Unset): Refuse with 409 unless the session is at this version.
            move (None | str | Unset): The move to play for the AI, in notation; it must be legal. Without
                it the server searches with the session's AI settings. Example: c1.
            score (int | None | Unset): With `move`: the score its search gave (the mover's view), kept
                with the move for the session's record.
    """

    depth: int | None | Unset = UNSET
    expected_version: int | None | Unset = UNSET
    move: None | str | Unset = UNSET
    score: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        depth: int | None | Unset
        if isinstance(self.depth, Unset):
            depth = UNSET
        else:
            depth = self.depth

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version

        move: None | str | Unset
        if isinstance(self.move, Unset):
            move = UNSET
        else:
            move = self.move

        score: int | None | Unset
        if isinstance(self.score, Unset):
            score = UNSET
        else:
            score = self.score

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if depth is not UNSET:
            field_dict["depth"] = depth
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version
        if move is not UNSET:
            field_dict["move"] = move
        if score is not UNSET:
            field_dict["score"] = score

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_depth(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        depth = _parse_depth(d.pop("depth", UNSET))

        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))

        def _parse_move(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        move = _parse_move(d.pop("move", UNSET))

        def _parse_score(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        score = _parse_score(d.pop("score", UNSET))

        ai_move_request = cls(
            depth=depth,
            expected_version=expected_version,
            move=move,
            score=score,
        )

        return ai_move_request

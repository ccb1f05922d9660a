from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MoveRequest")


@_attrs_define
class MoveRequest:
    """The client's move.

    Attributes:
        move (str): The move in notation (`b2`; Connect Four's column `4`). Example: b2.
        expected_version (int | None | Unset): Refuse with 409 unless the session is at this version.
        reply (bool | None | Unset): `false`: the AI does not reply in this answer, and the client asks
            for its move later with `POST .../ai-move` (after streaming the
            search itself, say). Default `true`.
    """

    move: str
    expected_version: int | None | Unset = UNSET
    reply: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        move = self.move

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version

        reply: bool | None | Unset
        if isinstance(self.reply, Unset):
            reply = UNSET
        else:
            reply = self.reply

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "move": move,
            }
        )
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version
        if reply is not UNSET:
            field_dict["reply"] = reply

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        move = d.pop("move")

        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))

        def _parse_reply(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        reply = _parse_reply(d.pop("reply", UNSET))

        move_request = cls(
            move=move,
            expected_version=expected_version,
            reply=reply,
        )

        return move_request

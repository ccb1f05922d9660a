from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ClockBody")


@_attrs_define
class ClockBody:
    """A game clock, as bots and tournaments keep it. The move's budget is a
    share of the time left (`time_left_ms / moves_to_go`, 20 moves when
    not given) plus three quarters of the increment, never more than the
    time left less 50 ms, never below 1 ms (a move is always answered),
    and within the server's cap.

        Example:
            {'increment_ms': 2000, 'time_left_ms': 60000}

        Attributes:
            time_left_ms (int): Milliseconds left on the mover's clock (0 is allowed: the answer
                comes at once).
            increment_ms (int | None | Unset): Milliseconds added after each move (default 0).
            moves_to_go (int | None | Unset): Moves to play before the next time control, if there is one.
    """

    time_left_ms: int
    increment_ms: int | None | Unset = UNSET
    moves_to_go: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        time_left_ms = self.time_left_ms

        increment_ms: int | None | Unset
        if isinstance(self.increment_ms, Unset):
            increment_ms = UNSET
        else:
            increment_ms = self.increment_ms

        moves_to_go: int | None | Unset
        if isinstance(self.moves_to_go, Unset):
            moves_to_go = UNSET
        else:
            moves_to_go = self.moves_to_go

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "time_left_ms": time_left_ms,
            }
        )
        if increment_ms is not UNSET:
            field_dict["increment_ms"] = increment_ms
        if moves_to_go is not UNSET:
            field_dict["moves_to_go"] = moves_to_go

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        time_left_ms = d.pop("time_left_ms")

        def _parse_increment_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        increment_ms = _parse_increment_ms(d.pop("increment_ms", UNSET))

        def _parse_moves_to_go(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        moves_to_go = _parse_moves_to_go(d.pop("moves_to_go", UNSET))

        clock_body = cls(
            time_left_ms=time_left_ms,
            increment_ms=increment_ms,
            moves_to_go=moves_to_go,
        )

        return clock_body

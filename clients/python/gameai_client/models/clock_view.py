from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ClockView")


@_attrs_define
class ClockView:
    """A game clock as it stands.

    Attributes:
        increment_ms (int): Milliseconds added after each move.
        time_left_ms (int): Milliseconds left.
        moves_to_go (int | None | Unset): Moves before the next time control, if there is one.
    """

    increment_ms: int
    time_left_ms: int
    moves_to_go: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        increment_ms = self.increment_ms

        time_left_ms = self.time_left_ms

        moves_to_go: int | None | Unset
        if isinstance(self.moves_to_go, Unset):
            moves_to_go = UNSET
        else:
            moves_to_go = self.moves_to_go

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "increment_ms": increment_ms,
                "time_left_ms": time_left_ms,
            }
        )
        if moves_to_go is not UNSET:
            field_dict["moves_to_go"] = moves_to_go

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        increment_ms = d.pop("increment_ms")

        time_left_ms = d.pop("time_left_ms")

        def _parse_moves_to_go(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        moves_to_go = _parse_moves_to_go(d.pop("moves_to_go", UNSET))

        clock_view = cls(
            increment_ms=increment_ms,
            time_left_ms=time_left_ms,
            moves_to_go=moves_to_go,
        )

        clock_view.additional_properties = d
        return clock_view

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

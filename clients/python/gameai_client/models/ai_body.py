from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ai_side import AiSide
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.clock_view import ClockView


T = TypeVar("T", bound="AiBody")


@_attrs_define
class AiBody:
    """The AI's side and strength in a session.

    Attributes:
        depth (int): Deepest iteration per move, in plies.
        plays (AiSide): Which sides the AI plays in a session.
        threads (int): Threads each of its searches uses.
        time_ms (int): Time budget per move, in milliseconds.
        clock (ClockView | None | Unset):
        level (int | None | Unset): The strength level, if one was chosen.
    """

    depth: int
    plays: AiSide
    threads: int
    time_ms: int
    clock: ClockView | None | Unset = UNSET
    level: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.clock_view import ClockView  # noqa: PLC0415

        depth = self.depth

        plays = self.plays.value

        threads = self.threads

        time_ms = self.time_ms

        clock: dict[str, Any] | None | Unset
        if isinstance(self.clock, Unset):
            clock = UNSET
        elif isinstance(self.clock, ClockView):
            clock = self.clock.to_dict()
        else:
            clock = self.clock

        level: int | None | Unset
        if isinstance(self.level, Unset):
            level = UNSET
        else:
            level = self.level

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "depth": depth,
                "plays": plays,
                "threads": threads,
                "time_ms": time_ms,
            }
        )
        if clock is not UNSET:
            field_dict["clock"] = clock
        if level is not UNSET:
            field_dict["level"] = level

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clock_view import ClockView  # noqa: PLC0415

        d = dict(src_dict)
        depth = d.pop("depth")

        plays = AiSide(d.pop("plays"))

        threads = d.pop("threads")

        time_ms = d.pop("time_ms")

        def _parse_clock(data: object) -> ClockView | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                clock_type_0 = ClockView.from_dict(data)

                return clock_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClockView | None | Unset, data)

        clock = _parse_clock(d.pop("clock", UNSET))

        def _parse_level(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        level = _parse_level(d.pop("level", UNSET))

        ai_body = cls(
            depth=depth,
            plays=plays,
            threads=threads,
            time_ms=time_ms,
            clock=clock,
            level=level,
        )

        ai_body.additional_properties = d
        return ai_body

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.ai_side import AiSide
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.clock_body import ClockBody


T = TypeVar("T", bound="AiRequest")


@_attrs_define
class AiRequest:
    """The AI's side and strength, as a client asks for them.

    Attributes:
        clock (ClockBody | None | Unset):
        depth (int | None | Unset): Deepest iteration per move, from 1 to the game's `max_depth`
            (default: the game's `default_depth`).
        level (int | None | Unset): Strength from 1 (a beginner can win) to 10 (full strength), as in
            `POST /v1/search`: sets the depth and time unless given, and a
            chance of a random move.
        plays (AiSide | None | Unset):
        threads (int | None | Unset): Threads each of the AI's searches uses, as `threads` in
            `POST /v1/search` (default 1).
        time_ms (int | None | Unset): Time budget per move in milliseconds, from 1 to the server's cap
            (default: the game's `default_time_ms`).
    """

    clock: ClockBody | None | Unset = UNSET
    depth: int | None | Unset = UNSET
    level: int | None | Unset = UNSET
    plays: AiSide | None | Unset = UNSET
    threads: int | None | Unset = UNSET
    time_ms: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.clock_body import ClockBody  # noqa: PLC0415

        clock: dict[str, Any] | None | Unset
        if isinstance(self.clock, Unset):
            clock = UNSET
        elif isinstance(self.clock, ClockBody):
            clock = self.clock.to_dict()
        else:
            clock = self.clock

        depth: int | None | Unset
        if isinstance(self.depth, Unset):
            depth = UNSET
        else:
            depth = self.depth

        level: int | None | Unset
        if isinstance(self.level, Unset):
            level = UNSET
        else:
            level = self.level

        plays: None | str | Unset
        if isinstance(self.plays, Unset):
            plays = UNSET
        elif isinstance(self.plays, AiSide):
            plays = self.plays.value
        else:
            plays = self.plays

        threads: int | None | Unset
        if isinstance(self.threads, Unset):
            threads = UNSET
        else:
            threads = self.threads

        time_ms: int | None | Unset
        if isinstance(self.time_ms, Unset):
            time_ms = UNSET
        else:
            time_ms = self.time_ms

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if clock is not UNSET:
            field_dict["clock"] = clock
        if depth is not UNSET:
            field_dict["depth"] = depth
        if level is not UNSET:
            field_dict["level"] = level
        if plays is not UNSET:
            field_dict["plays"] = plays
        if threads is not UNSET:
            field_dict["threads"] = threads
        if time_ms is not UNSET:
            field_dict["time_ms"] = time_ms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clock_body import ClockBody  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_clock(data: object) -> ClockBody | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                clock_type_0 = ClockBody.from_dict(data)

                return clock_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClockBody | None | Unset, data)

        clock = _parse_clock(d.pop("clock", UNSET))

        def _parse_depth(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        depth = _parse_depth(d.pop("depth", UNSET))

        def _parse_level(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        level = _parse_level(d.pop("level", UNSET))

        def _parse_plays(data: object) -> AiSide | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                plays_type_0 = AiSide(data)

                return plays_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AiSide | None | Unset, data)

        plays = _parse_plays(d.pop("plays", UNSET))

        def _parse_threads(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        threads = _parse_threads(d.pop("threads", UNSET))

        def _parse_time_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        time_ms = _parse_time_ms(d.pop("time_ms", UNSET))

        ai_request = cls(
            clock=clock,
            depth=depth,
            level=level,
            plays=plays,
            threads=threads,
            time_ms=time_ms,
        )

        return ai_request

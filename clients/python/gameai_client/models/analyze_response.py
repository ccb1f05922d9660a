from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.move_review import MoveReview
    from ..models.side_summary import SideSummary


T = TypeVar("T", bound="AnalyzeResponse")


@_attrs_define
class AnalyzeResponse:
    """The review.

    Attributes:
        o (SideSummary): Moves and mistakes by one side.
        x (SideSummary): Moves and mistakes by one side.
        moves (list[MoveReview]):
        threshold (int): The threshold the marks used.
        time_ms (int): The whole analysis's wall time, in milliseconds.
        time_ms_per_position (int): The time budget each position had, in milliseconds.
    """

    o: SideSummary
    x: SideSummary
    moves: list[MoveReview]
    threshold: int
    time_ms: int
    time_ms_per_position: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        o = self.o.to_dict()

        x = self.x.to_dict()

        moves = []
        for moves_item_data in self.moves:
            moves_item = moves_item_data.to_dict()
            moves.append(moves_item)

        threshold = self.threshold

        time_ms = self.time_ms

        time_ms_per_position = self.time_ms_per_position

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "O": o,
                "X": x,
                "moves": moves,
                "threshold": threshold,
                "time_ms": time_ms,
                "time_ms_per_position": time_ms_per_position,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.move_review import MoveReview  # noqa: PLC0415
        from ..models.side_summary import SideSummary  # noqa: PLC0415

        d = dict(src_dict)
        o = SideSummary.from_dict(d.pop("O"))

        x = SideSummary.from_dict(d.pop("X"))

        moves = []
        _moves = d.pop("moves")
        for moves_item_data in _moves:
            moves_item = MoveReview.from_dict(moves_item_data)

            moves.append(moves_item)

        threshold = d.pop("threshold")

        time_ms = d.pop("time_ms")

        time_ms_per_position = d.pop("time_ms_per_position")

        analyze_response = cls(
            o=o,
            x=x,
            moves=moves,
            threshold=threshold,
            time_ms=time_ms,
            time_ms_per_position=time_ms_per_position,
        )

        analyze_response.additional_properties = d
        return analyze_response

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SideSummary")


@_attrs_define
class SideSummary:
    """Moves and mistakes by one side.

    Attributes:
        average_loss (float): The mean `loss` per move.
        blunders (int):
        mistakes (int):
        moves (int):
    """

    average_loss: float
    blunders: int
    mistakes: int
    moves: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        average_loss = self.average_loss

        blunders = self.blunders

        mistakes = self.mistakes

        moves = self.moves

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "average_loss": average_loss,
                "blunders": blunders,
                "mistakes": mistakes,
                "moves": moves,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        average_loss = d.pop("average_loss")

        blunders = d.pop("blunders")

        mistakes = d.pop("mistakes")

        moves = d.pop("moves")

        side_summary = cls(
            average_loss=average_loss,
            blunders=blunders,
            mistakes=mistakes,
            moves=moves,
        )

        side_summary.additional_properties = d
        return side_summary

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

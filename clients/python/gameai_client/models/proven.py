from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.result_kind import ResultKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="Proven")


@_attrs_define
class Proven:
    """A result proven under perfect play, from the side to move's view.

    Attributes:
        plies (int): Plies to the end of the game, the winner hurrying and the loser delaying.
        result (ResultKind):
        disc_diff (int | None | Unset): Othello: the final disc difference for the side to move.
    """

    plies: int
    result: ResultKind
    disc_diff: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        plies = self.plies

        result = self.result.value

        disc_diff: int | None | Unset
        if isinstance(self.disc_diff, Unset):
            disc_diff = UNSET
        else:
            disc_diff = self.disc_diff

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plies": plies,
                "result": result,
            }
        )
        if disc_diff is not UNSET:
            field_dict["disc_diff"] = disc_diff

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        plies = d.pop("plies")

        result = ResultKind(d.pop("result"))

        def _parse_disc_diff(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        disc_diff = _parse_disc_diff(d.pop("disc_diff", UNSET))

        proven = cls(
            plies=plies,
            result=result,
            disc_diff=disc_diff,
        )

        proven.additional_properties = d
        return proven

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

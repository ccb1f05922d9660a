from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="MoveBody")


@_attrs_define
class MoveBody:
    """A move. Othello's pass has no cell: `{"pass": true, "notation": "pass"}`.

    Attributes:
        notation (str): `b3`, Connect Four's column `4`, or `pass`.
        col (int | None | Unset): 0-based from the left.
        pass_ (bool | Unset):  Default: False.
        row (int | None | Unset): 0-based from the top.
    """

    notation: str
    col: int | None | Unset = UNSET
    pass_: bool | Unset = False
    row: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        notation = self.notation

        col: int | None | Unset
        if isinstance(self.col, Unset):
            col = UNSET
        else:
            col = self.col

        pass_ = self.pass_

        row: int | None | Unset
        if isinstance(self.row, Unset):
            row = UNSET
        else:
            row = self.row

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "notation": notation,
            }
        )
        if col is not UNSET:
            field_dict["col"] = col
        if pass_ is not UNSET:
            field_dict["pass"] = pass_
        if row is not UNSET:
            field_dict["row"] = row

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        notation = d.pop("notation")

        def _parse_col(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        col = _parse_col(d.pop("col", UNSET))

        pass_ = d.pop("pass", UNSET)

        def _parse_row(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        row = _parse_row(d.pop("row", UNSET))

        move_body = cls(
            notation=notation,
            col=col,
            pass_=pass_,
            row=row,
        )

        move_body.additional_properties = d
        return move_body

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

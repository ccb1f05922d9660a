from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.record_format import RecordFormat

T = TypeVar("T", bound="RecordBody")


@_attrs_define
class RecordBody:
    """A game record, in place of `board` and `moves`: the position after its
    last move. Its game must be the request's `game`; `size` and `rules`,
    if given, are checked against it or fill in what the format leaves out
    (the rules of a psq or SGF record).

        Attributes:
            format_ (RecordFormat): A record format.
            text (str): The record itself. Example: (;FF[4]GM[4]SZ[15];B[hh];W[ii]).
    """

    format_: RecordFormat
    text: str

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_.value

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "format": format_,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        format_ = RecordFormat(d.pop("format"))

        text = d.pop("text")

        record_body = cls(
            format_=format_,
            text=text,
        )

        return record_body

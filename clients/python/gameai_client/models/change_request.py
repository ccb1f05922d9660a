from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ChangeRequest")


@_attrs_define
class ChangeRequest:
    """A change with nothing to say but, optionally, the version it expects.
    The body may be empty.

        Attributes:
            expected_version (int | None | Unset): Refuse with 409 unless the session is at this version.
    """

    expected_version: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))

        change_request = cls(
            expected_version=expected_version,
        )

        return change_request

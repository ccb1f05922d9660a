from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GameLimits")


@_attrs_define
class GameLimits:
    """One game's caps and defaults.

    Attributes:
        default_depth (int):
        default_margin (int): The margin `"randomize": true` uses, in score units.
        default_mistake_threshold (int): A score drop above this marks a mistake in `POST /v1/analyze`.
        default_time_ms (int):
        max_depth (int):
        name (str):
    """

    default_depth: int
    default_margin: int
    default_mistake_threshold: int
    default_time_ms: int
    max_depth: int
    name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        default_depth = self.default_depth

        default_margin = self.default_margin

        default_mistake_threshold = self.default_mistake_threshold

        default_time_ms = self.default_time_ms

        max_depth = self.max_depth

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "default_depth": default_depth,
                "default_margin": default_margin,
                "default_mistake_threshold": default_mistake_threshold,
                "default_time_ms": default_time_ms,
                "max_depth": max_depth,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        default_depth = d.pop("default_depth")

        default_margin = d.pop("default_margin")

        default_mistake_threshold = d.pop("default_mistake_threshold")

        default_time_ms = d.pop("default_time_ms")

        max_depth = d.pop("max_depth")

        name = d.pop("name")

        game_limits = cls(
            default_depth=default_depth,
            default_margin=default_margin,
            default_mistake_threshold=default_mistake_threshold,
            default_time_ms=default_time_ms,
            max_depth=max_depth,
            name=name,
        )

        game_limits.additional_properties = d
        return game_limits

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

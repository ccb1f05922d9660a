from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="GameBody")


@_attrs_define
class GameBody:
    """A game the service plays.

    Attributes:
        column_notation (bool): Moves are column digits, and `moves` may be one string of them
            (`"4453"`).
        default_depth (int):
        default_size (int):
        default_time_ms (int): The time budget when a request names none, in milliseconds.
        flips (bool): A move turns the opponent's discs it brackets.
        forbidden_points (bool): Black may have forbidden points under some rules (`POST
            /v1/position` lists them in `forbidden`).
        gravity (bool): A move names a column, and the disc drops to its lowest empty cell.
        max_depth (int):
        name (str): The `game` value in requests.
        notation (str): How moves are written.
        passes (bool): A side with no legal move passes: `"pass"` is then its only move.
        rules (list[str]): Rule variants offered (`rules` in requests).
        sizes (list[int]): Board sizes offered (`size` in requests).
        start (list[str]): The start position, rows top first.
        title (str):
        default_rules (None | str | Unset):
    """

    column_notation: bool
    default_depth: int
    default_size: int
    default_time_ms: int
    flips: bool
    forbidden_points: bool
    gravity: bool
    max_depth: int
    name: str
    notation: str
    passes: bool
    rules: list[str]
    sizes: list[int]
    start: list[str]
    title: str
    default_rules: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        column_notation = self.column_notation

        default_depth = self.default_depth

        default_size = self.default_size

        default_time_ms = self.default_time_ms

        flips = self.flips

        forbidden_points = self.forbidden_points

        gravity = self.gravity

        max_depth = self.max_depth

        name = self.name

        notation = self.notation

        passes = self.passes

        rules = self.rules

        sizes = self.sizes

        start = self.start

        title = self.title

        default_rules: None | str | Unset
        if isinstance(self.default_rules, Unset):
            default_rules = UNSET
        else:
            default_rules = self.default_rules

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "column_notation": column_notation,
                "default_depth": default_depth,
                "default_size": default_size,
                "default_time_ms": default_time_ms,
                "flips": flips,
                "forbidden_points": forbidden_points,
                "gravity": gravity,
                "max_depth": max_depth,
                "name": name,
                "notation": notation,
                "passes": passes,
                "rules": rules,
                "sizes": sizes,
                "start": start,
                "title": title,
            }
        )
        if default_rules is not UNSET:
            field_dict["default_rules"] = default_rules

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        column_notation = d.pop("column_notation")

        default_depth = d.pop("default_depth")

        default_size = d.pop("default_size")

        default_time_ms = d.pop("default_time_ms")

        flips = d.pop("flips")

        forbidden_points = d.pop("forbidden_points")

        gravity = d.pop("gravity")

        max_depth = d.pop("max_depth")

        name = d.pop("name")

        notation = d.pop("notation")

        passes = d.pop("passes")

        rules = cast(list[str], d.pop("rules"))

        sizes = cast(list[int], d.pop("sizes"))

        start = cast(list[str], d.pop("start"))

        title = d.pop("title")

        def _parse_default_rules(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        default_rules = _parse_default_rules(d.pop("default_rules", UNSET))

        game_body = cls(
            column_notation=column_notation,
            default_depth=default_depth,
            default_size=default_size,
            default_time_ms=default_time_ms,
            flips=flips,
            forbidden_points=forbidden_points,
            gravity=gravity,
            max_depth=max_depth,
            name=name,
            notation=notation,
            passes=passes,
            rules=rules,
            sizes=sizes,
            start=start,
            title=title,
            default_rules=default_rules,
        )

        game_body.additional_properties = d
        return game_body

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

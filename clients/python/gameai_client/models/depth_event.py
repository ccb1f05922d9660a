from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DepthEvent")


@_attrs_define
class DepthEvent:
    """The `depth` event: one completed iteration.

    Attributes:
        depth (int):
        nodes (int): Nodes so far.
        pv (list[str]): The expected line so far, best move first.
        score (int): The side to move's view, as in the result.
        time_ms (int): Milliseconds since the search started.
    """

    depth: int
    nodes: int
    pv: list[str]
    score: int
    time_ms: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        depth = self.depth

        nodes = self.nodes

        pv = self.pv

        score = self.score

        time_ms = self.time_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "depth": depth,
                "nodes": nodes,
                "pv": pv,
                "score": score,
                "time_ms": time_ms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        depth = d.pop("depth")

        nodes = d.pop("nodes")

        pv = cast(list[str], d.pop("pv"))

        score = d.pop("score")

        time_ms = d.pop("time_ms")

        depth_event = cls(
            depth=depth,
            nodes=nodes,
            pv=pv,
            score=score,
            time_ms=time_ms,
        )

        depth_event.additional_properties = d
        return depth_event

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

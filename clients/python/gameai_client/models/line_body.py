from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.answer_source import AnswerSource
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.move_body import MoveBody
    from ..models.proven import Proven


T = TypeVar("T", bound="LineBody")


@_attrs_define
class LineBody:
    """One root move, searched on its own.

    Attributes:
        depth (int): Plies searched, this move included.
        move (MoveBody): A move. Othello's pass has no cell: `{"pass": true, "notation": "pass"}`.
        nodes (int):
        pv (list[str]): This move, then the expected replies.
        score (int): The side to move's view, as `score`.
        source (AnswerSource): Where an answer came from: `search`, a search (or exact solve) made
            for this request; `book`, the game's opening book, with no search
            (`nodes` 0): Connect Four's opening positions, exact, and othello's
            first ten plies, from our own deep searches (not for a strength level,
            a random choice or a shallower `depth` than the book's); `cache`, an
            earlier search of the same position (see `cache` in the request).
        proven (None | Proven | Unset):
    """

    depth: int
    move: MoveBody
    nodes: int
    pv: list[str]
    score: int
    source: AnswerSource
    proven: None | Proven | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.proven import Proven  # noqa: PLC0415

        depth = self.depth

        move = self.move.to_dict()

        nodes = self.nodes

        pv = self.pv

        score = self.score

        source = self.source.value

        proven: dict[str, Any] | None | Unset
        if isinstance(self.proven, Unset):
            proven = UNSET
        elif isinstance(self.proven, Proven):
            proven = self.proven.to_dict()
        else:
            proven = self.proven

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "depth": depth,
                "move": move,
                "nodes": nodes,
                "pv": pv,
                "score": score,
                "source": source,
            }
        )
        if proven is not UNSET:
            field_dict["proven"] = proven

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.move_body import MoveBody  # noqa: PLC0415
        from ..models.proven import Proven  # noqa: PLC0415

        d = dict(src_dict)
        depth = d.pop("depth")

        move = MoveBody.from_dict(d.pop("move"))

        nodes = d.pop("nodes")

        pv = cast(list[str], d.pop("pv"))

        score = d.pop("score")

        source = AnswerSource(d.pop("source"))

        def _parse_proven(data: object) -> None | Proven | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                proven_type_0 = Proven.from_dict(data)

                return proven_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Proven | Unset, data)

        proven = _parse_proven(d.pop("proven", UNSET))

        line_body = cls(
            depth=depth,
            move=move,
            nodes=nodes,
            pv=pv,
            score=score,
            source=source,
            proven=proven,
        )

        line_body.additional_properties = d
        return line_body

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

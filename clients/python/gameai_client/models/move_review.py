from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.mark import Mark
from ..models.side import Side
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.proven import Proven


T = TypeVar("T", bound="MoveReview")


@_attrs_define
class MoveReview:
    """One move, reviewed.

    Attributes:
        best_move (str): The search's choice in the position before it.
        best_pv (list[str]): The expected line after the best move.
        loss (int): How much the move gave away (never negative).
        mark (Mark): How good a move was.
        move (str): The move played.
        ply (int): 1 for the first move.
        score_after (int): After the move, from the mover's side.
        score_before (int): The position before the move, from the mover's side.
        side (Side): A side: `X` moves first (black in gomoku and othello).
        proven_after (None | Proven | Unset):
        proven_before (None | Proven | Unset):
    """

    best_move: str
    best_pv: list[str]
    loss: int
    mark: Mark
    move: str
    ply: int
    score_after: int
    score_before: int
    side: Side
    proven_after: None | Proven | Unset = UNSET
    proven_before: None | Proven | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.proven import Proven  # noqa: PLC0415

        best_move = self.best_move

        best_pv = self.best_pv

        loss = self.loss

        mark = self.mark.value

        move = self.move

        ply = self.ply

        score_after = self.score_after

        score_before = self.score_before

        side = self.side.value

        proven_after: dict[str, Any] | None | Unset
        if isinstance(self.proven_after, Unset):
            proven_after = UNSET
        elif isinstance(self.proven_after, Proven):
            proven_after = self.proven_after.to_dict()
        else:
            proven_after = self.proven_after

        proven_before: dict[str, Any] | None | Unset
        if isinstance(self.proven_before, Unset):
            proven_before = UNSET
        elif isinstance(self.proven_before, Proven):
            proven_before = self.proven_before.to_dict()
        else:
            proven_before = self.proven_before

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "best_move": best_move,
                "best_pv": best_pv,
                "loss": loss,
                "mark": mark,
                "move": move,
                "ply": ply,
                "score_after": score_after,
                "score_before": score_before,
                "side": side,
            }
        )
        if proven_after is not UNSET:
            field_dict["proven_after"] = proven_after
        if proven_before is not UNSET:
            field_dict["proven_before"] = proven_before

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.proven import Proven  # noqa: PLC0415

        d = dict(src_dict)
        best_move = d.pop("best_move")

        best_pv = cast(list[str], d.pop("best_pv"))

        loss = d.pop("loss")

        mark = Mark(d.pop("mark"))

        move = d.pop("move")

        ply = d.pop("ply")

        score_after = d.pop("score_after")

        score_before = d.pop("score_before")

        side = Side(d.pop("side"))

        def _parse_proven_after(data: object) -> None | Proven | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                proven_after_type_0 = Proven.from_dict(data)

                return proven_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Proven | Unset, data)

        proven_after = _parse_proven_after(d.pop("proven_after", UNSET))

        def _parse_proven_before(data: object) -> None | Proven | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                proven_before_type_0 = Proven.from_dict(data)

                return proven_before_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Proven | Unset, data)

        proven_before = _parse_proven_before(d.pop("proven_before", UNSET))

        move_review = cls(
            best_move=best_move,
            best_pv=best_pv,
            loss=loss,
            mark=mark,
            move=move,
            ply=ply,
            score_after=score_after,
            score_before=score_before,
            side=side,
            proven_after=proven_after,
            proven_before=proven_before,
        )

        move_review.additional_properties = d
        return move_review

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

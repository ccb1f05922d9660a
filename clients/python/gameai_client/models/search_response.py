from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.answer_source import AnswerSource
from ..models.side import Side
from ..models.stop_reason import StopReason
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.line_body import LineBody
    from ..models.move_body import MoveBody
    from ..models.proven import Proven


T = TypeVar("T", bound="SearchResponse")


@_attrs_define
class SearchResponse:
    """The search's answer.

    Attributes:
        best_move (MoveBody): A move. Othello's pass has no cell: `{"pass": true, "notation": "pass"}`.
        depth (int): The last completed iteration, in plies.
        nodes (int): Every position the search entered, root and leaves included.
        nps (int): Nodes per second.
        pv (list[str]): The expected line, best move first, in notation.
        score (int): The side to move's view. A proven win in `p` plies scores
            `100000 - p`, a loss the negation; heuristic scores stay within ±50000.
        source (AnswerSource): Where an answer came from: `search`, a search (or exact solve) made
            for this request; `book`, the game's opening book, with no search
            (`nodes` 0): Connect Four's opening positions, exact, and othello's
            first ten plies, from our own deep searches (not for a strength level,
            a random choice or a shallower `depth` than the book's); `cache`, an
            earlier search of the same position (see `cache` in the request).
        stopped (StopReason): Why the search ended.
        time_ms (int):
        to_move (Side): A side: `X` moves first (black in gomoku and othello).
        lines (list[LineBody] | None | Unset): With `multi_pv` above 1: the best moves, best first.
        proven (None | Proven | Unset):
        seed (int | None | Unset): The seed the move was picked with (`randomize` or `level`).
    """

    best_move: MoveBody
    depth: int
    nodes: int
    nps: int
    pv: list[str]
    score: int
    source: AnswerSource
    stopped: StopReason
    time_ms: int
    to_move: Side
    lines: list[LineBody] | None | Unset = UNSET
    proven: None | Proven | Unset = UNSET
    seed: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.proven import Proven  # noqa: PLC0415

        best_move = self.best_move.to_dict()

        depth = self.depth

        nodes = self.nodes

        nps = self.nps

        pv = self.pv

        score = self.score

        source = self.source.value

        stopped = self.stopped.value

        time_ms = self.time_ms

        to_move = self.to_move.value

        lines: list[dict[str, Any]] | None | Unset
        if isinstance(self.lines, Unset):
            lines = UNSET
        elif isinstance(self.lines, list):
            lines = []
            for lines_type_0_item_data in self.lines:
                lines_type_0_item = lines_type_0_item_data.to_dict()
                lines.append(lines_type_0_item)

        else:
            lines = self.lines

        proven: dict[str, Any] | None | Unset
        if isinstance(self.proven, Unset):
            proven = UNSET
        elif isinstance(self.proven, Proven):
            proven = self.proven.to_dict()
        else:
            proven = self.proven

        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "best_move": best_move,
                "depth": depth,
                "nodes": nodes,
                "nps": nps,
                "pv": pv,
                "score": score,
                "source": source,
                "stopped": stopped,
                "time_ms": time_ms,
                "to_move": to_move,
            }
        )
        if lines is not UNSET:
            field_dict["lines"] = lines
        if proven is not UNSET:
            field_dict["proven"] = proven
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.line_body import LineBody  # noqa: PLC0415
        from ..models.move_body import MoveBody  # noqa: PLC0415
        from ..models.proven import Proven  # noqa: PLC0415

        d = dict(src_dict)
        best_move = MoveBody.from_dict(d.pop("best_move"))

        depth = d.pop("depth")

        nodes = d.pop("nodes")

        nps = d.pop("nps")

        pv = cast(list[str], d.pop("pv"))

        score = d.pop("score")

        source = AnswerSource(d.pop("source"))

        stopped = StopReason(d.pop("stopped"))

        time_ms = d.pop("time_ms")

        to_move = Side(d.pop("to_move"))

        def _parse_lines(data: object) -> list[LineBody] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                lines_type_0 = []
                _lines_type_0 = data
                for lines_type_0_item_data in _lines_type_0:
                    lines_type_0_item = LineBody.from_dict(lines_type_0_item_data)

                    lines_type_0.append(lines_type_0_item)

                return lines_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[LineBody] | None | Unset, data)

        lines = _parse_lines(d.pop("lines", UNSET))

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

        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        search_response = cls(
            best_move=best_move,
            depth=depth,
            nodes=nodes,
            nps=nps,
            pv=pv,
            score=score,
            source=source,
            stopped=stopped,
            time_ms=time_ms,
            to_move=to_move,
            lines=lines,
            proven=proven,
            seed=seed,
        )

        search_response.additional_properties = d
        return search_response

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

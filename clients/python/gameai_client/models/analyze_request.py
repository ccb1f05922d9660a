from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.side import Side
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.record_body import RecordBody


T = TypeVar("T", bound="AnalyzeRequest")


@_attrs_define
class AnalyzeRequest:
    """A game to review.

    Attributes:
        game (str): The game's name, as `GET /v1/games` lists it. Example: tictactoe.
        board (list[str] | None | Unset): The board the game started from (default: the game's start).
        depth (int | None | Unset): Deepest iteration per position (default: the game's `default_depth`).
        moves (list[str] | None | str | Unset):
        nodes (int | None | Unset): Node budget per position.
        record (None | RecordBody | Unset):
        rules (None | str | Unset): Rule variant, for games with several (gomoku: freestyle, standard, renju).
        size (int | None | Unset): Board size, for games with several (gomoku: 15, 19, 20).
        threads (int | None | Unset): Threads each position's search uses, as in `POST /v1/search`.
        threshold (int | None | Unset): A score drop above this is a mistake (default: the game's
            `default_mistake_threshold` in `GET /v1/limits`).
        time_ms (int | None | Unset): Time budget per position in milliseconds (default 200); the whole
            analysis stays within the server's cap, so long games get less.
        to_move (None | Side | Unset):
    """

    game: str
    board: list[str] | None | Unset = UNSET
    depth: int | None | Unset = UNSET
    moves: list[str] | None | str | Unset = UNSET
    nodes: int | None | Unset = UNSET
    record: None | RecordBody | Unset = UNSET
    rules: None | str | Unset = UNSET
    size: int | None | Unset = UNSET
    threads: int | None | Unset = UNSET
    threshold: int | None | Unset = UNSET
    time_ms: int | None | Unset = UNSET
    to_move: None | Side | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.record_body import RecordBody  # noqa: PLC0415

        game = self.game

        board: list[str] | None | Unset
        if isinstance(self.board, Unset):
            board = UNSET
        elif isinstance(self.board, list):
            board = self.board

        else:
            board = self.board

        depth: int | None | Unset
        if isinstance(self.depth, Unset):
            depth = UNSET
        else:
            depth = self.depth

        moves: list[str] | None | str | Unset
        if isinstance(self.moves, Unset):
            moves = UNSET
        elif isinstance(self.moves, list):
            moves = self.moves

        else:
            moves = self.moves

        nodes: int | None | Unset
        if isinstance(self.nodes, Unset):
            nodes = UNSET
        else:
            nodes = self.nodes

        record: dict[str, Any] | None | Unset
        if isinstance(self.record, Unset):
            record = UNSET
        elif isinstance(self.record, RecordBody):
            record = self.record.to_dict()
        else:
            record = self.record

        rules: None | str | Unset
        if isinstance(self.rules, Unset):
            rules = UNSET
        else:
            rules = self.rules

        size: int | None | Unset
        if isinstance(self.size, Unset):
            size = UNSET
        else:
            size = self.size

        threads: int | None | Unset
        if isinstance(self.threads, Unset):
            threads = UNSET
        else:
            threads = self.threads

        threshold: int | None | Unset
        if isinstance(self.threshold, Unset):
            threshold = UNSET
        else:
            threshold = self.threshold

        time_ms: int | None | Unset
        if isinstance(self.time_ms, Unset):
            time_ms = UNSET
        else:
            time_ms = self.time_ms

        to_move: None | str | Unset
        if isinstance(self.to_move, Unset):
            to_move = UNSET
        elif isinstance(self.to_move, Side):
            to_move = self.to_move.value
        else:
            to_move = self.to_move

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "game": game,
            }
        )
        if board is not UNSET:
            field_dict["board"] = board
        if depth is not UNSET:
            field_dict["depth"] = depth
        if moves is not UNSET:
            field_dict["moves"] = moves
        if nodes is not UNSET:
            field_dict["nodes"] = nodes
        if record is not UNSET:
            field_dict["record"] = record
        if rules is not UNSET:
            field_dict["rules"] = rules
        if size is not UNSET:
            field_dict["size"] = size
        if threads is not UNSET:
            field_dict["threads"] = threads
        if threshold is not UNSET:
            field_dict["threshold"] = threshold
        if time_ms is not UNSET:
            field_dict["time_ms"] = time_ms
        if to_move is not UNSET:
            field_dict["to_move"] = to_move

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.record_body import RecordBody  # noqa: PLC0415

        d = dict(src_dict)
        game = d.pop("game")

        def _parse_board(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                board_type_0 = cast(list[str], data)

                return board_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        board = _parse_board(d.pop("board", UNSET))

        def _parse_depth(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        depth = _parse_depth(d.pop("depth", UNSET))

        def _parse_moves(data: object) -> list[str] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                componentsschemas_moves_type_0 = cast(list[str], data)

                return componentsschemas_moves_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | str | Unset, data)

        moves = _parse_moves(d.pop("moves", UNSET))

        def _parse_nodes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        nodes = _parse_nodes(d.pop("nodes", UNSET))

        def _parse_record(data: object) -> None | RecordBody | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                record_type_0 = RecordBody.from_dict(data)

                return record_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RecordBody | Unset, data)

        record = _parse_record(d.pop("record", UNSET))

        def _parse_rules(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rules = _parse_rules(d.pop("rules", UNSET))

        def _parse_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        size = _parse_size(d.pop("size", UNSET))

        def _parse_threads(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        threads = _parse_threads(d.pop("threads", UNSET))

        def _parse_threshold(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        threshold = _parse_threshold(d.pop("threshold", UNSET))

        def _parse_time_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        time_ms = _parse_time_ms(d.pop("time_ms", UNSET))

        def _parse_to_move(data: object) -> None | Side | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_move_type_0 = Side(data)

                return to_move_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Side | Unset, data)

        to_move = _parse_to_move(d.pop("to_move", UNSET))

        analyze_request = cls(
            game=game,
            board=board,
            depth=depth,
            moves=moves,
            nodes=nodes,
            record=record,
            rules=rules,
            size=size,
            threads=threads,
            threshold=threshold,
            time_ms=time_ms,
            to_move=to_move,
        )

        return analyze_request

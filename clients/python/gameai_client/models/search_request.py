from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.side import Side
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.clock_body import ClockBody
    from ..models.record_body import RecordBody


T = TypeVar("T", bound="SearchRequest")


@_attrs_define
class SearchRequest:
    """A position to search, and how hard to search it.

    Attributes:
        game (str): The game's name, as `GET /v1/games` lists it. Example: tictactoe.
        board (list[str] | None | Unset): Rows, top row first: `.` empty, `X`, `O`. Example: ['X.O', '...', '...'].
        cache (bool | None | Unset): Whether an earlier search of the same position may answer (default
            `true`): a proven result answers any request; a request without a
            time limit only the result of the same depth and node budget; a
            time-limited one a result at least as deep as its budget reaches.
            Requests with `randomize`, a random `level` or `multi_pv` above 1
            are always searched. `false` searches anew.
        clock (ClockBody | None | Unset):
        depth (int | None | Unset): Deepest iteration in plies, from 1 to the game's `max_depth`
            (default: the game's `default_depth`). Example: 9.
        level (int | None | Unset): Strength from 1 (a beginner can win) to 10 (full strength): sets
            the depth and time (unless given) and a chance of a random move.
        moves (list[str] | None | str | Unset):
        multi_pv (int | None | Unset): Score the best `multi_pv` moves, each with its own line, in
            `lines`, best first (1, the default, gives no `lines`). The number
            of legal moves scores every move. Example: 3.
        nodes (int | None | Unset): Node budget: the search stops soon after entering this many
            positions (up to `GET /v1/limits`' `max_nodes`). The first limit
            reached ends the search; `stopped` says which.
        randomize (bool | int | None | Unset):
        record (None | RecordBody | Unset):
        rules (None | str | Unset): Rule variant, for games with several (gomoku: freestyle, standard, renju).
        seed (int | None | Unset): Seed for `randomize` and `level`: the same seed gives the same
            move. Echoed in the answer; one is drawn (below 2^53, exact in
            JavaScript) when none is given.
        size (int | None | Unset): Board size, for games with several (gomoku: 15, 19, 20).
        threads (int | None | Unset): Threads to search with, from 1 (the default) to the server's
            `max_threads` (`GET /v1/limits`). The search holds that many workers
            while it runs, and waits in the queue until they are free. With more
            than one the answer may differ from run to run (threads share one
            table, and who finds what first varies); with one it is the same
            every time for the same request and budget.
        time_ms (int | None | Unset): Time budget in milliseconds, from 1 to the server's cap
            (default: the game's `default_time_ms`).
        to_move (None | Side | Unset):
    """

    game: str
    board: list[str] | None | Unset = UNSET
    cache: bool | None | Unset = UNSET
    clock: ClockBody | None | Unset = UNSET
    depth: int | None | Unset = UNSET
    level: int | None | Unset = UNSET
    moves: list[str] | None | str | Unset = UNSET
    multi_pv: int | None | Unset = UNSET
    nodes: int | None | Unset = UNSET
    randomize: bool | int | None | Unset = UNSET
    record: None | RecordBody | Unset = UNSET
    rules: None | str | Unset = UNSET
    seed: int | None | Unset = UNSET
    size: int | None | Unset = UNSET
    threads: int | None | Unset = UNSET
    time_ms: int | None | Unset = UNSET
    to_move: None | Side | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.clock_body import ClockBody  # noqa: PLC0415
        from ..models.record_body import RecordBody  # noqa: PLC0415

        game = self.game

        board: list[str] | None | Unset
        if isinstance(self.board, Unset):
            board = UNSET
        elif isinstance(self.board, list):
            board = self.board

        else:
            board = self.board

        cache: bool | None | Unset
        if isinstance(self.cache, Unset):
            cache = UNSET
        else:
            cache = self.cache

        clock: dict[str, Any] | None | Unset
        if isinstance(self.clock, Unset):
            clock = UNSET
        elif isinstance(self.clock, ClockBody):
            clock = self.clock.to_dict()
        else:
            clock = self.clock

        depth: int | None | Unset
        if isinstance(self.depth, Unset):
            depth = UNSET
        else:
            depth = self.depth

        level: int | None | Unset
        if isinstance(self.level, Unset):
            level = UNSET
        else:
            level = self.level

        moves: list[str] | None | str | Unset
        if isinstance(self.moves, Unset):
            moves = UNSET
        elif isinstance(self.moves, list):
            moves = self.moves

        else:
            moves = self.moves

        multi_pv: int | None | Unset
        if isinstance(self.multi_pv, Unset):
            multi_pv = UNSET
        else:
            multi_pv = self.multi_pv

        nodes: int | None | Unset
        if isinstance(self.nodes, Unset):
            nodes = UNSET
        else:
            nodes = self.nodes

        randomize: bool | int | None | Unset
        if isinstance(self.randomize, Unset):
            randomize = UNSET
        else:
            randomize = self.randomize

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

        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

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
        if cache is not UNSET:
            field_dict["cache"] = cache
        if clock is not UNSET:
            field_dict["clock"] = clock
        if depth is not UNSET:
            field_dict["depth"] = depth
        if level is not UNSET:
            field_dict["level"] = level
        if moves is not UNSET:
            field_dict["moves"] = moves
        if multi_pv is not UNSET:
            field_dict["multi_pv"] = multi_pv
        if nodes is not UNSET:
            field_dict["nodes"] = nodes
        if randomize is not UNSET:
            field_dict["randomize"] = randomize
        if record is not UNSET:
            field_dict["record"] = record
        if rules is not UNSET:
            field_dict["rules"] = rules
        if seed is not UNSET:
            field_dict["seed"] = seed
        if size is not UNSET:
            field_dict["size"] = size
        if threads is not UNSET:
            field_dict["threads"] = threads
        if time_ms is not UNSET:
            field_dict["time_ms"] = time_ms
        if to_move is not UNSET:
            field_dict["to_move"] = to_move

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clock_body import ClockBody  # noqa: PLC0415
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

        def _parse_cache(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        cache = _parse_cache(d.pop("cache", UNSET))

        def _parse_clock(data: object) -> ClockBody | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                clock_type_0 = ClockBody.from_dict(data)

                return clock_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClockBody | None | Unset, data)

        clock = _parse_clock(d.pop("clock", UNSET))

        def _parse_depth(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        depth = _parse_depth(d.pop("depth", UNSET))

        def _parse_level(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        level = _parse_level(d.pop("level", UNSET))

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

        def _parse_multi_pv(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        multi_pv = _parse_multi_pv(d.pop("multi_pv", UNSET))

        def _parse_nodes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        nodes = _parse_nodes(d.pop("nodes", UNSET))

        def _parse_randomize(data: object) -> bool | int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | int | None | Unset, data)

        randomize = _parse_randomize(d.pop("randomize", UNSET))

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

        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

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

        search_request = cls(
            game=game,
            board=board,
            cache=cache,
            clock=clock,
            depth=depth,
            level=level,
            moves=moves,
            multi_pv=multi_pv,
            nodes=nodes,
            randomize=randomize,
            record=record,
            rules=rules,
            seed=seed,
            size=size,
            threads=threads,
            time_ms=time_ms,
            to_move=to_move,
        )

        return search_request

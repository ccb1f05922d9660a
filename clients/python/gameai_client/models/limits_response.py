from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.game_limits import GameLimits


T = TypeVar("T", bound="LimitsResponse")


@_attrs_define
class LimitsResponse:
    """The server's caps, so clients can adapt instead of guessing.

    Attributes:
        games (list[GameLimits]):
        max_analyze_moves (int): The most moves in one `POST /v1/analyze`.
        max_batch_items (int): The most items in one `POST /v1/search/batch`.
        max_body_bytes (int): The largest request body, in bytes.
        max_level (int): `level` runs from 1 to this.
        max_multi_pv (int): The largest `multi_pv`.
        max_nodes (int): The largest `nodes` budget.
        max_threads (int): The most `threads` one search may use (`GAMEAI_MAX_THREADS`).
        max_time_ms (int): The largest `time_ms` of any search, in milliseconds.
        queue (int): Searches that may wait for a worker; beyond it the server answers 503.
        tt_mb (int): The table memory each worker may use, in MiB (`GAMEAI_TT_MB`).
        workers (int): Searches that run at once.
    """

    games: list[GameLimits]
    max_analyze_moves: int
    max_batch_items: int
    max_body_bytes: int
    max_level: int
    max_multi_pv: int
    max_nodes: int
    max_threads: int
    max_time_ms: int
    queue: int
    tt_mb: int
    workers: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        games = []
        for games_item_data in self.games:
            games_item = games_item_data.to_dict()
            games.append(games_item)

        max_analyze_moves = self.max_analyze_moves

        max_batch_items = self.max_batch_items

        max_body_bytes = self.max_body_bytes

        max_level = self.max_level

        max_multi_pv = self.max_multi_pv

        max_nodes = self.max_nodes

        max_threads = self.max_threads

        max_time_ms = self.max_time_ms

        queue = self.queue

        tt_mb = self.tt_mb

        workers = self.workers

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "games": games,
                "max_analyze_moves": max_analyze_moves,
                "max_batch_items": max_batch_items,
                "max_body_bytes": max_body_bytes,
                "max_level": max_level,
                "max_multi_pv": max_multi_pv,
                "max_nodes": max_nodes,
                "max_threads": max_threads,
                "max_time_ms": max_time_ms,
                "queue": queue,
                "tt_mb": tt_mb,
                "workers": workers,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_limits import GameLimits  # noqa: PLC0415

        d = dict(src_dict)
        games = []
        _games = d.pop("games")
        for games_item_data in _games:
            games_item = GameLimits.from_dict(games_item_data)

            games.append(games_item)

        max_analyze_moves = d.pop("max_analyze_moves")

        max_batch_items = d.pop("max_batch_items")

        max_body_bytes = d.pop("max_body_bytes")

        max_level = d.pop("max_level")

        max_multi_pv = d.pop("max_multi_pv")

        max_nodes = d.pop("max_nodes")

        max_threads = d.pop("max_threads")

        max_time_ms = d.pop("max_time_ms")

        queue = d.pop("queue")

        tt_mb = d.pop("tt_mb")

        workers = d.pop("workers")

        limits_response = cls(
            games=games,
            max_analyze_moves=max_analyze_moves,
            max_batch_items=max_batch_items,
            max_body_bytes=max_body_bytes,
            max_level=max_level,
            max_multi_pv=max_multi_pv,
            max_nodes=max_nodes,
            max_threads=max_threads,
            max_time_ms=max_time_ms,
            queue=queue,
            tt_mb=tt_mb,
            workers=workers,
        )

        limits_response.additional_properties = d
        return limits_response

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

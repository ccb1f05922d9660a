from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.batch_request_items_item import BatchRequestItemsItem


T = TypeVar("T", bound="BatchRequest")


@_attrs_define
class BatchRequest:
    """Searches to run together.

    Attributes:
        items (list[BatchRequestItemsItem]): Search requests, each a `SearchRequest` as `POST /v1/search` takes
            it (1 to `max_batch_items`). An item that is not an object, or has
            wrong types or unknown fields, refuses the whole batch with 400;
            otherwise each is checked on its own: an item the server cannot
            search (a value out of range, an impossible position) gets a problem
            and the others still run.
        time_ms (int | None | Unset): The whole batch's time budget in milliseconds, from 1 to the
            server's cap (default: the cap). No item searches past it.
    """

    items: list[BatchRequestItemsItem]
    time_ms: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        time_ms: int | None | Unset
        if isinstance(self.time_ms, Unset):
            time_ms = UNSET
        else:
            time_ms = self.time_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "items": items,
            }
        )
        if time_ms is not UNSET:
            field_dict["time_ms"] = time_ms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_request_items_item import BatchRequestItemsItem  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = BatchRequestItemsItem.from_dict(items_item_data)

            items.append(items_item)

        def _parse_time_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        time_ms = _parse_time_ms(d.pop("time_ms", UNSET))

        batch_request = cls(
            items=items,
            time_ms=time_ms,
        )

        return batch_request

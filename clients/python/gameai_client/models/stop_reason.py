from enum import StrEnum


class StopReason(StrEnum):
    CANCELLED = "cancelled"
    DEPTH = "depth"
    NODES = "nodes"
    PROVEN = "proven"
    TIME = "time"

    def __str__(self) -> str:
        return str(self.value)

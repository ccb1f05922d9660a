from enum import StrEnum


class GameStatus(StrEnum):
    DRAW = "draw"
    ONGOING = "ongoing"
    WIN = "win"

    def __str__(self) -> str:
        return str(self.value)

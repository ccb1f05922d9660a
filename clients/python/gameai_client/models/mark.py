from enum import StrEnum


class Mark(StrEnum):
    BEST = "best"
    BLUNDER = "blunder"
    GOOD = "good"
    MISTAKE = "mistake"

    def __str__(self) -> str:
        return str(self.value)

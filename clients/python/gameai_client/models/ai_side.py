from enum import StrEnum


class AiSide(StrEnum):
    BOTH = "both"
    NONE = "none"
    O = "O"
    X = "X"

    def __str__(self) -> str:
        return str(self.value)

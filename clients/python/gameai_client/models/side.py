from enum import StrEnum


class Side(StrEnum):
    O = "O"
    X = "X"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class RecordFormat(StrEnum):
    GGF = "ggf"
    MOVES = "moves"
    PSQ = "psq"
    SGF = "sgf"

    def __str__(self) -> str:
        return str(self.value)

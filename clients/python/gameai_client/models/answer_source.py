from enum import StrEnum


class AnswerSource(StrEnum):
    BOOK = "book"
    CACHE = "cache"
    SEARCH = "search"

    def __str__(self) -> str:
        return str(self.value)

"""Who wrote the current turn, read from the newer hooks' `turn_author` dict or `author_*` keywords."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TurnAuthor:
    id: str = ""
    name: str = ""
    is_bot: bool = False


def read_turn_author(raw: Any) -> TurnAuthor:
    """A TurnAuthor from `{"id", "name", "is_bot"}`; missing or odd values become empty."""
    if not isinstance(raw, dict):
        return TurnAuthor()
    author_id = raw.get("id")
    name = raw.get("name")
    return TurnAuthor(
        id="" if author_id is None else str(author_id).strip(),
        name="" if name is None else str(name).strip(),
        is_bot=raw.get("is_bot") is True,
    )

"""Derives stable message ids, because Hermes gives memory providers no platform message ids."""

from __future__ import annotations

import hashlib
from typing import Optional


def derive_message_id(session_id: str, turn_number: int, role: str, text: str, message_count: Optional[int] = None) -> str:
    """`hermes:<hash>` of session, turn, role and text: a retried turn maps to the same ids, so /save drops it.

    `message_count` (how many messages the session held at `sync_turn`) tells apart two turns with the same
    number and text when a host restarts its turn count; without it the id is the one older versions made.
    """
    parts = [session_id, str(turn_number), role, text]
    if message_count is not None:
        parts.append(f"messages={message_count}")
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return f"hermes:{digest[:40]}"


def qualify_user_id(platform: str, user_id: str) -> str:
    """`telegram:42`: the same number on two platforms is two different people (an id already qualified stays as is)."""
    prefix = f"{platform or 'hermes'}:"
    return user_id if user_id.startswith(prefix) else prefix + user_id

"""Derives stable message ids, because Hermes gives memory providers no platform message ids."""

from __future__ import annotations

import hashlib


def derive_message_id(session_id: str, turn_number: int, role: str, text: str) -> str:
    """`hermes:<hash>` of session, turn, role and text: a retried turn maps to the same ids, so /save drops it."""
    digest = hashlib.sha256("\x1f".join([session_id, str(turn_number), role, text]).encode("utf-8")).hexdigest()
    return f"hermes:{digest[:40]}"


def qualify_user_id(platform: str, user_id: str) -> str:
    """`telegram:42`: the same number on two platforms is two different people (an id already qualified stays as is)."""
    prefix = f"{platform or 'hermes'}:"
    return user_id if user_id.startswith(prefix) else prefix + user_id

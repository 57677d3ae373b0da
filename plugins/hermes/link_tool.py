"""The `memory_link` tool: one person across platforms, by a one-use code asked for here and said on another account."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any, Dict, Optional

from .http_client import MemoryPoolClient, ServiceError

LINK_TOOL = "memory_link"

LINK_TOOL_SCHEMA: Dict[str, Any] = {
    "name": LINK_TOOL,
    "description": (
        "Link the current user's accounts on other platforms (Discord, Telegram, Slack...) into one person, so "
        "memories name them once and follow them. Without `code`: get a one-use code (valid 10 minutes) that the "
        "user then says to the companion from their other account (on Discord: /memory link code:...). With "
        "`code`: the user gives the code they got on their other account, and the two are linked. Use only when "
        "the user asks to link their accounts. Never save a code to memory."
    ),
    "parameters": {
        "type": "object",
        "properties": {
            "code": {"type": "string", "maxLength": 40, "description": "the code from the other account, like ABCDE-FGHJK"},
        },
    },
}


def run_link(
    client: MemoryPoolClient,
    bot: str,
    args: Dict[str, Any],
    timeout: float,
    current_user_id: Optional[str],
    private_chat: bool,
) -> str:
    """POST /bots/{bot}/link-codes (no `code`) or /link-codes/redeem for `current_user_id`; JSON or an error object."""
    if not current_user_id:
        # Guessing the user (e.g. whoever opened a group session) could link someone else's account.
        return _error("unknown_user", "the current turn's author is not known, so nothing was linked")
    code = args.get("code")
    if code is not None and (not isinstance(code, str) or not code.strip()):
        return _error("invalid_argument", "code must be the code the other account was given, like ABCDE-FGHJK")
    account = {"user_id": current_user_id}
    path = f"/bots/{urllib.parse.quote(bot, safe='')}/link-codes"
    try:
        if code is None:
            if not private_chat:
                # A code read by others in a group could be said first by someone else's account.
                return _error("not_private", "link codes are given only in a direct chat: ask for one there")
            given = client.post_within(path, {"account": account}, deadline=timeout)
            return json.dumps({
                "code": given.get("code"),
                "expires_at": given.get("expires_at"),
                "tell_the_user": "Say this code from your other account within 10 minutes; it works once.",
            })
        person = client.post_within(f"{path}/redeem", {"code": code.strip(), "account": account}, deadline=timeout)
        return json.dumps({"linked": True, "person": person})
    except ServiceError as error:
        return json.dumps(error.to_dict())


def _error(code: str, message: str) -> str:
    return json.dumps({"error": {"code": code, "message": message}})

"""The tools the provider gives the model: search memory-pool, forget messages in it, link the user's accounts."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from .http_client import MemoryPoolClient, ServiceError
from .link_tool import LINK_TOOL, LINK_TOOL_SCHEMA

SEARCH_TOOL = "memory_pool_search"
FORGET_TOOL = "memory_pool_forget"
TOOL_NAMES = (SEARCH_TOOL, FORGET_TOOL, LINK_TOOL)

TOOL_SCHEMAS: List[Dict[str, Any]] = [
    {
        "name": SEARCH_TOOL,
        "description": (
            "Search the shared long-term chat memory (past conversations on every platform) "
            "for what was said about a topic. Returns matching excerpts with speakers and dates."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "what to look for, in natural language"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 20, "description": "most results (default 5)"},
            },
            "required": ["query"],
        },
    },
    {
        "name": FORGET_TOOL,
        "description": (
            "Remove messages from long-term memory for good: either by their message ids (as returned by "
            f"{SEARCH_TOOL} in messageIds), or with scope \"me\" everything the current user said (and the "
            "agent's replies in their direct chats). Use only when the user asks to forget something."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "message_ids": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "scope": {
                    "type": "string",
                    "enum": ["me"],
                    "description": "\"me\": forget all of the current user's memories instead of listed ids",
                },
            },
        },
    },
    LINK_TOOL_SCHEMA,
]


def run_search(
    client: MemoryPoolClient, bot: str, args: Dict[str, Any], timeout: float, context: Dict[str, Any]
) -> str:
    """POST /retrieve (within `timeout` seconds in total) from the chat's `context` (channel_id, is_dm) and return the hits as a JSON string."""
    query = str(args.get("query") or "").strip()
    if not query:
        return _error("invalid_argument", "query must be a non-empty string")
    limit = _read_limit(args.get("limit"))
    try:
        body = {"bot": bot, "query_text": query, "limit": limit, **context}
        answer = client.post_within("/retrieve", body, deadline=timeout)
    except ServiceError as error:
        return json.dumps(error.to_dict())
    hits = [
        {
            "text": hit.get("text", ""),
            "speakers": hit.get("speakers", ""),
            "timestamp": hit.get("timestamp"),
            "score": hit.get("score"),
            "source": hit.get("source"),
            "messageIds": hit.get("messageIds", ""),
        }
        for hit in answer.get("hits", [])
        if isinstance(hit, dict)
    ]
    return json.dumps({"count": len(hits), "hits": hits})


def run_forget(
    client: MemoryPoolClient, bot: str, args: Dict[str, Any], timeout: float, current_user_id: Optional[str]
) -> str:
    """POST /forget by message ids, or by `current_user_id` for scope "me"; the service's JSON or an error object."""
    scope = args.get("scope")
    raw = args.get("message_ids")
    ids = [str(i) for i in raw if str(i).strip()] if isinstance(raw, list) else []
    if scope is not None and scope != "me":
        return _error("invalid_argument", 'scope must be "me" (or leave it out and list message_ids)')
    if scope == "me" and ids:
        return _error("invalid_argument", 'give either message_ids or scope "me", not both')
    if scope == "me":
        if not current_user_id:
            # Guessing the user (e.g. from whoever opened a group session) could erase someone else's memories.
            return _error("unknown_user", "the current turn's author is not known, so nothing was forgotten")
        selector: Dict[str, Any] = {"user_id": current_user_id}
    elif ids:
        selector = {"message_ids": ids[:1000]}
    else:
        return _error("invalid_argument", 'message_ids must be a non-empty list of strings, or scope "me"')
    try:
        return json.dumps(client.post_within("/forget", {"bot": bot, **selector}, deadline=timeout))
    except ServiceError as error:
        return json.dumps(error.to_dict())


def _read_limit(value: Any) -> int:
    try:
        return max(1, min(20, int(value)))
    except (TypeError, ValueError):
        return 5


def _error(code: str, message: str) -> str:
    return json.dumps({"error": {"code": code, "message": message}})

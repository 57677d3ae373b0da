"""The two tools the provider gives the model: search memory-pool and forget messages in it."""

from __future__ import annotations

import json
from typing import Any, Dict, List

from .http_client import MemoryPoolClient, ServiceError

SEARCH_TOOL = "memory_pool_search"
FORGET_TOOL = "memory_pool_forget"
TOOL_NAMES = (SEARCH_TOOL, FORGET_TOOL)

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
            "Remove messages from long-term memory by their message ids (as returned by "
            f"{SEARCH_TOOL} in messageIds). Use only when the user asks to forget something."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "message_ids": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            },
            "required": ["message_ids"],
        },
    },
]


def run_search(client: MemoryPoolClient, bot: str, args: Dict[str, Any], timeout: float) -> str:
    """POST /retrieve and return the hits as a JSON string (an error object when it fails)."""
    query = str(args.get("query") or "").strip()
    if not query:
        return _error("invalid_argument", "query must be a non-empty string")
    limit = _read_limit(args.get("limit"))
    try:
        answer = client.post("/retrieve", {"bot": bot, "query_text": query, "limit": limit}, timeout=timeout)
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


def run_forget(client: MemoryPoolClient, bot: str, args: Dict[str, Any], timeout: float) -> str:
    """POST /forget and return the service's JSON, or an error object naming why it did not happen."""
    raw = args.get("message_ids")
    ids = [str(i) for i in raw if str(i).strip()] if isinstance(raw, list) else []
    if not ids:
        return _error("invalid_argument", "message_ids must be a non-empty list of strings")
    try:
        return json.dumps(client.post("/forget", {"bot": bot, "message_ids": ids}, timeout=timeout))
    except ServiceError as error:
        if error.status in (404, 405):
            return _error("forget_unsupported", "this memory-pool service has no POST /forget; nothing was removed")
        return json.dumps(error.to_dict())


def _read_limit(value: Any) -> int:
    try:
        return max(1, min(20, int(value)))
    except (TypeError, ValueError):
        return 5


def _error(code: str, message: str) -> str:
    return json.dumps({"error": {"code": code, "message": message}})

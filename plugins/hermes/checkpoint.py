"""The pre-compress checkpoint: before Hermes compresses context, every user and agent message in it is durably in memory-pool.

Hermes's checkpoint contract (version 2) counts a normal return as "durably saved" and an exception as
"keep the uncompressed transcript" when the operator requires checkpoints, so failure is raised, never swallowed.
"""

from __future__ import annotations

import re
import time
from typing import Any, Callable, Dict, List, Optional

from .http_client import MemoryPoolClient, ServiceError
from .save_ledger import SaveLedger

# One /save request holds at most this many messages; a long context goes in several.
BATCH_SIZE = 200
# Recalled memories Hermes may have folded into a user message are not the user's words.
_MEMORY_CONTEXT = re.compile(r"<\s*memory-context\s*>[\s\S]*?<\s*/\s*memory-context\s*>", re.IGNORECASE)
_ROLES = {"user": "user", "assistant": "self"}

BuildMessage = Callable[[str, str, int], Dict[str, Any]]


class CheckpointError(RuntimeError):
    """The checkpoint could not be made durable; Hermes keeps the uncompressed transcript when it requires one."""


def read_message_text(content: Any) -> str:
    """A message's text from a string or OpenAI-style content parts, without recalled-memory fences."""
    if isinstance(content, list):
        content = "\n".join(
            p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
        )
    if not isinstance(content, str):
        return ""
    return _MEMORY_CONTEXT.sub("", content).strip()


def collect_unsaved(messages: Any, ledger: SaveLedger, build_message: BuildMessage) -> List[Dict[str, Any]]:
    """The /save messages for every user and agent message not yet acknowledged.

    A message `sync_turn` already built keeps its id (the service then counts a repeat as a duplicate); one
    it never saw gets `build_message(speaker_kind, text, occurrence)`, where `occurrence` tells apart the
    same words said twice in the list, so calling again with the same list makes the same ids.
    """
    unsaved: List[Dict[str, Any]] = []
    occurrences: Dict[tuple, int] = {}
    for message in messages if isinstance(messages, list) else []:
        if not isinstance(message, dict):
            continue
        kind = _ROLES.get(str(message.get("role", "")))
        text = read_message_text(message.get("content"))
        if kind is None or not text:
            continue  # system prompts, tool calls and tool results are not conversation
        occurrence = occurrences.get((kind, text), 0)
        occurrences[(kind, text)] = occurrence + 1
        known = ledger.find(kind, text)
        if known is not None and known.acknowledged:
            continue
        unsaved.append(known.message if known is not None else build_message(kind, text, occurrence))
    return _drop_repeats(unsaved)


def save_within(
    client: MemoryPoolClient, bot: str, source: str, messages: List[Dict[str, Any]], deadline: float,
    on_saved: Optional[Callable[[Dict[str, Any]], None]] = None,
) -> int:
    """POSTs the messages to /save in batches, all within `deadline` seconds; the count saved, or CheckpointError."""
    end = time.monotonic() + deadline
    saved = 0
    for start in range(0, len(messages), BATCH_SIZE):
        remaining = end - time.monotonic()
        if remaining <= 0:
            raise CheckpointError(f"memory-pool checkpoint ran out of time after {saved} of {len(messages)} messages")
        body = {"bot": bot, "source": source, "messages": messages[start : start + BATCH_SIZE]}
        try:
            client.post_within("/save", body, deadline=remaining)
        except ServiceError as error:
            raise CheckpointError(
                f"memory-pool did not save {len(messages) - saved} message(s) before compression: {error}"
            ) from error
        saved += len(body["messages"])
        if on_saved is not None:
            on_saved(body)
    return saved


def _drop_repeats(messages: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """One message per id: a ledger entry matched by two equal texts is sent once."""
    seen = set()
    kept = []
    for message in messages:
        if message["message_id"] not in seen:
            seen.add(message["message_id"])
            kept.append(message)
    return kept

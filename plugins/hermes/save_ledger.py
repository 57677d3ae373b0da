"""Which messages this provider has built for /save, and which the service has acknowledged.

The pre-compress checkpoint reads it to send only what is not yet durable, under the ids already used, so
the service counts a repeat as a duplicate rather than storing it twice.
"""

from __future__ import annotations

import collections
import threading
from typing import Any, Dict, Iterable, NamedTuple, Optional, Tuple

# Enough for a long gateway session; the oldest entries go first (a checkpoint then re-sends them as duplicates).
DEFAULT_MAX_ENTRIES = 5000

LedgerKey = Tuple[str, str]


class Found(NamedTuple):
    message: Dict[str, Any]
    acknowledged: bool
    # Built by the pre-compress checkpoint for a turn sync_turn had not reported yet.
    from_checkpoint: bool


class _Entry:
    __slots__ = ("message", "acknowledged", "from_checkpoint")

    def __init__(self, message: Dict[str, Any], from_checkpoint: bool):
        self.message = message
        self.acknowledged = False
        self.from_checkpoint = from_checkpoint


class SaveLedger:
    """Messages keyed by (speaker_kind, text); the newest message for a key wins. Thread-safe."""

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        self._entries: "collections.OrderedDict[LedgerKey, _Entry]" = collections.OrderedDict()
        self._max_entries = max(1, max_entries)
        self._lock = threading.Lock()

    def record(self, messages: Iterable[Dict[str, Any]], *, from_checkpoint: bool = False) -> None:
        """Remembers messages about to be sent (not yet acknowledged)."""
        with self._lock:
            for message in messages:
                key = _key(message)
                known = self._entries.get(key)
                if known is not None and known.message["message_id"] == message["message_id"]:
                    known.from_checkpoint = known.from_checkpoint and from_checkpoint
                    self._entries.move_to_end(key)
                    continue  # the same message again (a retried turn) keeps its acknowledgement
                self._entries[key] = _Entry(dict(message), from_checkpoint)
                self._entries.move_to_end(key)
            while len(self._entries) > self._max_entries:
                self._entries.popitem(last=False)

    def acknowledge(self, messages: Iterable[Dict[str, Any]]) -> None:
        """Marks messages the service answered 2xx for (accepted, duplicate, edited or forgotten: all durable)."""
        with self._lock:
            for message in messages:
                entry = self._entries.get(_key(message))
                if entry is not None and entry.message["message_id"] == message["message_id"]:
                    entry.acknowledged = True

    def find(self, speaker_kind: str, text: str) -> Optional[Found]:
        """The message last built for this text, whether it is acknowledged and who built it; None if never."""
        with self._lock:
            entry = self._entries.get((speaker_kind, text))
            return None if entry is None else Found(dict(entry.message), entry.acknowledged, entry.from_checkpoint)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def _key(message: Dict[str, Any]) -> LedgerKey:
    return (str(message.get("speaker_kind", "")), str(message.get("text", "")))

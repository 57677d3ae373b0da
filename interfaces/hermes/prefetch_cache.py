"""Per-session recall started by `queue_prefetch` and picked up by the next `prefetch` of the same query."""

from __future__ import annotations

import threading
from typing import Callable, Dict, Optional


class _Entry:
    def __init__(self, query: str):
        self.query = query
        self.done = threading.Event()
        self.value = ""


class PrefetchCache:
    """One pending or finished recall per session; each is used at most once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: Dict[str, _Entry] = {}

    def warm(self, session_id: str, query: str, fetch: Callable[[], str], spawn: Callable[..., threading.Thread]) -> None:
        """Runs `fetch` on a background thread and keeps its answer for `session_id` and `query`."""
        entry = _Entry(query)
        with self._lock:
            self._entries[session_id] = entry

        def run() -> None:
            try:
                entry.value = fetch()
            except Exception:
                entry.value = ""
            finally:
                entry.done.set()

        spawn(run, name="memory-pool-prefetch", daemon=True).start()

    def take(self, session_id: str, query: str, timeout: float) -> Optional[str]:
        """The warmed answer for this query (waiting up to `timeout` if it is still running), else None."""
        with self._lock:
            entry = self._entries.get(session_id)
            if entry is None or entry.query != query:
                return None
            del self._entries[session_id]
        if not entry.done.wait(timeout):
            return ""
        return entry.value

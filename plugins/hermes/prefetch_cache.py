"""The current turn's recall, started by `on_turn_start` and picked up by the `prefetch` that follows it."""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional


class _Entry:
    def __init__(self, query: str):
        self.query = query
        self.done = threading.Event()
        self.value: Any = None


class PrefetchCache:
    """One pending or finished recall (the provider serves one agent, so one turn at a time); used at most once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entry: Optional[_Entry] = None

    def warm(self, query: str, fetch: Callable[[], Any], spawn: Callable[..., threading.Thread]) -> None:
        """Runs `fetch` on a background thread and keeps its answer for `query`, replacing any older one."""
        entry = _Entry(_normalize(query))
        with self._lock:
            self._entry = entry

        def run() -> None:
            try:
                entry.value = fetch()
            except Exception:
                entry.value = None
            finally:
                entry.done.set()

        spawn(run, name="memory-pool-prefetch", daemon=True).start()

    def take(self, query: str, timeout: float, late: Any = "") -> Any:
        """The recall started for this query (waiting up to `timeout` if it still runs; `late` if too late or failed), else None."""
        with self._lock:
            entry = self._entry
            if entry is None or entry.query != _normalize(query):
                return None
            self._entry = None
        if not entry.done.wait(timeout) or entry.value is None:
            return late
        return entry.value


def _normalize(query: str) -> str:
    return str(query or "").strip()

"""Sends /save requests from one background thread, retrying with backoff, so `sync_turn` never blocks a turn."""

from __future__ import annotations

import collections
import logging
import threading
import time
from typing import Any, Callable, Deque, Dict, Optional

from .http_client import MemoryPoolClient, ServiceError

logger = logging.getLogger(__name__)

SpawnThread = Callable[..., threading.Thread]

# Capped exponential backoff, about two minutes in all: a service restart or a short outage loses nothing.
DEFAULT_RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0)
# Turns waiting while the service is down; past this the oldest is dropped (with a warning) so memory stays bounded.
DEFAULT_MAX_PENDING = 500


class BackgroundSender:
    """A queue drained by a lazily started daemon thread; `flush` waits until it is empty."""

    def __init__(
        self,
        client: MemoryPoolClient,
        *,
        spawn: SpawnThread,
        timeout: float,
        retry_delays: tuple = DEFAULT_RETRY_DELAYS,
        max_pending: int = DEFAULT_MAX_PENDING,
        on_acknowledged: Optional[Callable[[Dict[str, Any]], None]] = None,
    ):
        self._client = client
        self._spawn = spawn
        self._timeout = timeout
        self._retry_delays = retry_delays
        self._max_pending = max(1, max_pending)
        # Told about every body the service answered 2xx for, so the checkpoint knows what is durable.
        self._on_acknowledged = on_acknowledged
        self._pending: Deque[Dict[str, Any]] = collections.deque()
        self._busy = 0
        self._cond = threading.Condition()
        self._stopping = False
        self._worker: Optional[threading.Thread] = None
        # The last answers, newest last: `hermes memory status`-style diagnostics and tests read them.
        self.recent_responses: Deque[Dict[str, Any]] = collections.deque(maxlen=20)

    def submit(self, body: Dict[str, Any]) -> None:
        """Queues one /save body and returns at once; a full queue drops its oldest save to make room."""
        with self._cond:
            if self._stopping:
                return
            if len(self._pending) >= self._max_pending:
                self._pending.popleft()
                self._busy -= 1
                logger.warning("memory-pool: %d saves are waiting for the service; dropped the oldest", self._max_pending)
                self.recent_responses.append(ServiceError("dropped: too many saves waiting", code="queue_full").to_dict())
            self._pending.append(body)
            self._busy += 1
            self._cond.notify_all()
            self._ensure_worker()

    def flush(self, timeout: float) -> bool:
        """Waits up to `timeout` seconds for every queued save to finish; True when none is left."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._busy:
                remaining = end - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    def close(self, timeout: float) -> bool:
        """Flushes briefly, then stops the worker; saves still queued after `timeout` are dropped."""
        flushed = self.flush(timeout)
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            worker = self._worker
        if worker is not None and worker is not threading.current_thread():
            worker.join(0.5)
        return flushed

    def _ensure_worker(self) -> None:
        if self._worker is not None and self._worker.is_alive():
            return
        self._worker = self._spawn(self._run, name="memory-pool-sender", daemon=True)
        self._worker.start()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._stopping:
                    self._cond.wait()
                if not self._pending:
                    return
                body = self._pending.popleft()
            try:
                self._send_with_retries(body)
            except Exception:  # a bug or an odd failure loses this save, never the thread that sends the rest
                logger.exception("memory-pool: a save failed unexpectedly and was dropped")
            finally:
                with self._cond:
                    self._busy -= 1
                    self._cond.notify_all()

    def _send_with_retries(self, body: Dict[str, Any]) -> None:
        delays = (0.0,) + tuple(self._retry_delays)
        for attempt, delay in enumerate(delays):
            if delay and self._sleep_unless_stopping(delay):
                break
            try:
                self.recent_responses.append(self._client.post("/save", body, timeout=self._timeout))
                if self._on_acknowledged is not None:
                    self._on_acknowledged(body)
                return
            except ServiceError as error:
                if not error.retryable or attempt == len(delays) - 1:
                    logger.warning("memory-pool: dropped a save after %d attempt(s): %s", attempt + 1, error)
                    self.recent_responses.append(error.to_dict())
                    return
                logger.debug("memory-pool: save attempt %d failed, retrying: %s", attempt + 1, error)
        self.recent_responses.append(ServiceError("stopped before the save could be retried").to_dict())

    def _sleep_unless_stopping(self, seconds: float) -> bool:
        """Sleeps for a retry delay; True when shutdown began meanwhile (then the save is dropped)."""
        end = time.monotonic() + seconds
        with self._cond:
            while not self._stopping:
                remaining = end - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

"""A small JSON-over-HTTP client for the memory-pool service, with per-call timeouts and typed failures."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, Optional


class ServiceError(Exception):
    """The service could not be reached or answered with an error; `retryable` says whether trying again may help."""

    def __init__(self, message: str, *, status: int = 0, code: str = "unreachable", retryable: bool = True):
        super().__init__(message)
        self.status = status
        self.code = code
        self.retryable = retryable

    def to_dict(self) -> Dict[str, Any]:
        return {"error": {"code": self.code, "message": str(self), "status": self.status}}


class MemoryPoolClient:
    """Posts JSON to one service URL; every call names its own timeout."""

    def __init__(self, url: str, api_key: str = "", on_unauthorized: Optional[Callable[["ServiceError"], None]] = None):
        self.url = url.rstrip("/")
        self.api_key = api_key
        # Told when the service answers 401 (a missing or wrong key), so `unavailable_reason()` can say so.
        self.on_unauthorized = on_unauthorized

    def post(self, path: str, body: Dict[str, Any], timeout: float) -> Dict[str, Any]:
        """POSTs `body` and returns the decoded answer; raises ServiceError otherwise."""
        return self._request("POST", path, json.dumps(body).encode("utf-8"), timeout)

    def get(self, path: str, timeout: float) -> Dict[str, Any]:
        """GETs `path` (e.g. a bot's stats) and returns the decoded answer; raises ServiceError otherwise."""
        return self._request("GET", path, None, timeout)

    def _request(self, method: str, path: str, data: Optional[bytes], timeout: float) -> Dict[str, Any]:
        headers = {"accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return _decode(response.read())
        except urllib.error.HTTPError as error:
            failure = _service_error_from(error)
            if failure.status == 401 and self.on_unauthorized is not None:
                self.on_unauthorized(failure)
            raise failure from error
        except ServiceError:
            raise
        except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError, OSError) as error:
            raise ServiceError(f"memory-pool at {self.url} unreachable: {error}") from error
        except (http.client.HTTPException, ValueError) as error:
            # IncompleteRead, BadStatusLine, RemoteDisconnected...: a connection cut mid-answer is not an
            # OSError, but trying again may well succeed (ValueError: e.g. a malformed header or URL).
            raise ServiceError(f"memory-pool at {self.url} broke off its answer: {error!r}", code="bad_response") from error

    def post_within(self, path: str, body: Dict[str, Any], deadline: float) -> Dict[str, Any]:
        """Like `post`, but gives up after `deadline` seconds in total.

        urllib's timeout bounds each socket operation, not the whole call, so a service that
        trickles bytes could hold a turn for longer; a helper thread enforces the total.
        """
        outcome: Dict[str, Any] = {}

        def run() -> None:
            try:
                outcome["value"] = self.post(path, body, timeout=deadline)
            except BaseException as error:  # handed to the caller below
                outcome["error"] = error

        worker = threading.Thread(target=run, name="memory-pool-request", daemon=True)
        worker.start()
        worker.join(deadline)
        if worker.is_alive():
            raise ServiceError(f"memory-pool did not answer within {deadline:g}s", code="timeout")
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]


def _decode(raw: bytes) -> Dict[str, Any]:
    if not raw:
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError as error:
        raise ServiceError("memory-pool answered with something other than JSON", code="bad_response") from error
    return data if isinstance(data, dict) else {"value": data}


def _service_error_from(error: urllib.error.HTTPError) -> ServiceError:
    status = error.code
    code: Optional[str] = None
    message = f"memory-pool answered HTTP {status}"
    try:
        body = json.loads(error.read().decode("utf-8"))
        detail = body.get("error", {}) if isinstance(body, dict) else {}
        if isinstance(detail, dict):
            code = detail.get("code")
            message = detail.get("message") or message
            if detail.get("field"):
                message = f"{message} (field {detail['field']})"
    except (ValueError, OSError, AttributeError):
        pass
    # 429 and 5xx are worth another try; other 4xx mean the request itself is wrong.
    retryable = status == 429 or status >= 500
    return ServiceError(message, status=status, code=code or f"http_{status}", retryable=retryable)

"""A recording stand-in for the memory-pool service (a thread on a loopback port) for hook tests that need no real one."""

from __future__ import annotations

import http.server
import json
import threading
from typing import Any, Dict, List, Tuple


class FakeService:
    """Answers /retrieve with `hits`, /save and /forget with counts, link codes with a fixed code and person; `status` forces an HTTP error for every request."""

    def __init__(self) -> None:
        self.requests: List[Tuple[str, str, Dict[str, Any]]] = []
        self.hits: List[Dict[str, Any]] = []
        self.status = 200
        self.seen_ids: set = set()
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                fake.requests.append(("GET", self.path, {}))
                self._answer({"bot": "mythos", "collection": "mem_mythos", "points": {"total": 3}, "messages": {"pending": 0}})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
                body["_authorization"] = self.headers.get("authorization")
                fake.requests.append(("POST", self.path, body))
                self._answer(fake._respond(self.path, body))

            def _answer(self, payload):
                if fake.status != 200:
                    payload = {"error": {"code": "unauthorized" if fake.status == 401 else "internal", "message": "no"}}
                raw = json.dumps(payload).encode()
                self.send_response(fake.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def _respond(self, path: str, body: Dict[str, Any]) -> Dict[str, Any]:
        if path == "/retrieve":
            formatted = "\n[Past chat memories]\n\n" + "".join(f"• {h['text']}\n\n" for h in self.hits) if self.hits else ""
            return {"hits": self.hits, "formatted": formatted}
        if path == "/save":
            ids = [m["message_id"] for m in body.get("messages", [])]
            fresh = [i for i in ids if i not in self.seen_ids]
            self.seen_ids.update(ids)
            return {"ok": True, "accepted": len(fresh), "duplicates": len(ids) - len(fresh), "edited": 0, "forgotten": 0}
        if path.endswith("/link-codes"):
            return {"code": "ABCDE-FGHJK", "expires_at": "2026-01-01T00:10:00.000Z"}
        if path.endswith("/link-codes/redeem"):
            accounts = [{"user_id": "discord:1234"}, body["account"]]
            return {"id": "p1", "name": "Anna", "accounts": accounts, "created_at": "x", "updated_at": "x"}
        return {"ok": True, "messages_forgotten": len(body.get("message_ids") or [])}

    def posts(self, path: str) -> List[Dict[str, Any]]:
        return [body for method, p, body in self.requests if method == "POST" and p == path]

    def saved_messages(self) -> List[Dict[str, Any]]:
        return [m for body in self.posts("/save") for m in body["messages"]]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

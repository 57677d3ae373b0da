"""A broken, slow or absent service never breaks a turn, and recall costs one request per turn: local fake servers."""

from __future__ import annotations

import http.server
import json
import os
import sys
import tempfile
import threading
import time
import unittest
from typing import List
from unittest import mock

sys.path.insert(0, os.path.dirname(__file__))

import hermes_stand_in  # noqa: E402

PLUGIN = hermes_stand_in.load_plugin()
http_client = sys.modules[PLUGIN.__name__ + ".http_client"]
background_sender = sys.modules[PLUGIN.__name__ + ".background_sender"]


class FakeService(http.server.BaseHTTPRequestHandler):
    """Records every request; `mode` says how to answer ("ok", "truncated", "slow")."""

    mode = "ok"
    paths: List[str] = []
    release = threading.Event()

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length") or 0))
        type(self).paths.append(self.path)
        try:
            if self.mode == "slow":
                self.release.wait(10)
            body = json.dumps({"hits": [], "formatted": f"recall #{len(self.paths)}", "accepted": 2}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            if self.mode == "truncated":
                # Promise more bytes than are sent, then hang up: urllib raises http.client.IncompleteRead.
                self.send_header("content-length", str(len(body) + 50))
                self.end_headers()
                self.wfile.write(body[:10])
                self.wfile.flush()
                self.close_connection = True
                return
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass

    def log_message(self, *args):
        pass


def start_fake(mode: str):
    handler = type("Handler", (FakeService,), {"mode": mode, "paths": [], "release": threading.Event()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, handler


def stop_fake(server, handler) -> None:
    handler.release.set()
    server.shutdown()
    server.server_close()


def make_provider(url: str, env_extra=None, **init_kwargs):
    env = {"MEMORY_POOL_URL": url, "MEMORY_POOL_BOT": "mythos", "HERMES_HOME": tempfile.mkdtemp(), **(env_extra or {})}
    with mock.patch.dict(os.environ, env):
        provider = PLUGIN.MemoryPoolProvider()
        kwargs = {"platform": "telegram", "agent_context": "primary", "chat_id": "c1", "chat_type": "dm"}
        kwargs.update(init_kwargs)
        provider.initialize("sess", **kwargs)
    return provider


class TruncatedAnswers(unittest.TestCase):
    def setUp(self):
        self.server, self.handler = start_fake("truncated")
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.addCleanup(stop_fake, self.server, self.handler)

    def test_a_cut_off_answer_is_a_retryable_service_error(self):
        client = http_client.MemoryPoolClient(self.url)
        with self.assertRaises(http_client.ServiceError) as caught:
            client.post("/save", {}, timeout=2)
        self.assertTrue(caught.exception.retryable)

    def test_the_sender_survives_a_cut_off_answer_and_sends_the_next_save(self):
        provider = make_provider(self.url)
        provider._sender._retry_delays = ()  # one attempt each: the point is the thread, not the retries
        provider.sync_turn("first turn", "reply", session_id="sess")
        self.assertTrue(provider._sender.flush(5))
        self.assertEqual(provider._sender.recent_responses[-1]["error"]["code"], "bad_response")
        provider.sync_turn("second turn", "reply", session_id="sess")
        self.assertTrue(provider._sender.flush(5))
        self.assertEqual(self.handler.paths, ["/save", "/save"])
        provider.shutdown()

    def test_tools_and_prefetch_answer_instead_of_raising(self):
        provider = make_provider(self.url)
        self.assertEqual(provider.prefetch("anything", session_id="sess"), "")
        answer = json.loads(provider.handle_tool_call("memory_pool_search", {"query": "anything"}))
        self.assertEqual(answer["error"]["code"], "bad_response")
        provider.shutdown()

    def test_a_failing_tool_still_returns_json(self):
        provider = make_provider(self.url)
        with mock.patch.object(provider, "_run_tool", side_effect=RuntimeError("boom")):
            answer = json.loads(provider.handle_tool_call("memory_pool_search", {"query": "x"}))
        self.assertEqual(answer["error"]["code"], "internal")


class RecallPerTurn(unittest.TestCase):
    def test_hermes_call_order_makes_one_retrieve_per_turn_and_uses_it(self):
        server, handler = start_fake("ok")
        self.addCleanup(stop_fake, server, handler)
        provider = make_provider(f"http://127.0.0.1:{server.server_address[1]}")
        provider._sender._retry_delays = ()
        for turn, text in enumerate(["what is my cat called?", "and my dog?", "where do I live?"], start=1):
            provider.on_turn_start(turn, text)
            recalled = provider.prefetch(text, session_id="sess")
            provider.sync_turn(text, "an answer", session_id="sess")
            provider.queue_prefetch(text, session_id="sess")
            self.assertTrue(provider._sender.flush(5))
            self.assertTrue(recalled.startswith("recall #"), recalled)
        self.assertEqual(handler.paths.count("/retrieve"), 3, handler.paths)
        self.assertEqual(handler.paths.count("/save"), 3, handler.paths)
        provider.shutdown()

    def test_a_prefetch_for_another_text_still_recalls(self):
        server, handler = start_fake("ok")
        self.addCleanup(stop_fake, server, handler)
        provider = make_provider(f"http://127.0.0.1:{server.server_address[1]}")
        provider.on_turn_start(1, "the message")
        self.assertTrue(provider.prefetch("a rewritten message", session_id="sess").startswith("recall #"))
        provider.shutdown()


class SlowService(unittest.TestCase):
    def setUp(self):
        self.server, self.handler = start_fake("slow")
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.addCleanup(stop_fake, self.server, self.handler)

    def test_prefetch_gives_up_within_its_timeout(self):
        provider = make_provider(self.url, {"MEMORY_POOL_PREFETCH_TIMEOUT": "0.5"})
        self.assertEqual(provider._config.prefetch_timeout, 0.5)
        for turn, text in enumerate(["first question", "next question"], start=1):
            started = time.monotonic()
            provider.on_turn_start(turn, text)
            self.assertEqual(provider.prefetch(text, session_id="sess"), "")
            self.assertLess(time.monotonic() - started, 0.5 + 0.5)  # generous: protects the host's turn
        started = time.monotonic()
        self.assertEqual(provider.prefetch("with no on_turn_start", session_id="sess"), "")
        self.assertLess(time.monotonic() - started, 0.5 + 0.5)

    def test_sync_turn_returns_at_once(self):
        provider = make_provider(self.url)
        started = time.monotonic()
        provider.sync_turn("hello there", "hi", session_id="sess")
        provider.sync_turn("second", "turn", session_id="sess")
        self.assertLess(time.monotonic() - started, 0.2)  # generous: the save itself is stuck on the server
        self.assertFalse(provider._sender.flush(0.1))


class FlakyClient:
    """Fails the first `failures` posts as the service being down, then accepts."""

    def __init__(self, failures: int, gate: threading.Event = None):
        self.failures = failures
        self.calls = 0
        self.gate = gate
        self.entered = threading.Event()

    def post(self, path, body, timeout):
        self.entered.set()
        if self.gate is not None:
            self.gate.wait(5)
        self.calls += 1
        if self.calls <= self.failures:
            raise http_client.ServiceError("down")
        return {"accepted": len(body.get("messages", [])), "text": body["messages"][0]["text"]}


def make_sender(client, **kwargs):
    return background_sender.BackgroundSender(
        client, spawn=lambda target, **kw: threading.Thread(target=target, **kw), timeout=1, **kwargs
    )


class LongOutages(unittest.TestCase):
    def test_the_default_retries_last_about_two_minutes_with_capped_delays(self):
        delays = background_sender.DEFAULT_RETRY_DELAYS
        self.assertTrue(100 <= sum(delays) <= 150, sum(delays))
        self.assertLessEqual(max(delays), 30)

    def test_a_save_survives_more_failures_than_the_old_three_retries(self):
        client = FlakyClient(failures=6)
        sender = make_sender(client, retry_delays=(0.01,) * 8)
        sender.submit({"messages": [{"text": "kept"}]})
        self.assertTrue(sender.flush(5))
        self.assertEqual((client.calls, sender.recent_responses[-1]["accepted"]), (7, 1))
        sender.close(1)

    def test_a_full_queue_drops_the_oldest_save_without_blocking(self):
        gate = threading.Event()
        client = FlakyClient(failures=0, gate=gate)
        sender = make_sender(client, retry_delays=(), max_pending=3)
        sender.submit({"messages": [{"text": "turn 0"}]})
        self.assertTrue(client.entered.wait(5))  # turn 0 is being sent, stuck on the gate
        with self.assertLogs(background_sender.logger, "WARNING"):
            for number in range(1, 6):
                sender.submit({"messages": [{"text": f"turn {number}"}]})
        gate.set()
        self.assertTrue(sender.flush(5))
        sent = [r["text"] for r in sender.recent_responses if "text" in r]
        # The first was already being sent; of the rest only the newest three fit.
        self.assertEqual(sent, ["turn 0", "turn 3", "turn 4", "turn 5"])
        sender.close(1)


if __name__ == "__main__":
    unittest.main()

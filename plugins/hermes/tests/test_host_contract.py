"""Each hook of today's memory-provider contract, on a current and on an old stand-in host (fake service, no memory-pool)."""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import threading
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, os.path.dirname(__file__))

import hermes_stand_in  # noqa: E402
from fake_service import FakeService  # noqa: E402

NEW = hermes_stand_in.load_plugin()
OLD = hermes_stand_in.load_old_host_plugin()
TURN = [{"role": "system", "content": "You are Hermes."}]


def closed_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


class HookContract:
    """The tests; each subclass runs them against one host (PLUGIN, OLD_HOST)."""

    PLUGIN = None
    OLD_HOST = False

    def setUp(self):
        self.service = FakeService()
        self.addCleanup(self.service.close)
        self.home = tempfile.mkdtemp(prefix="hermes-home-")
        self.env = {"MEMORY_POOL_URL": self.service.url, "MEMORY_POOL_BOT": "mythos", "HERMES_HOME": self.home,
                    "MEMORY_POOL_API_KEY": "", "MEMORY_POOL_SAVE_DELEGATIONS": "", "MEMORY_POOL_CONFIG_FILE": ""}
        patcher = mock.patch.dict(os.environ, self.env)
        patcher.start()
        self.addCleanup(patcher.stop)

    def provider(self, session="s1", **kwargs):
        ctx = hermes_stand_in.FakeContext()
        self.PLUGIN.register(ctx)
        provider = ctx.providers[0]
        self.assertIsInstance(provider, sys.modules["agent.memory_provider"].MemoryProvider if not self.OLD_HOST
                              else hermes_stand_in.OldMemoryProvider)
        init = {"platform": "telegram", "hermes_home": self.home, "chat_id": "c1", "chat_type": "dm",
                "user_id": "42", "user_name": "Ada"}
        if not self.OLD_HOST:
            init["agent_context"] = "primary"
        init.update(kwargs)
        provider.initialize(session, **init)
        self.addCleanup(provider.shutdown)
        return provider

    def driver(self, provider):
        return hermes_stand_in.HostDriver(provider, old=self.OLD_HOST)

    def turn(self, provider, number, user, agent, session="s1"):
        provider.on_turn_start(number, user)
        recalled = provider.prefetch(user, session_id=session)
        provider.sync_turn(user, agent, session_id=session)
        self.assertTrue(provider._sender.flush(5))
        return recalled

    # -- availability ----------------------------------------------------------------------

    def test_is_available_reads_the_settings_when_asked_and_says_what_to_fix(self):
        os.environ["MEMORY_POOL_BOT"] = ""
        provider = self.PLUGIN.MemoryPoolProvider()  # constructed before the user configured anything
        self.assertFalse(provider.is_available())
        self.assertIn("MEMORY_POOL_BOT", provider.unavailable_reason())
        # `hermes memory setup` (or the dashboard) writes the file; the same instance now sees it.
        (Path(self.home) / "memory-pool").mkdir()
        (Path(self.home) / "memory-pool" / "config.json").write_text(json.dumps({"bot": "mythos"}))
        self.assertTrue(provider.is_available())
        self.assertEqual(provider.unavailable_reason(), "")
        os.environ["MEMORY_POOL_URL"] = "pool:3102"
        self.assertIn("http://", provider.unavailable_reason())
        self.assertEqual(self.service.requests, [], "availability must not touch the network")

    def test_a_refused_key_makes_the_provider_unavailable_until_the_key_changes(self):
        os.environ["MEMORY_POOL_API_KEY"] = "wrong"
        provider = self.provider()
        self.service.status = 401
        self.assertEqual(provider.prefetch("where did I park the car?", session_id="s1"), "")
        self.assertFalse(provider.is_available())
        self.assertIn(f"memory-pool at {self.service.url} refused the API key", provider.unavailable_reason())
        self.assertIn("MEMORY_POOL_API_KEY", provider.unavailable_reason())
        os.environ["MEMORY_POOL_API_KEY"] = "right"
        self.assertTrue(provider.is_available())

    def test_secrets_in_the_hermes_env_file_count(self):
        os.environ["MEMORY_POOL_BOT"] = ""
        (Path(self.home) / ".env").write_text("# secrets\nexport MEMORY_POOL_BOT='mythos'\nMEMORY_POOL_API_KEY=k1\n")
        provider = self.PLUGIN.MemoryPoolProvider()
        self.assertTrue(provider.is_available())

    # -- inspection ------------------------------------------------------------------------

    def test_initialize_for_inspection_starts_no_threads_and_makes_no_requests(self):
        provider = self.PLUGIN.MemoryPoolProvider()
        threads_before = threading.active_count()
        provider.initialize_for_inspection("inspect", platform="cli", hermes_home=self.home)
        self.assertEqual([s["name"] for s in provider.get_tool_schemas()], ["memory_pool_search", "memory_pool_forget", "memory_link"])
        self.assertIn("memory_pool_search", provider.system_prompt_block())
        provider.sync_turn("an inspected agent writes nothing", "ok", session_id="inspect")
        self.assertEqual(threading.active_count(), threads_before)
        self.assertEqual(self.service.requests, [])
        self.assertEqual(provider.pre_compress_checkpoint_api_version, 1)

    # -- recall status and trivial prompts -------------------------------------------------

    def test_recall_status_describes_the_last_prefetch_only(self):
        provider = self.provider()
        self.service.hits = [{"text": "Ada's cat is Tom", "speakers": "Ada"}, {"text": "Tom likes fish", "speakers": "Ada"}]
        self.assertIn("Tom likes fish", provider.prefetch("what is my cat called?", session_id="s1"))
        status = provider.recall_status()
        self.assertEqual((status.provider_label, status.count), ("memory-pool", 2))
        if not self.OLD_HOST:
            self.assertIsInstance(status, hermes_stand_in.RecallStatus)  # the host's own class
            self.assertEqual(self.driver(provider).describe_recall(), "\U0001f9e0 memory-pool — recalled 2 memories")
        self.service.hits = []
        self.assertEqual(provider.prefetch("and my dog?", session_id="s1"), "")
        self.assertIsNone(provider.recall_status(), "a stale count must not survive an empty recall")

    def test_a_trivial_prompt_costs_no_recall(self):
        provider = self.provider()
        self.service.hits = [{"text": "something", "speakers": "Ada"}]
        for prompt in ("thanks!", "ok.", "  /compact ", "hi :)"):
            provider.on_turn_start(1, prompt)
            self.assertEqual(provider.prefetch(prompt, session_id="s1"), "", prompt)
            self.assertIsNone(provider.recall_status())
        self.assertEqual(self.service.posts("/retrieve"), [])
        provider.on_turn_start(2, "okay so what about k8s?")
        self.assertNotEqual(provider.prefetch("okay so what about k8s?", session_id="s1"), "")
        self.assertEqual(len(self.service.posts("/retrieve")), 1)

    # -- session switch --------------------------------------------------------------------

    def test_ids_follow_the_new_session_and_reset_clears_the_recall_exclusions(self):
        provider = self.provider()
        self.turn(provider, 1, "my bike is red and very fast", "nice bike")
        first_ids = [m["message_id"] for m in self.service.saved_messages()]
        provider.on_session_switch("s2", parent_session_id="s1")  # /resume, /branch or compression: same talk
        provider.prefetch("tell me about my bike", session_id="s2")
        self.assertEqual(self.service.posts("/retrieve")[-1]["exclude_message_ids"], first_ids)
        provider.on_session_switch("s3", parent_session_id="s2", reset=True)  # /new: a fresh conversation
        provider.prefetch("tell me about my bike", session_id="s3")
        self.assertNotIn("exclude_message_ids", self.service.posts("/retrieve")[-1])
        self.turn(provider, 1, "my bike is red and very fast", "nice bike", session="")
        later = [m["message_id"] for m in self.service.saved_messages()][2:]
        self.assertEqual(len(later), 2)
        self.assertFalse(set(later) & set(first_ids), "the same words in a new session are new messages")

    # -- pre-compress checkpoint -----------------------------------------------------------

    def compress_list(self, *pairs):
        messages = list(TURN)
        for user, agent in pairs:
            messages.append({"role": "user", "content": user})
            messages.append({"role": "assistant", "content": None, "tool_calls": [{"id": "t1"}]})
            messages.append({"role": "tool", "content": "{\"ok\": true}", "tool_call_id": "t1"})
            if agent:
                messages.append({"role": "assistant", "content": [{"type": "text", "text": agent}]})
        return messages

    def test_pre_compress_saves_what_is_not_yet_acknowledged_synchronously_and_once(self):
        provider = self.provider()
        self.turn(provider, 1, "I planted tomatoes in the garden today", "Lovely, tomatoes love sun.")
        saves_before = len(self.service.posts("/save"))
        provider.on_turn_start(2, "<memory-context>old stuff</memory-context>should I water them daily?")
        messages = self.compress_list(("I planted tomatoes in the garden today", "Lovely, tomatoes love sun."),
                                      ("<memory-context>old stuff</memory-context>should I water them daily?", None))
        self.assertEqual(self.driver(provider).pre_compress(messages, require_checkpoint=True) if not self.OLD_HOST
                         else self.driver(provider).pre_compress(messages), "")
        checkpoint = self.service.posts("/save")[saves_before:]
        self.assertEqual(len(checkpoint), 1, "one synchronous save, done before the hook returned")
        self.assertEqual([(m["speaker_kind"], m["text"]) for m in checkpoint[0]["messages"]],
                         [("user", "should I water them daily?")])
        self.assertEqual(checkpoint[0]["messages"][0]["user_id"], "telegram:42")
        # Asked again with the same list: everything is acknowledged, nothing is sent.
        self.driver(provider).pre_compress(messages)
        self.assertEqual(len(self.service.posts("/save")), saves_before + 1)
        # The turn then finishes: its user message keeps the checkpoint's id, so the service sees a duplicate.
        provider.sync_turn("should I water them daily?", "Every other day is plenty.", session_id="s1")
        self.assertTrue(provider._sender.flush(5))
        last = self.service.posts("/save")[-1]["messages"]
        self.assertEqual(last[0]["message_id"], checkpoint[0]["messages"][0]["message_id"])

    def test_a_failed_checkpoint_is_reported_never_silent(self):
        provider = self.provider()
        self.service.status = 500
        provider._sender._retry_delays = ()
        messages = self.compress_list(("my passport expires in March", "I'll remember that."))
        with self.assertLogs(level="WARNING") as logged:
            if self.OLD_HOST:
                self.assertEqual(self.driver(provider).pre_compress(messages), "")  # old hosts log and go on
            else:
                checkpoint = sys.modules[self.PLUGIN.__name__ + ".checkpoint"]
                with self.assertRaises(checkpoint.CheckpointError):  # the host keeps the uncompressed transcript
                    self.driver(provider).pre_compress(messages, require_checkpoint=True)
        self.assertTrue(any("checkpoint failed" in line for line in logged.output), logged.output)

    def test_an_agent_that_may_not_write_promises_no_checkpoint(self):
        if self.OLD_HOST:
            provider = self.provider(platform="cron")  # old hosts say "cron" only through the platform
        else:
            provider = self.provider(agent_context="subagent")
        self.assertEqual(provider.pre_compress_checkpoint_api_version, 1)
        self.assertEqual(provider.on_pre_compress(self.compress_list(("a cron prompt", "done"))), "")
        self.assertEqual(self.service.posts("/save"), [])
        if not self.OLD_HOST:
            with self.assertRaises(RuntimeError):  # the host knows no provider made the checkpoint
                self.driver(provider).pre_compress([], require_checkpoint=True)

    # -- delegation and backups ------------------------------------------------------------

    def test_delegations_are_saved_only_when_the_setting_is_on(self):
        provider = self.provider()
        provider.on_delegation("find the cheapest flight to Oslo", "SK 4242 at 89 EUR", child_session_id="sub-1")
        self.assertTrue(provider._sender.flush(5))
        self.assertEqual(self.service.posts("/save"), [])
        os.environ["MEMORY_POOL_SAVE_DELEGATIONS"] = "true"
        provider = self.provider()
        provider.on_delegation("find the cheapest flight to Oslo", "SK 4242 at 89 EUR", child_session_id="sub-1")
        self.assertTrue(provider._sender.flush(5))
        [note] = self.service.saved_messages()
        self.assertEqual(note["speaker_kind"], "self")
        self.assertIn("find the cheapest flight to Oslo", note["text"])
        self.assertIn("SK 4242 at 89 EUR", note["text"])

    def test_backup_paths_name_only_settings_kept_outside_hermes_home(self):
        provider = self.PLUGIN.MemoryPoolProvider()  # callable before initialize
        self.assertEqual(provider.backup_paths(), [])
        inside = Path(self.home) / "elsewhere.json"
        os.environ["MEMORY_POOL_CONFIG_FILE"] = str(inside)
        self.assertEqual(provider.backup_paths(), [])
        outside = Path(tempfile.mkdtemp(prefix="shared-")) / "memory-pool.json"
        os.environ["MEMORY_POOL_CONFIG_FILE"] = str(outside)
        self.assertEqual(provider.backup_paths(), [str(outside.resolve())])
        self.assertEqual(self.service.requests, [])


class OnTheCurrentHost(HookContract, unittest.TestCase):
    PLUGIN = NEW

    def test_the_hosts_trivial_prompt_rule_is_the_one_used(self):
        provider = self.provider()
        hermes_stand_in.trivial_checks.clear()
        provider.prefetch("thanks a lot for the help with the garden", session_id="s1")
        self.assertEqual(hermes_stand_in.trivial_checks, ["thanks a lot for the help with the garden"])


class OnAnOldHost(HookContract, unittest.TestCase):
    PLUGIN = OLD
    OLD_HOST = True

    def test_the_local_rule_matches_the_hosts(self):
        rule = sys.modules[OLD.__name__ + ".host_compat"].is_trivial_prompt
        self.assertIs(rule, sys.modules[OLD.__name__ + ".trivial_prompts"].local_is_trivial_prompt)
        for text in ("", "  ", "/new", "thanks", "Thank you!!", "ok…", "LGTM.", "k", "yes \u201cok\u201d",
                     "k8s", "note this", "hindsight", "thanks for the tomato tips", "okay so?", "yolo"):
            self.assertEqual(rule(text), hermes_stand_in.is_trivial_prompt(text), text)


if __name__ == "__main__":
    unittest.main()

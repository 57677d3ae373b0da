"""Settings, id derivation and older-host behavior that need no service."""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, os.path.dirname(__file__))

import hermes_stand_in  # noqa: E402

PLUGIN = hermes_stand_in.load_plugin()
config = sys.modules[PLUGIN.__name__ + ".config"]
message_ids = sys.modules[PLUGIN.__name__ + ".message_ids"]
provider_module = sys.modules[PLUGIN.__name__ + ".provider"]
host_compat = sys.modules[PLUGIN.__name__ + ".host_compat"]


class Settings(unittest.TestCase):
    def test_the_schema_marks_the_api_key_secret_with_its_env_var(self):
        fields = {field["key"]: field for field in PLUGIN.MemoryPoolProvider().get_config_schema()}
        self.assertEqual(fields["api_key"]["env_var"], "MEMORY_POOL_API_KEY")
        self.assertTrue(fields["api_key"]["secret"])
        self.assertEqual(fields["url"]["default"], "http://127.0.0.1:3102")
        self.assertTrue(fields["bot"]["required"])

    def test_save_config_writes_the_file_without_the_secret_and_env_overrides_it(self):
        home = tempfile.mkdtemp()
        PLUGIN.MemoryPoolProvider().save_config({"url": "http://pool:9", "bot": "ada", "api_key": "s3cret"}, home)
        saved = json.loads((Path(home) / "memory-pool" / "config.json").read_text())
        self.assertEqual(saved, {"url": "http://pool:9", "bot": "ada"})
        self.assertEqual(config.load_config(home, env={}).url, "http://pool:9")
        loaded = config.load_config(home, env={"MEMORY_POOL_BOT": "mythos", "MEMORY_POOL_URL": " ", "MEMORY_POOL_API_KEY": "k"})
        self.assertEqual((loaded.bot, loaded.url, loaded.api_key), ("mythos", "http://pool:9", "k"))

    def test_without_a_bot_the_provider_is_not_available(self):
        with mock.patch.dict(os.environ, {"HERMES_HOME": tempfile.mkdtemp(), "MEMORY_POOL_BOT": ""}):
            self.assertFalse(PLUGIN.MemoryPoolProvider().is_available())
            self.assertEqual(PLUGIN.MemoryPoolProvider().prefetch("anything"), "")


class MessageIds(unittest.TestCase):
    def test_ids_are_stable_and_differ_by_session_turn_role_and_text(self):
        base = message_ids.derive_message_id("s", 1, "user", "hi")
        self.assertEqual(base, message_ids.derive_message_id("s", 1, "user", "hi"))
        others = {
            message_ids.derive_message_id("t", 1, "user", "hi"),
            message_ids.derive_message_id("s", 2, "user", "hi"),
            message_ids.derive_message_id("s", 1, "assistant", "hi"),
            message_ids.derive_message_id("s", 1, "user", "hi!"),
        }
        self.assertNotIn(base, others)
        self.assertEqual(len(others), 4)
        self.assertEqual(message_ids.qualify_user_id("telegram", "42"), "telegram:42")

    def test_the_message_count_tells_apart_turns_after_a_turn_count_restart(self):
        env = {"MEMORY_POOL_URL": "http://127.0.0.1:9", "MEMORY_POOL_BOT": "mythos", "HERMES_HOME": tempfile.mkdtemp()}
        with mock.patch.dict(os.environ, env):
            provider = PLUGIN.MemoryPoolProvider()
            provider.initialize("s", platform="cli", agent_context="primary")
        sent = []
        provider._sender.submit = sent.append
        history = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
        for messages in (history, history + history, history + history, None, []):
            provider.on_turn_start(1, "hi")  # the host restarted its count: every turn says 1
            provider.sync_turn("hi", "hello", session_id="s", messages=messages)
        ids = [body["messages"][0]["message_id"] for body in sent]
        self.assertNotEqual(ids[0], ids[1])
        self.assertEqual(ids[1], ids[2])  # a retried sync of the same turn keeps its id
        old = message_ids.derive_message_id("s", 1, "user", "hi")
        self.assertEqual((ids[3], ids[4]), (old, old))  # no messages given: the ids older versions made

    def test_max_chars_is_unset_by_default_and_read_as_a_whole_budget(self):
        self.assertIsNone(config.load_config(tempfile.mkdtemp(), env={}).max_chars)
        for given, expected in (("2000", 2000), ("2500.7", 2500), ("0", None), ("-3", None), ("lots", None), ("900000", 100_000)):
            loaded = config.load_config(tempfile.mkdtemp(), env={"MEMORY_POOL_MAX_CHARS": given})
            self.assertEqual(loaded.max_chars, expected, given)

    def test_recall_sends_max_chars_only_when_set(self):
        for given, expected in (("", None), ("1500", 1500)):
            env = {"MEMORY_POOL_URL": "http://127.0.0.1:9", "MEMORY_POOL_BOT": "mythos", "HERMES_HOME": tempfile.mkdtemp(),
                   "MEMORY_POOL_MAX_CHARS": given}
            with mock.patch.dict(os.environ, env):
                provider = PLUGIN.MemoryPoolProvider()
                provider.initialize("s", platform="cli", agent_context="primary")
            sent = []
            provider._client.post_within = lambda path, body, deadline: sent.append(body) or {"formatted": "", "hits": []}
            provider._retrieve_formatted("what did I plant?", 1.0)
            self.assertEqual(sent[0].get("max_chars"), expected, given)

    def test_the_prefetch_timeout_is_clamped_to_what_hermes_allows(self):
        for given, expected in (("30", 8.0), ("0.01", 0.1), ("3", 3.0)):
            loaded = config.load_config(tempfile.mkdtemp(), env={"MEMORY_POOL_PREFETCH_TIMEOUT": given})
            self.assertEqual(loaded.prefetch_timeout, expected, given)


class OlderHosts(unittest.TestCase):
    """Hosts without on_turn_start or spawn_context_thread still get idempotent, non-blocking saves."""

    def test_cron_runs_without_an_agent_context_write_nothing(self):
        env = {"MEMORY_POOL_URL": "http://127.0.0.1:9", "MEMORY_POOL_BOT": "mythos", "HERMES_HOME": tempfile.mkdtemp()}
        with mock.patch.dict(os.environ, env):
            provider = PLUGIN.MemoryPoolProvider()
            provider.initialize("cron-sess", platform="cron")
            self.assertIsNone(provider._build_save("a scheduled prompt", "done", "cron-sess", None))
            provider.initialize("cli-sess", platform="cli")
            self.assertIsNotNone(provider._build_save("a real chat", "reply", "cli-sess", None))

    def test_retried_sync_turn_without_turn_numbers_keeps_its_ids(self):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        env = {"MEMORY_POOL_URL": f"http://127.0.0.1:{port}", "MEMORY_POOL_BOT": "mythos", "HERMES_HOME": tempfile.mkdtemp()}
        host = sys.modules["agent.memory_provider"]
        with mock.patch.dict(os.environ, env), mock.patch.object(host, "spawn_context_thread", None):
            provider = PLUGIN.MemoryPoolProvider()
            provider.initialize("old", platform="discord", user_id="9", user_name="Dee")
            first = provider._build_save("same words", "same reply", "old", None)
            retry = provider._build_save("same words", "same reply", "old", None)
            later = provider._build_save("same words", "a different reply", "old", None)
            self.assertEqual([m["message_id"] for m in first["messages"]], [m["message_id"] for m in retry["messages"]])
            self.assertNotEqual(first["messages"][0]["message_id"], later["messages"][0]["message_id"])
            self.assertEqual(first["messages"][0]["user_id"], "discord:9")
            self.assertIs(host_compat.host, host)
            spawned = len(hermes_stand_in.spawned_threads)
            thread = host_compat.spawn_thread(lambda: None, name="probe")
            self.assertTrue(thread.daemon)
            self.assertEqual(len(hermes_stand_in.spawned_threads), spawned)
            provider.sync_turn("hello", "hi", session_id="old")  # queued for a closed port: returns at once
            provider.shutdown()


if __name__ == "__main__":
    unittest.main()

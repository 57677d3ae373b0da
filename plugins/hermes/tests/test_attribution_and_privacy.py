"""Who a saved message is credited to, how DMs are marked, and when the forget tool refuses: no service needed."""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(__file__))

import hermes_stand_in  # noqa: E402

PLUGIN = hermes_stand_in.load_plugin()


def closed_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def make_provider(**init_kwargs):
    env = {"MEMORY_POOL_URL": closed_url(), "MEMORY_POOL_BOT": "mythos", "HERMES_HOME": tempfile.mkdtemp()}
    with mock.patch.dict(os.environ, env):
        provider = PLUGIN.MemoryPoolProvider()
        kwargs = {"platform": "telegram", "agent_context": "primary", "chat_id": "chat-9"}
        kwargs.update(init_kwargs)
        provider.initialize("sess", **kwargs)
    return provider


def user_message(body):
    return next(m for m in body["messages"] if m["speaker_kind"] == "user")


class Attribution(unittest.TestCase):
    def test_the_per_turn_author_wins_over_the_session_user(self):
        provider = make_provider(chat_type="dm", user_id="42", user_name="Ada")
        self.assertEqual(user_message(provider._build_save("a", "b", "sess", None))["user_id"], "telegram:42")
        provider.on_turn_start(2, "hi", author_id="99", author_name="Bea", author_is_bot=False)
        message = user_message(provider._build_save("c", "d", "sess", None))
        self.assertEqual((message["user_id"], message["speaker_name"]), ("telegram:99", "Bea"))
        # sync_turn's own turn_author is the newest word on who spoke.
        message = user_message(provider._build_save("e", "f", "sess", {"id": "5", "name": "Cy", "is_bot": False}))
        self.assertEqual((message["user_id"], message["speaker_name"]), ("telegram:5", "Cy"))
        # An empty turn_author says nothing, so on_turn_start's author still counts.
        self.assertEqual(user_message(provider._build_save("g", "h", "sess", {}))["user_id"], "telegram:99")

    def test_group_chats_never_credit_the_session_user(self):
        provider = make_provider(chat_type="group", user_id="7", user_name="Opener")
        provider.on_turn_start(1, "hi")
        message = user_message(provider._build_save("someone said this", "ok", "sess", None))
        self.assertNotIn("user_id", message)
        self.assertNotIn("speaker_name", message)

    def test_ids_are_qualified_once_by_platform(self):
        provider = make_provider(platform="discord", chat_type="dm")
        provider.on_turn_start(1, "hi", author_id="discord:1234", author_name="Dee")
        self.assertEqual(user_message(provider._build_save("x", "y", "sess", None))["user_id"], "discord:1234")
        provider.on_turn_start(2, "hi", author_id="1234", author_name="Dee")
        self.assertEqual(user_message(provider._build_save("z", "w", "sess", None))["user_id"], "discord:1234")


class RecallTime(unittest.TestCase):
    def test_recall_sends_the_turns_own_time_as_now(self):
        provider = make_provider(chat_type="dm", user_id="42")
        sent = []
        provider._client.post_within = lambda path, body, deadline: sent.append(body) or {"formatted": "", "hits": []}
        with mock.patch("time.time", return_value=1_778_000_000.5):
            provider.on_turn_start(1, "what did we talk about yesterday?")
        provider._retrieve_formatted("what did we talk about yesterday?", 1.0)
        self.assertEqual(sent[-1]["now"], 1_778_000_000_500)
        self.assertEqual(sent[-1]["query_text"], "what did we talk about yesterday?")


class DirectMessages(unittest.TestCase):
    def test_dm_turns_are_marked_on_both_messages_and_on_recall(self):
        provider = make_provider(chat_type="dm", user_id="42")
        body = provider._build_save("secret", "kept", "sess", None)
        self.assertEqual([(m["is_dm"], m["channel_id"]) for m in body["messages"]], [(True, "chat-9")] * 2)
        self.assertEqual(provider._recall_context(), {"channel_id": "chat-9", "is_dm": True})

    def test_group_turns_say_they_are_not_dms(self):
        provider = make_provider(chat_type="thread")
        body = provider._build_save("public", "reply", "sess", None)
        self.assertEqual([m["is_dm"] for m in body["messages"]], [False, False])
        # Without a server id from Hermes the chat itself is the guild, so `guild` scope keeps it in there.
        expected = {"channel_id": "chat-9", "is_dm": False, "guild_id": "telegram:chat-9"}
        self.assertEqual(provider._recall_context(), expected)
        self.assertEqual([m["guild_id"] for m in body["messages"]], ["telegram:chat-9"] * 2)

    def test_a_guild_id_from_the_host_wins_and_dms_have_none(self):
        provider = make_provider(platform="discord", chat_type="channel", guild_id="8123")
        self.assertEqual(provider._recall_context()["guild_id"], "8123")
        self.assertNotIn("guild_id", make_provider(chat_type="dm", guild_id="8123")._recall_context())

    def test_an_unknown_chat_type_is_left_to_the_service(self):
        provider = make_provider(platform="cli", chat_id="")
        body = provider._build_save("cli words", "reply", "sess", None)
        self.assertTrue(all("is_dm" not in m and "channel_id" not in m for m in body["messages"]))
        self.assertEqual(provider._recall_context(), {})


class ForgetArguments(unittest.TestCase):
    def forget(self, provider, args):
        return json.loads(provider.handle_tool_call("memory_pool_forget", args))["error"]["code"]

    def test_forgetting_me_needs_a_known_author(self):
        provider = make_provider(chat_type="group", user_id="7")
        provider.on_turn_start(1, "forget me")
        self.assertEqual(self.forget(provider, {"scope": "me"}), "unknown_user")
        provider.on_turn_start(2, "forget me", author_id="8", author_name="Hal")
        # With an author the request is made (and fails here only because nothing listens).
        self.assertEqual(self.forget(provider, {"scope": "me"}), "unreachable")

    def test_bad_arguments_are_refused_before_any_request(self):
        provider = make_provider(chat_type="dm", user_id="42")
        self.assertEqual(self.forget(provider, {"scope": "everyone"}), "invalid_argument")
        self.assertEqual(self.forget(provider, {"scope": "me", "message_ids": ["m1"]}), "invalid_argument")
        self.assertEqual(self.forget(provider, {"message_ids": []}), "invalid_argument")
        self.assertEqual(self.forget(provider, {"message_ids": "m1"}), "invalid_argument")


if __name__ == "__main__":
    unittest.main()

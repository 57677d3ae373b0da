"""The memory_link tool: asks for a code or redeems one for the current turn's author (a fake service, no memory-pool)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(__file__))

import hermes_stand_in  # noqa: E402
from fake_service import FakeService  # noqa: E402

PLUGIN = hermes_stand_in.load_plugin()


class LinkTool(unittest.TestCase):
    def setUp(self):
        self.service = FakeService()
        self.addCleanup(self.service.close)
        env = {"MEMORY_POOL_URL": self.service.url, "MEMORY_POOL_BOT": "my bot", "HERMES_HOME": tempfile.mkdtemp(),
               "MEMORY_POOL_API_KEY": "", "MEMORY_POOL_CONFIG_FILE": ""}
        patcher = mock.patch.dict(os.environ, env)
        patcher.start()
        self.addCleanup(patcher.stop)

    def provider(self, **kwargs):
        provider = PLUGIN.MemoryPoolProvider()
        init = {"platform": "telegram", "agent_context": "primary", "chat_id": "c1", "chat_type": "dm", "user_id": "5678"}
        init.update(kwargs)
        provider.initialize("s1", **init)
        self.addCleanup(provider.shutdown)
        return provider

    def link(self, provider, args):
        return json.loads(provider.handle_tool_call("memory_link", args))

    def test_without_a_code_it_asks_for_one_for_the_platform_qualified_user(self):
        answer = self.link(self.provider(), {})
        self.assertEqual((answer["code"], answer["expires_at"]), ("ABCDE-FGHJK", "2026-01-01T00:10:00.000Z"))
        (body,) = self.service.posts("/bots/my%20bot/link-codes")
        self.assertEqual(body["account"], {"user_id": "telegram:5678"})

    def test_with_a_code_it_redeems_it_for_the_current_author(self):
        provider = self.provider(chat_type="group", user_id="7")
        provider.on_turn_start(1, "link me: ABCDE-FGHJK", author_id="99", author_name="Bea", author_is_bot=False)
        answer = self.link(provider, {"code": " abcde-fghjk "})
        self.assertTrue(answer["linked"])
        self.assertEqual(answer["person"]["name"], "Anna")
        (body,) = self.service.posts("/bots/my%20bot/link-codes/redeem")
        self.assertEqual((body["code"], body["account"]), ("abcde-fghjk", {"user_id": "telegram:99"}))

    def test_a_code_is_never_given_in_a_group_where_others_could_say_it_first(self):
        provider = self.provider(chat_type="group")
        provider.on_turn_start(1, "give me a code", author_id="99", author_name="Bea", author_is_bot=False)
        self.assertEqual(self.link(provider, {})["error"]["code"], "not_private")
        # A turn's start may prefetch a recall in the background; what must not happen is a link-code request.
        self.assertEqual([r for r in self.service.requests if "link-codes" in r[1]], [])

    def test_an_unknown_author_or_a_bad_code_is_refused_before_any_request(self):
        group = self.provider(chat_type="group", user_id="7")
        group.on_turn_start(1, "link")
        self.assertEqual(self.link(group, {"code": "ABCDE-FGHJK"})["error"]["code"], "unknown_user")
        self.assertEqual(self.link(self.provider(), {"code": 12})["error"]["code"], "invalid_argument")
        # A turn's start may prefetch a recall in the background; what must not happen is a link-code request.
        self.assertEqual([r for r in self.service.requests if "link-codes" in r[1]], [])

    def test_the_model_is_told_the_tool_exists(self):
        provider = self.provider()
        self.assertIn("memory_link", [schema["name"] for schema in provider.get_tool_schemas()])
        self.assertIn("memory_link links the user's accounts", provider.system_prompt_block())

    def test_the_services_refusal_reaches_the_model_with_its_code(self):
        self.service.status = 401
        self.assertEqual(self.link(self.provider(), {"code": "ABCDE-FGHJK"})["error"]["code"], "unauthorized")


if __name__ == "__main__":
    unittest.main()

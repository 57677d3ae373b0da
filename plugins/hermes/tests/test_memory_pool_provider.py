"""Drives the plugin through Hermes's hook order against a real memory-pool service (MEMORY_POOL_TEST_URL)."""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import time
import unittest
import urllib.request
import uuid
from unittest import mock

sys.path.insert(0, os.path.dirname(__file__))

import hermes_stand_in  # noqa: E402

PLUGIN = hermes_stand_in.load_plugin()
message_ids = sys.modules[PLUGIN.__name__ + ".message_ids"]

SERVICE_URL = os.environ.get("MEMORY_POOL_TEST_URL", "")
BOT = "mythos"


def make_provider(url: str, bot: str = BOT, **init_kwargs):
    """register(ctx) like Hermes, then is_available, get_tool_schemas and initialize, with env pointing at `url`."""
    home = tempfile.mkdtemp(prefix="hermes-home-")
    env = {"MEMORY_POOL_URL": url, "MEMORY_POOL_BOT": bot, "HERMES_HOME": home, "MEMORY_POOL_API_KEY": ""}
    with mock.patch.dict(os.environ, env):
        ctx = hermes_stand_in.FakeContext()
        PLUGIN.register(ctx)
        assert len(ctx.providers) == 1
        provider = ctx.providers[0]
        assert provider.is_available()
        provider.get_tool_schemas()
        kwargs = {"platform": "telegram", "hermes_home": home, "agent_context": "primary", "chat_id": "chat-1"}
        kwargs.update(init_kwargs)
        provider.initialize(kwargs.pop("session_id", f"session-{uuid.uuid4().hex[:8]}"), **kwargs)
    return provider


def post(path: str, body: dict) -> dict:
    request = urllib.request.Request(
        SERVICE_URL + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def wait_for_hit(query: str, message_id: str, timeout: float = 10.0, **request) -> dict:
    """Polls /retrieve until a hit holds `message_id` (the node side flushes the writer every 200 ms)."""
    end = time.monotonic() + timeout
    body = {"bot": BOT, "query_text": query, "limit": 10, **request}
    while time.monotonic() < end:
        for hit in post("/retrieve", body)["hits"]:
            if message_id in hit["messageIds"]:
                return hit
        time.sleep(0.2)
    raise AssertionError(f"no hit holding {message_id} after {timeout}s")


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@unittest.skipUnless(SERVICE_URL, "set MEMORY_POOL_TEST_URL to a running memory-pool (the node test does)")
class AgainstRealService(unittest.TestCase):
    def test_a_turn_is_saved_with_source_speakers_and_ids_old_signatures(self):
        word = uuid.uuid4().hex[:10]
        provider = make_provider(SERVICE_URL, session_id="old-sess", user_id="42", user_name="Ada", chat_type="dm")
        provider.on_turn_start(1, f"tell me about {word}")
        # Nothing about this fresh word exists yet (other tests' memories may still be recalled).
        self.assertNotIn(word, provider.prefetch(f"tell me about {word}", session_id="old-sess"))
        user_text = f"My cat {word} loves sleeping on the warm windowsill every afternoon."
        agent_text = f"That sounds cozy, {word} has found the best spot in the house."
        provider.sync_turn(user_text, agent_text, session_id="old-sess")
        provider.queue_prefetch(user_text, session_id="old-sess")
        self.assertTrue(provider._sender.flush(5))
        self.assertEqual(provider._sender.recent_responses[-1]["accepted"], 2)

        user_id = message_ids.derive_message_id("old-sess", 1, "user", user_text)
        agent_id = message_ids.derive_message_id("old-sess", 1, "assistant", agent_text)
        hit = wait_for_hit(f"cat {word} windowsill", user_id)
        self.assertEqual(hit.get("source"), "hermes")
        self.assertIn("Ada", hit["speakers"])
        self.assertEqual(hit.get("channelId"), "chat-1")
        # Small test chunks may put the agent's reply in a chunk of its own.
        agent_hit = wait_for_hit(f"cozy {word} best spot house", agent_id)
        self.assertIn("Mythos", agent_hit["speakers"])
        self.assertEqual(agent_hit.get("source"), "hermes")

        # A second session (another agent, say the CLI) recalls it as the formatted block.
        other = make_provider(SERVICE_URL, platform="cli", chat_id="")
        recalled = other.prefetch(f"what does my cat {word} love", session_id="x")
        self.assertIn("[Past chat memories]", recalled)
        self.assertIn(word, recalled)
        # on_turn_start starts the recall of the message prefetch is then asked for.
        other.on_turn_start(1, f"the windowsill where {word} sleeps")
        self.assertIn(word, other.prefetch(f"the windowsill where {word} sleeps", session_id="x"))
        # The session that wrote the turn still has it in context, so its own recall leaves it out.
        self.assertNotIn(user_text, provider.prefetch(f"cat {word} windowsill", session_id="old-sess"))
        provider.on_session_end([])
        provider.shutdown()
        other.shutdown()

    def test_a_retried_turn_is_reported_as_duplicates_newer_signatures(self):
        word = uuid.uuid4().hex[:10]
        provider = make_provider(SERVICE_URL, session_id="new-sess", chat_type="group", user_id="7")
        provider.on_turn_start(3, "hi", author_id="99", author_name="Bea", author_is_bot=False, platform="telegram")
        user_text = f"Remember that my favourite tea is {word} oolong from the mountains."
        agent_text = f"Noted: {word} oolong is your favourite tea."
        author = {"id": "99", "name": "Bea", "is_bot": False}
        provider.sync_turn(user_text, agent_text, session_id="new-sess", messages=[], turn_author=author)
        provider.sync_turn(user_text, agent_text, session_id="new-sess", messages=[], turn_author=author)
        self.assertTrue(provider._sender.flush(5))
        first, second = list(provider._sender.recent_responses)[-2:]
        self.assertEqual((first["accepted"], first["duplicates"]), (2, 0))
        self.assertEqual((second["accepted"], second["duplicates"]), (0, 2))
        self.assertIn("memory-pool-sender", hermes_stand_in.spawned_threads)  # the host's helper, not a bare thread
        hit = wait_for_hit(f"favourite tea {word}", message_ids.derive_message_id("new-sess", 3, "user", user_text))
        self.assertIn("Bea", hit["speakers"])
        provider.shutdown()

    def test_non_primary_contexts_and_bot_authors_write_nothing(self):
        for context in ("subagent", "cron", "flush"):
            provider = make_provider(SERVICE_URL, agent_context=context)
            provider.on_turn_start(1, "x")
            provider.sync_turn("a cron prompt that must not be remembered at all", "ok", session_id="c")
            self.assertTrue(provider._sender.flush(2))
            self.assertEqual(list(provider._sender.recent_responses), [], context)
        provider = make_provider(SERVICE_URL)
        provider.on_turn_start(1, "x", author_id="5", author_name="OtherBot", author_is_bot=True)
        provider.sync_turn("a message written by another bot in the group", "reply", session_id="b")
        self.assertTrue(provider._sender.flush(2))
        self.assertEqual(list(provider._sender.recent_responses), [])

    def test_forget_tool_removes_a_turn_for_good(self):
        word = uuid.uuid4().hex[:10]
        provider = make_provider(SERVICE_URL, session_id="tool-sess", user_id="1", user_name="Cy", chat_type="dm")
        provider.on_turn_start(1, "x")
        user_text = f"My sister {word} is moving to Lisbon next spring for her new job."
        agent_text = f"How exciting for {word}, Lisbon is lovely in spring!"
        provider.sync_turn(user_text, agent_text, session_id="tool-sess")
        self.assertTrue(provider._sender.flush(5))
        ids = [message_ids.derive_message_id("tool-sess", 1, role, text)
               for role, text in (("user", user_text), ("assistant", agent_text))]
        wait_for_hit(f"sister {word} Lisbon", ids[0], channel_id="chat-1", is_dm=True)
        found = json.loads(provider.handle_tool_call("memory_pool_search", {"query": f"sister {word} Lisbon"}))
        self.assertTrue(any(word in hit["text"] for hit in found["hits"]), found)

        forgot = json.loads(provider.handle_tool_call("memory_pool_forget", {"message_ids": ids}))
        self.assertEqual((forgot["ok"], forgot["messages_forgotten"]), (True, 2), forgot)
        found = json.loads(provider.handle_tool_call("memory_pool_search", {"query": f"sister {word} Lisbon"}))
        self.assertFalse(any(word in hit["text"] for hit in found["hits"]), found)
        other = make_provider(SERVICE_URL, chat_type="dm")
        self.assertNotIn(word, other.prefetch(f"my sister {word} moving to Lisbon", session_id="o"))
        # Hermes retrying the turn cannot bring it back: the service remembers the ids were forgotten.
        provider.sync_turn(user_text, agent_text, session_id="tool-sess")
        self.assertTrue(provider._sender.flush(5))
        retried = provider._sender.recent_responses[-1]
        self.assertEqual((retried["accepted"], retried["forgotten"]), (0, 2), retried)
        provider.shutdown()
        other.shutdown()

    def test_forget_me_removes_only_the_current_authors_messages(self):
        word = uuid.uuid4().hex[:10]
        gil, hal = uuid.uuid4().hex[:8], uuid.uuid4().hex[:8]
        provider = make_provider(SERVICE_URL, session_id="me-sess", chat_type="group", user_id=hal)
        said = {}
        for turn, (author, name, text) in enumerate(
            [(gil, "Gil", f"Gil here: my dog {word} is afraid of thunderstorms and hides."),
             (hal, "Hal", f"Hal here: my parrot {word} sings opera every single morning.")], start=1):
            provider.on_turn_start(turn, text, author_id=author, author_name=name, author_is_bot=False)
            provider.sync_turn(text, "", session_id="me-sess")
            said[name] = message_ids.derive_message_id("me-sess", turn, "user", text)
        self.assertTrue(provider._sender.flush(5))
        wait_for_hit(f"dog {word} thunderstorms", said["Gil"])
        wait_for_hit(f"parrot {word} opera", said["Hal"])

        provider.on_turn_start(3, "please forget everything about me", author_id=gil, author_name="Gil")
        forgot = json.loads(provider.handle_tool_call("memory_pool_forget", {"scope": "me"}))
        self.assertEqual((forgot["ok"], forgot["messages_forgotten"]), (True, 1), forgot)
        hits = post("/retrieve", {"bot": BOT, "query_text": f"{word} dog parrot", "limit": 10})["hits"]
        kept = " ".join(hit["messageIds"] for hit in hits)
        self.assertNotIn(said["Gil"], kept)
        self.assertIn(said["Hal"], kept)  # the session's opener in this group is Hal; only Gil asked
        provider.shutdown()

    def test_link_tool_code_said_on_discord_makes_one_person(self):
        provider = make_provider(SERVICE_URL, chat_type="dm", user_id=f"u{uuid.uuid4().hex[:8]}")
        given = json.loads(provider.handle_tool_call("memory_link", {}))
        self.assertRegex(given.get("code", ""), r"^[0-9A-Z]{5}-[0-9A-Z]{5}$", given)
        discord_id = str(uuid.uuid4().int % 10**18)
        person = post(f"/bots/{BOT}/link-codes/redeem", {"code": given["code"], "account": {"discord_user_id": discord_id}})
        self.assertIn({"discord_user_id": discord_id}, person["accounts"])
        self.assertEqual(len(person["accounts"]), 2)
        again = json.loads(provider.handle_tool_call("memory_link", {"code": given["code"]}))
        self.assertEqual(again["error"]["code"], "validation_failed")

    def test_a_dm_stays_in_its_dm_under_a_dm_private_bot(self):
        word = uuid.uuid4().hex[:10]
        dm = make_provider(SERVICE_URL, bot="private", session_id="dm-sess", chat_type="dm",
                           chat_id=f"dm-{word}", user_id="42", user_name="Ada")
        group = make_provider(SERVICE_URL, bot="private", session_id="grp-sess", chat_type="group",
                              chat_id=f"grp-{word}")
        for provider, session, text in (
            (dm, "dm-sess", f"Between us: my secret recipe {word} uses cardamom and orange peel."),
            (group, "grp-sess", f"For everyone: the public recipe {word} uses flour and butter."),
        ):
            provider.on_turn_start(1, text, author_id="42", author_name="Ada")
            provider.sync_turn(text, "", session_id=session)
            self.assertTrue(provider._sender.flush(5))
        secret = message_ids.derive_message_id("dm-sess", 1, "user", f"Between us: my secret recipe {word} uses cardamom and orange peel.")
        wait_for_hit(f"secret recipe {word} cardamom", secret, bot="private", channel_id=f"dm-{word}", is_dm=True)

        # From another DM, recall and search see the group's memory but not the first DM's.
        elsewhere = make_provider(SERVICE_URL, bot="private", session_id="dm2", chat_type="dm", chat_id=f"dm2-{word}")
        recalled = elsewhere.prefetch(f"recipe {word} cardamom orange flour butter", session_id="dm2")
        self.assertIn("public recipe", recalled)
        self.assertNotIn("cardamom", recalled)
        found = json.loads(elsewhere.handle_tool_call("memory_pool_search", {"query": f"secret recipe {word} cardamom"}))
        self.assertFalse(any("cardamom" in hit["text"] for hit in found["hits"]), found)
        # The DM itself still finds it.
        found = json.loads(dm.handle_tool_call("memory_pool_search", {"query": f"secret recipe {word} cardamom"}))
        self.assertTrue(any("cardamom" in hit["text"] for hit in found["hits"]), found)
        for provider in (dm, group, elsewhere):
            provider.shutdown()

    def test_under_guild_scope_a_group_memory_stays_in_its_group(self):
        word = uuid.uuid4().hex[:10]
        group = make_provider(SERVICE_URL, bot="guarded", session_id="g1", chat_type="group", chat_id=f"grp-{word}")
        group.on_turn_start(1, "x", author_id="3", author_name="Ivy", author_is_bot=False)
        text = f"Ivy here: our band {word} rehearses in the old boathouse on Thursdays."
        group.sync_turn(text, f"The {word} boathouse rehearsals sound fun.", session_id="g1")
        self.assertTrue(group._sender.flush(5))
        said = message_ids.derive_message_id("g1", 1, "user", text)
        wait_for_hit(f"band {word} boathouse", said, bot="guarded", channel_id=f"grp-{word}",
                     guild_id=f"telegram:grp-{word}")
        query = f"band {word} rehearses boathouse Thursdays"
        # Another session in the same group recalls it...
        same = make_provider(SERVICE_URL, bot="guarded", session_id="g2", chat_type="group", chat_id=f"grp-{word}")
        same.on_turn_start(1, query)
        self.assertIn("boathouse", same.prefetch(query, session_id="g2"))
        # ...another group does not, by recall or by search.
        other = make_provider(SERVICE_URL, bot="guarded", session_id="g3", chat_type="group", chat_id=f"oth-{word}")
        other.on_turn_start(1, query)
        self.assertNotIn("boathouse", other.prefetch(query, session_id="g3"))
        found = json.loads(other.handle_tool_call("memory_pool_search", {"query": query}))
        self.assertFalse(any("boathouse" in hit["text"] for hit in found["hits"]), found)
        for provider in (group, same, other):
            provider.shutdown()


    def test_a_pre_compress_checkpoint_makes_the_turn_in_progress_durable_and_recallable(self):
        word = uuid.uuid4().hex[:10]
        provider = make_provider(SERVICE_URL, session_id="ck-sess", user_id="42", user_name="Ada", chat_type="dm")
        user_text = f"My grandmother's village {word} sits on a lake in the northern hills."
        provider.on_turn_start(1, user_text)
        messages = [{"role": "system", "content": "You are Hermes."}, {"role": "user", "content": user_text}]
        driver = hermes_stand_in.HostDriver(provider)
        self.assertEqual(driver.pre_compress(messages, require_checkpoint=True), "")
        checkpoint_id = provider._ledger.find("user", user_text).message["message_id"]
        hit = wait_for_hit(f"grandmother village {word} lake", checkpoint_id)
        self.assertIn("Ada", hit["speakers"])
        # The turn then completes: the same message is a duplicate, not a second copy.
        provider.sync_turn(user_text, f"A lake village, {word} sounds beautiful.", session_id="ck-sess")
        self.assertTrue(provider._sender.flush(5))
        self.assertEqual((provider._sender.recent_responses[-1]["accepted"], provider._sender.recent_responses[-1]["duplicates"]), (1, 1))
        provider.shutdown()


class WhenTheServiceMisbehaves(unittest.TestCase):
    def test_prefetch_returns_empty_when_the_service_is_down(self):
        provider = make_provider(f"http://127.0.0.1:{closed_port()}")
        self.assertEqual(provider.prefetch("anything at all", session_id="s"), "")
        provider.sync_turn("hello there", "hi", session_id="s")  # must return at once and not raise
        provider.shutdown()

    def test_forget_reports_a_clear_error_when_the_service_is_down(self):
        provider = make_provider(f"http://127.0.0.1:{closed_port()}")
        answer = json.loads(provider.handle_tool_call("memory_pool_forget", {"message_ids": ["m1"]}))
        self.assertEqual(answer["error"]["code"], "unreachable")
        self.assertEqual(json.loads(provider.handle_tool_call("memory_pool_forget", {}))["error"]["code"],
                         "invalid_argument")


if __name__ == "__main__":
    unittest.main()

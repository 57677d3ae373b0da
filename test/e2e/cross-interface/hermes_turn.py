"""Drives the real Hermes plugin for the cross-interface test: one `sync_turn`, or one `prefetch`.

Usage: python3 hermes_turn.py sync|prefetch '<json>'; prints one JSON object on stdout.
The plugin is loaded the way its own tests load it, through `plugins/hermes/tests/hermes_stand_in.py`.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO_ROOT / "plugins" / "hermes" / "tests"))

import hermes_stand_in  # noqa: E402

PLUGIN = hermes_stand_in.load_plugin()
message_ids = sys.modules[PLUGIN.__name__ + ".message_ids"]


def make_provider(args: dict):
    """register(ctx), is_available and initialize, as Hermes calls them, configured through the environment."""
    home = tempfile.mkdtemp(prefix="hermes-home-")
    os.environ.update(
        {"MEMORY_POOL_URL": args["url"], "MEMORY_POOL_BOT": args["bot"], "HERMES_HOME": home, "MEMORY_POOL_API_KEY": ""}
    )
    ctx = hermes_stand_in.FakeContext()
    PLUGIN.register(ctx)
    provider = ctx.providers[0]
    if not provider.is_available():
        raise SystemExit("the plugin says it is not configured")
    provider.initialize(
        args["session_id"],
        platform=args.get("platform", "telegram"),
        hermes_home=home,
        agent_context="primary",
        chat_id=args.get("chat_id", ""),
        chat_type="dm",
        user_id=args.get("user_id", ""),
        user_name=args.get("user_name", ""),
    )
    return provider


def sync(args: dict) -> dict:
    provider = make_provider(args)
    session, turn = args["session_id"], args["turn"]
    provider.on_turn_start(turn, args["user_text"])
    provider.sync_turn(args["user_text"], args["agent_text"], session_id=session)
    provider.shutdown()  # waits for the background sender
    return {
        "user_message_id": message_ids.derive_message_id(session, turn, "user", args["user_text"]),
        "agent_message_id": message_ids.derive_message_id(session, turn, "assistant", args["agent_text"]),
        "responses": list(provider._sender.recent_responses),
    }


def prefetch(args: dict) -> dict:
    provider = make_provider(args)
    formatted = provider.prefetch(args["query"], session_id=args["session_id"])
    provider.shutdown()
    return {"formatted": formatted}


if __name__ == "__main__":
    mode, raw = sys.argv[1], sys.argv[2]
    print(json.dumps({"sync": sync, "prefetch": prefetch}[mode](json.loads(raw))))

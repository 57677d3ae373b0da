"""`hermes memory-pool status | search | forget`: Hermes loads this file (`register_cli`) while memory-pool is the active provider.

It imports only the plugin's settings and HTTP client, never the provider, so it works during Hermes's
argument parsing and from a pip install alike.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional

from . import config as _config
from .http_client import MemoryPoolClient, ServiceError

TIMEOUT_SECONDS = 10.0


def register_cli(subparser: argparse.ArgumentParser) -> None:
    """Builds the `hermes memory-pool` argument tree."""
    subs = subparser.add_subparsers(dest="memory_pool_command")
    subs.add_parser("status", help="show the settings and ask the service about the bot's memory")
    search = subs.add_parser("search", help="search the shared memory")
    search.add_argument("query", nargs="+", help="what to look for")
    search.add_argument("--limit", type=int, default=5, help="most results (1-20, default 5)")
    forget = subs.add_parser("forget", help="forget messages for good")
    which = forget.add_mutually_exclusive_group(required=True)
    which.add_argument("--id", dest="message_ids", action="append", help="a message id (repeatable)")
    which.add_argument("--user", dest="user_id", help="everything one user said, e.g. telegram:42")
    subparser.set_defaults(func=memory_pool_command)


def memory_pool_command(args: argparse.Namespace, out=None) -> int:
    """Runs one subcommand; prints to `out` (stdout) and returns the exit code."""
    out = out or sys.stdout
    settings = _config.load_config()
    command = getattr(args, "memory_pool_command", None)
    if command is None:
        print("usage: hermes memory-pool {status,search,forget}", file=out)
        return 2
    problem = _config.explain_unavailable(settings)
    if command == "status":
        return _status(settings, problem, out)
    if problem:
        print(f"memory-pool is not configured: {problem}", file=out)
        return 1
    client = MemoryPoolClient(settings.url, settings.api_key)
    try:
        if command == "search":
            return _search(client, settings.bot, " ".join(args.query), args.limit, out)
        return _forget(client, settings.bot, args.message_ids, args.user_id, out)
    except ServiceError as error:
        print(f"memory-pool: {_explain(error, settings)}", file=out)
        return 1


def _status(settings: _config.MemoryPoolConfig, problem: str, out) -> int:
    print(f"url:       {settings.url}", file=out)
    print(f"bot:       {settings.bot or '(not set)'}", file=out)
    print(f"api key:   {'set' if settings.api_key else 'not set'}", file=out)
    print(f"settings:  {_config.config_file_path()}", file=out)
    if problem:
        print(f"status:    not configured: {problem}", file=out)
        return 1
    try:
        stats = MemoryPoolClient(settings.url, settings.api_key).get(f"/bots/{settings.bot}/stats", TIMEOUT_SECONDS)
    except ServiceError as error:
        print(f"status:    {_explain(error, settings)}", file=out)
        return 1
    points = stats.get("points", {}).get("total")
    pending = stats.get("messages", {}).get("pending")
    print(f"status:    ok (collection {stats.get('collection')}, {points} points, {pending} messages waiting)", file=out)
    return 0


def _search(client: MemoryPoolClient, bot: str, query: str, limit: int, out) -> int:
    answer = client.post("/retrieve", {"bot": bot, "query_text": query, "limit": max(1, min(20, limit))}, TIMEOUT_SECONDS)
    hits: List[Dict[str, Any]] = [h for h in answer.get("hits", []) if isinstance(h, dict)]
    if not hits:
        print("no memories found", file=out)
    for hit in hits:
        score = hit.get("score")
        print(f"[{score:.2f}] {hit.get('speakers', '')}" if isinstance(score, (int, float)) else hit.get("speakers", ""), file=out)
        print(f"  {str(hit.get('text', '')).replace(chr(10), ' ')}", file=out)
        print(f"  ids: {hit.get('messageIds', '')}", file=out)
    return 0


def _forget(client: MemoryPoolClient, bot: str, ids: Optional[List[str]], user_id: Optional[str], out) -> int:
    selector: Dict[str, Any] = {"message_ids": ids} if ids else {"user_id": user_id}
    print(json.dumps(client.post("/forget", {"bot": bot, **selector}, TIMEOUT_SECONDS)), file=out)
    return 0


def _explain(error: ServiceError, settings: _config.MemoryPoolConfig) -> str:
    if error.status == 401:
        return f"memory-pool at {settings.url} refused the key ({error}): set MEMORY_POOL_API_KEY to a key it accepts"
    return str(error)


# Hermes looks the handler up as `<provider name>_command`; the name has a dash, so it is set by hand.
globals()["memory-pool_command"] = memory_pool_command

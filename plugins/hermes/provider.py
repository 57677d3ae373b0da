"""MemoryPoolProvider: the Hermes memory provider that recalls from and saves to a memory-pool service."""

from __future__ import annotations

import collections
import json
import logging
import threading
import time
from typing import Any, Deque, Dict, List, Optional

from . import checkpoint as _checkpoint
from . import config as _config
from . import link_tool as _link
from . import tools as _tools
from .background_sender import BackgroundSender
from .host_compat import CHECKPOINT_API_VERSION, MemoryProvider, RecallStatus, is_trivial_prompt, spawn_thread
from .http_client import MemoryPoolClient, ServiceError
from .message_ids import derive_message_id, qualify_user_id
from .prefetch_cache import PrefetchCache
from .save_ledger import SaveLedger
from .turn_author import TurnAuthor, read_turn_author

logger = logging.getLogger(__name__)

PROVIDER_NAME = "memory-pool"
PROVIDER_LABEL = "memory-pool"
SOURCE = "hermes"
_NO_RECALL = ("", 0)
# The checkpoint is synchronous (Hermes waits for it before compressing): never longer than this.
CHECKPOINT_MAX_SECONDS = 30.0
# Ids of this session's recent messages are still in Hermes's context: recalling them would only repeat it.
RECENT_IDS_KEPT = 40
GROUP_CHAT_TYPES = ("group", "channel", "thread")
# Hermes says "dm"; "private" is Telegram's own word for the same thing, in case a build passes it through.
DM_CHAT_TYPES = ("dm", "private")


class MemoryPoolProvider(MemoryProvider):
    """Recall before each turn from POST /retrieve; save each finished turn to POST /save in the background."""

    # Every successful on_pre_compress means the messages are durably saved (Hermes's fail-closed contract);
    # an instance that may not write (a subagent, a cron job) lowers it to the best-effort version 1.
    pre_compress_checkpoint_api_version = CHECKPOINT_API_VERSION

    def __init__(self) -> None:
        self._hermes_home: Optional[str] = None
        self._config = _config.load_config()
        # (url, api_key, message) of the last 401: that key is refused until the settings change.
        self._refused: Optional[tuple] = None
        self._client = self._make_client()
        self._sender: Optional[BackgroundSender] = None
        self._ledger = SaveLedger()
        self._last_recall: Optional[Any] = None
        self._turn_message = ""
        # When the turn began (Unix ms): recall reads "yesterday" against it (the zone is the bot's timezone).
        self._turn_started_ms: Optional[int] = None
        self._cache = PrefetchCache()
        self._session_id = ""
        self._platform = "cli"
        self._writes_enabled = False
        self._init_user: TurnAuthor = TurnAuthor()
        self._chat_id = ""
        self._chat_type = ""
        self._guild_id = ""
        self._turn_number: Optional[int] = None
        self._turn_author: Optional[TurnAuthor] = None
        self._own_turns: Dict[str, int] = {}
        self._last_pair: Dict[str, tuple] = {}
        self._recent_ids: Deque[str] = collections.deque(maxlen=RECENT_IDS_KEPT)
        # sync_turn and prefetch may run on different threads; a deque cannot be copied while it grows.
        self._ids_lock = threading.Lock()

    @property
    def name(self) -> str:
        return PROVIDER_NAME

    # -- lifecycle ---------------------------------------------------------------------------

    def is_available(self) -> bool:
        """Whether the settings (read now: env, `$HERMES_HOME/.env` and files) are complete; no network call."""
        return not self.unavailable_reason()

    def unavailable_reason(self) -> str:
        """The fix when unavailable ("set MEMORY_POOL_BOT ...", "... refused the key ..."), else ""."""
        current = _config.load_config(self._hermes_home)
        return _config.explain_unavailable(current) or self._refusal_of(current)

    def initialize_for_inspection(self, session_id: str = "", **kwargs: Any) -> None:
        """Settings, tool schemas and the system block for `hermes memory status`-style views: no threads, no network."""
        self._bind_session(session_id, kwargs)
        self._writes_enabled = False
        self.pre_compress_checkpoint_api_version = 1

    def initialize(self, session_id: str = "", **kwargs: Any) -> None:
        self._bind_session(session_id, kwargs)
        if self._sender is None:
            self._sender = BackgroundSender(
                self._client, spawn=spawn_thread, timeout=self._config.save_timeout, on_acknowledged=self._acknowledge
            )

    def _bind_session(self, session_id: str, kwargs: Dict[str, Any]) -> None:
        self._hermes_home = kwargs.get("hermes_home") or self._hermes_home
        self._config = _config.load_config(self._hermes_home)
        if self._sender is None:
            self._client = self._make_client()
        self._session_id = session_id or ""
        self._platform = str(kwargs.get("platform") or "cli")
        # Cron prompts, subagents and memory flushes are not the user's conversation. Older hosts pass no
        # agent_context at all, but their cron runs still say so through the platform.
        default_context = "cron" if self._platform == "cron" else "primary"
        self._writes_enabled = (kwargs.get("agent_context") or default_context) == "primary"
        # Only an instance that writes can promise Hermes a durable checkpoint.
        self.pre_compress_checkpoint_api_version = CHECKPOINT_API_VERSION if self._writes_enabled else 1
        self._init_user = TurnAuthor(str(kwargs.get("user_id") or ""), str(kwargs.get("user_name") or ""), False)
        self._chat_id = str(kwargs.get("chat_id") or "")
        self._chat_type = str(kwargs.get("chat_type") or "")
        self._guild_id = _read_guild_id(self._platform, self._chat_id, self._chat_type, kwargs.get("guild_id"))

    def get_tool_schemas(self) -> List[Dict[str, Any]]:
        return [dict(schema) for schema in _tools.TOOL_SCHEMAS]

    def system_prompt_block(self) -> str:
        return (
            "Long-term memory (memory-pool) is shared across platforms. Relevant past chats are recalled "
            f"automatically; use {_tools.SEARCH_TOOL} to look further back, and {_tools.FORGET_TOOL} only when "
            f"the user asks you to forget something; {_tools.LINK_TOOL} links the user's accounts on other apps "
            "into one person when they ask."
        )

    def get_config_schema(self) -> List[Dict[str, Any]]:
        return _config.get_config_schema()

    def save_config(self, values: Dict[str, Any], hermes_home: str) -> None:
        _config.save_config(values, hermes_home)

    def backup_paths(self) -> List[str]:
        """Paths outside `$HERMES_HOME` for `hermes backup`: the settings file, only when moved out of it."""
        path = _config.config_file_path(self._hermes_home).expanduser().resolve()
        home = _config.resolve_hermes_home(self._hermes_home).expanduser().resolve()
        return [] if path == home or home in path.parents else [str(path)]

    def shutdown(self) -> None:
        if self._sender is not None:
            self._sender.close(timeout=1.0)

    # -- per turn ----------------------------------------------------------------------------

    def on_turn_start(self, turn_number: int = 0, message: str = "", **kwargs: Any) -> None:
        self._turn_number = int(turn_number) if isinstance(turn_number, int) else None
        author = read_turn_author(
            {"id": kwargs.get("author_id"), "name": kwargs.get("author_name"), "is_bot": kwargs.get("author_is_bot")}
        )
        self._turn_author = author if author.id or author.name else None
        self._turn_message = message.strip() if isinstance(message, str) else ""
        self._turn_started_ms = int(time.time() * 1000)
        # Hermes calls prefetch with this same message right after: start its recall now, so the two overlap.
        try:
            if self._ready() and isinstance(message, str) and not is_trivial_prompt(message):
                timeout = self._config.prefetch_timeout
                self._cache.warm(message, lambda: self._retrieve_formatted(message, timeout), spawn_thread)
        except Exception as error:  # a recall failure must never break the turn
            logger.debug("memory-pool: could not start the recall: %s", error)

    def prefetch(self, query: str, *, session_id: str = "", **kwargs: Any) -> str:
        """The `[Past chat memories]` block for this query, or "" (never raises, never waits past the timeout).

        Trivial prompts ("thanks", "ok", "/compact") cost no recall at all.
        """
        self._last_recall = None
        try:
            if not self._ready() or is_trivial_prompt(str(query or "")):
                return ""
            timeout = self._config.prefetch_timeout
            # The recall on_turn_start began for this message; it was started with the same deadline.
            recalled = self._cache.take(query, timeout, late=_NO_RECALL)
            if recalled is None:
                recalled = self._retrieve_formatted(query, timeout)
        except Exception as error:  # a recall failure must never break the turn
            logger.debug("memory-pool: prefetch failed: %s", error)
            return ""
        text, count = recalled
        if text:
            self._last_recall = RecallStatus(provider_label=PROVIDER_LABEL, count=count)
        return text

    def recall_status(self) -> Optional[Any]:
        """How many memories the LAST prefetch injected (Hermes shows "recalled N memories"), or None."""
        return self._last_recall

    def queue_prefetch(self, query: str, *, session_id: str = "", **kwargs: Any) -> None:
        """Does nothing on purpose: Hermes passes the turn just finished, never the next message.

        A recall for that text would not match the next turn's `prefetch`; `on_turn_start` starts the recall
        for the message that is actually coming, so each turn makes one /retrieve.
        """
        return None

    def sync_turn(
        self,
        user_content: Any,
        assistant_content: Any,
        *,
        session_id: str = "",
        messages: Optional[List[Dict[str, Any]]] = None,
        turn_author: Optional[Dict[str, Any]] = None,
        **kwargs: Any,
    ) -> None:
        """Queues the turn's user and agent messages for /save and returns at once."""
        try:
            count = len(messages) if isinstance(messages, list) and messages else None
            body = self._build_save(
                user_content, assistant_content, session_id or self._session_id, turn_author, message_count=count
            )
        except Exception as error:
            logger.debug("memory-pool: could not build the save for a turn: %s", error)
            return
        if body is not None and self._sender is not None:
            self._sender.submit(body)

    def handle_tool_call(self, tool_name: str, args: Dict[str, Any], **kwargs: Any) -> str:
        """The tool's answer as a JSON string; failures become `{"error": ...}`, never an exception."""
        try:
            return self._run_tool(tool_name, args)
        except Exception as error:
            logger.warning("memory-pool: tool %s failed: %s", tool_name, error)
            return json.dumps({"error": {"code": "internal", "message": f"memory-pool tool failed: {error}"}})

    def _run_tool(self, tool_name: str, args: Any) -> str:
        args = args if isinstance(args, dict) else {}
        timeout = max(self._config.prefetch_timeout, self._config.save_timeout)
        problem = _config.explain_unavailable(self._config) or self._refusal_of(self._config)
        if problem:
            return json.dumps(ServiceError(f"memory-pool is not usable: {problem}", code="not_configured").to_dict())
        if tool_name == _tools.SEARCH_TOOL:
            return _tools.run_search(self._client, self._config.bot, args, timeout, self._recall_context())
        if tool_name == _tools.FORGET_TOOL:
            author = self._resolve_author(None)
            user_id = qualify_user_id(self._platform, author.id) if author is not None and author.id else None
            return _tools.run_forget(self._client, self._config.bot, args, timeout, user_id)
        if tool_name == _tools.LINK_TOOL:
            author = self._resolve_author(None)
            user_id = qualify_user_id(self._platform, author.id) if author is not None and author.id else None
            private = self._chat_type in DM_CHAT_TYPES or self._platform == "cli"
            return _link.run_link(self._client, self._config.bot, args, timeout, user_id, private)
        return json.dumps({"error": {"code": "unknown_tool", "message": f"memory-pool has no tool {tool_name}"}})

    def on_session_end(self, messages: Optional[List[Dict[str, Any]]] = None, **kwargs: Any) -> None:
        if self._sender is not None:
            self._sender.flush(timeout=2.0)

    def on_session_switch(
        self,
        new_session_id: str = "",
        *,
        parent_session_id: str = "",
        reset: bool = False,
        rewound: bool = False,
        **kwargs: Any,
    ) -> None:
        """Ids follow the new session; `reset` (/new, /reset) starts afresh, `rewound` (/undo) drops per-turn state.

        On /resume, /branch and compression the conversation goes on, so the messages still in context stay
        excluded from recall.
        """
        self._session_id = new_session_id or self._session_id
        self._cache = PrefetchCache()
        self._last_recall = None
        if reset or rewound:
            self._turn_number = None
            self._turn_author = None
            self._turn_message = ""
            self._last_pair.clear()
        if reset:
            self._own_turns.clear()
            with self._ids_lock:
                self._recent_ids.clear()

    def on_pre_compress(self, messages: Optional[List[Dict[str, Any]]] = None, **kwargs: Any) -> str:
        """Saves, synchronously and within a bound, every user and agent message in `messages` not yet acknowledged.

        Raises CheckpointError when that fails (Hermes keeps the uncompressed transcript when it requires a
        checkpoint, and logs it otherwise); returns "" (nothing to add to the summary prompt) on success.
        """
        if not self._writes_enabled or not self._ready():
            return ""
        unsaved = _checkpoint.collect_unsaved(messages, self._ledger, self._checkpoint_message)
        if not unsaved:
            return ""
        if self._sender is not None:
            # A turn still queued may be the very one; a short wait saves sending it twice.
            self._sender.flush(timeout=min(1.0, self._config.save_timeout))
            unsaved = _checkpoint.collect_unsaved(messages, self._ledger, self._checkpoint_message)
        deadline = min(CHECKPOINT_MAX_SECONDS, max(2.0, 2 * self._config.save_timeout))
        self._ledger.record(unsaved, from_checkpoint=True)
        try:
            _checkpoint.save_within(self._client, self._config.bot, SOURCE, unsaved, deadline, on_saved=self._acknowledge)
        except _checkpoint.CheckpointError as error:
            logger.warning("memory-pool: pre-compress checkpoint failed: %s", error)
            raise
        with self._ids_lock:
            self._recent_ids.extend(m["message_id"] for m in unsaved)
        return ""

    def on_delegation(self, task: str = "", result: str = "", *, child_session_id: str = "", **kwargs: Any) -> None:
        """With `save_delegations` on, queues the subagent's task and answer as one note from the agent."""
        if not self._config.save_delegations or not self._writes_enabled or not self._ready() or self._sender is None:
            return
        task_text, result_text = _read_text(task), _read_text(result)
        if not task_text and not result_text:
            return
        note = f"Delegated task: {task_text}\nResult: {result_text}".strip()[:20_000]
        message_id = derive_message_id(self._session_id, 0, "delegation", f"{child_session_id}\x1f{note}")
        message = self._message("self", note, message_id, int(time.time() * 1000))
        self._ledger.record([message])
        self._sender.submit({"bot": self._config.bot, "source": SOURCE, "messages": [message]})

    # -- internals ---------------------------------------------------------------------------

    def _ready(self) -> bool:
        """The hot-path check: the settings read at initialize are complete and the key was not refused."""
        return not _config.explain_unavailable(self._config) and not self._refusal_of(self._config)

    def _make_client(self) -> MemoryPoolClient:
        return MemoryPoolClient(self._config.url, self._config.api_key, on_unauthorized=self._note_refusal)

    def _note_refusal(self, error: ServiceError) -> None:
        self._refused = (self._client.url, self._client.api_key, str(error))

    def _refusal_of(self, config: _config.MemoryPoolConfig) -> str:
        refused = self._refused
        if refused is None or (refused[0], refused[1]) != (config.url, config.api_key):
            return ""  # new settings deserve a new try
        which = "the API key" if config.api_key else "requests without an API key"
        return f"memory-pool at {config.url} refused {which} ({refused[2]}): set MEMORY_POOL_API_KEY to a key it accepts"

    def _acknowledge(self, body: Dict[str, Any]) -> None:
        self._ledger.acknowledge(body.get("messages") or [])

    def _checkpoint_message(self, kind: str, text: str, occurrence: int) -> Dict[str, Any]:
        """A /save message for one the checkpoint found and sync_turn never built (e.g. the turn in progress)."""
        message_id = derive_message_id(self._session_id, 0, f"checkpoint-{kind}-{occurrence}", text)
        message = self._message(kind, text, message_id, int(time.time() * 1000))
        # The turn in progress is the current author's; older unknown messages get what initialize knew.
        author = self._resolve_author(None) if kind == "user" and text == self._turn_message else self._fallback_author()
        if kind == "user" and author is not None and author.id:
            message["user_id"] = qualify_user_id(self._platform, author.id)
        if kind == "user" and author is not None and author.name:
            message["speaker_name"] = author.name[:200]
        return message

    def _fallback_author(self) -> Optional[TurnAuthor]:
        return None if self._chat_type in GROUP_CHAT_TYPES else self._init_user

    def _retrieve_formatted(self, query: str, timeout: float) -> tuple:
        body: Dict[str, Any] = {"bot": self._config.bot, "query_text": str(query)[:20_000], **self._recall_context()}
        # The turn's own time, so "what did we talk about yesterday?" means the asker's yesterday.
        body["now"] = self._turn_started_ms if self._turn_started_ms is not None else int(time.time() * 1000)
        if self._config.max_chars is not None:
            body["max_chars"] = self._config.max_chars
        with self._ids_lock:
            recent = list(self._recent_ids)
        if recent:
            body["exclude_message_ids"] = recent
        try:
            answer = self._client.post_within("/retrieve", body, deadline=timeout)
        except ServiceError as error:
            logger.debug("memory-pool: recall skipped: %s", error)
            return _NO_RECALL
        formatted = answer.get("formatted")
        if not isinstance(formatted, str) or not formatted.strip():
            return _NO_RECALL
        hits = answer.get("hits")
        return formatted, len(hits) if isinstance(hits, list) else 0

    def _build_save(
        self, user_content: Any, assistant_content: Any, session_id: str, turn_author: Any, message_count=None
    ):
        if not self._writes_enabled or not self._ready():
            return None
        author = self._resolve_author(turn_author)
        if author is not None and author.is_bot:
            return None  # another bot's message in a group chat is not the user's memory
        user_text, agent_text = _read_text(user_content), _read_text(assistant_content)
        if not user_text and not agent_text:
            return None
        turn = self._resolve_turn_number(session_id, user_text, agent_text)
        now_ms = int(time.time() * 1000)
        messages: List[Dict[str, Any]] = []
        if user_text:
            message = self._message("user", user_text, self._message_id(session_id, turn, "user", user_text, message_count), now_ms)
            if author is not None and author.id:
                message["user_id"] = qualify_user_id(self._platform, author.id)
            if author is not None and author.name:
                message["speaker_name"] = author.name[:200]
            messages.append(message)
        if agent_text:
            agent_id = self._message_id(session_id, turn, "assistant", agent_text, message_count)
            messages.append(self._message("self", agent_text, agent_id, now_ms + 1))
        with self._ids_lock:
            self._recent_ids.extend(m["message_id"] for m in messages)
        self._ledger.record(messages)
        return {"bot": self._config.bot, "source": SOURCE, "messages": messages}

    def _message_id(self, session_id: str, turn: int, role: str, text: str, message_count) -> str:
        """The derived id, unless a checkpoint already saved this very message mid-turn: then its id, so no copy."""
        kind = "user" if role == "user" else "self"
        known = self._ledger.find(kind, text)
        if known is not None and known.from_checkpoint:
            return known.message["message_id"]  # recorded again below as the turn's own, so used once
        return derive_message_id(session_id, turn, role, text, message_count)

    def _resolve_author(self, turn_author: Any) -> Optional[TurnAuthor]:
        """Who wrote the current turn: sync_turn's `turn_author`, else on_turn_start's, else (outside groups) initialize's.

        In group chats the initialize-time user is whoever opened the session: crediting them is worse than no id.
        """
        given = read_turn_author(turn_author)
        if given.id or given.name or given.is_bot:
            return given
        if self._turn_author is not None:
            return self._turn_author
        if self._chat_type in GROUP_CHAT_TYPES:
            return None
        return self._init_user

    def _recall_context(self) -> Dict[str, Any]:
        """Where this chat is, for /retrieve and /save: the bot's privacy scope (`retrieve.scope`) reads it."""
        context: Dict[str, Any] = {}
        if self._chat_id:
            context["channel_id"] = self._chat_id[:200]
        if self._chat_type:
            context["is_dm"] = self._chat_type in DM_CHAT_TYPES
        if self._guild_id:
            context["guild_id"] = self._guild_id
        return context

    def _message(self, kind: str, text: str, message_id: str, ts: int) -> Dict[str, Any]:
        # Both the user's message and the agent's reply are marked, so a DM never leaks through either.
        return {"speaker_kind": kind, "text": text, "message_id": message_id, "ts": ts, **self._recall_context()}

    def _resolve_turn_number(self, session_id: str, user_text: str, agent_text: str) -> int:
        """The host's turn number; older hosts without `on_turn_start` get a per-session count.

        The count does not advance when the same turn is synced again, so a retry keeps its ids.
        """
        if self._turn_number is not None:
            return self._turn_number
        pair = (user_text, agent_text)
        if self._last_pair.get(session_id) != pair:
            self._own_turns[session_id] = self._own_turns.get(session_id, 0) + 1
            self._last_pair[session_id] = pair
        return self._own_turns[session_id]


def _read_guild_id(platform: str, chat_id: str, chat_type: str, given: Any) -> str:
    """The `guild_id` memory-pool's `guild` scope keeps memories in: only group, channel and thread chats have one.

    Hermes passes no server id today, so the group chat itself stands in as `<platform>:<chat_id>`; a host
    that does pass `guild_id` gets the real one. Without any, the service would count the chat as neutral
    and recall it in every other group.
    """
    if chat_type not in GROUP_CHAT_TYPES:
        return ""
    if given is not None and str(given).strip():
        return str(given).strip()[:200]
    return f"{platform}:{chat_id}"[:200] if chat_id else ""


def _read_text(content: Any) -> str:
    """Message text from a string or an OpenAI-style list of content parts."""
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text"]
        return "\n".join(p for p in parts if isinstance(p, str)).strip()
    return "" if content is None else str(content).strip()

"""Stand-ins for Hermes's `agent.memory_provider` (a current build and an old one) and its plugin loader.

The current stand-in follows today's base class: `RecallStatus`, `is_trivial_prompt`, the pre-compress
checkpoint constant, `initialize_for_inspection`, `unavailable_reason`, `recall_status`, `backup_paths`.
The old one has only what the first provider hosts had, and no `spawn_context_thread`. `HostDriver` calls
the hooks the way each host's memory manager does (keyword filtering, the checkpoint rules).
"""

from __future__ import annotations

import contextvars
import importlib.metadata
import importlib.util
import inspect
import os
import re
import sys
import threading
import types
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

SOURCE_DIR = Path(__file__).resolve().parent.parent
# The code under test: this source tree, or with MEMORY_POOL_HERMES_INSTALLED=1 the copy pip installed
# (install_and_test.sh), found without importing it: outside a host, importing it fails on agent.memory_provider.
INSTALLED = os.environ.get("MEMORY_POOL_HERMES_INSTALLED") == "1"
if INSTALLED:
    _spec = importlib.util.find_spec("memory_pool_hermes")
    if _spec is None or _spec.origin is None:
        raise RuntimeError("MEMORY_POOL_HERMES_INSTALLED=1 but memory_pool_hermes is not installed in this Python")
    PLUGIN_DIR = Path(_spec.origin).resolve().parent
else:
    PLUGIN_DIR = SOURCE_DIR
ENTRY_POINT_GROUP = "hermes_agent.memory_providers"
spawned_threads: List[str] = []
PRE_COMPRESS_CHECKPOINT_API_VERSION = 2


@dataclass(frozen=True)
class RecallStatus:
    provider_label: str
    count: int
    glyph: str = "\U0001f9e0"


# The current host's rule, written for these tests from its documented behavior (the plugin's copy is separate).
_TRIVIAL = re.compile(
    r"^(yes|no|ok|okay|sure|thanks|thank you|y|n|yep|nope|yeah|nah|hi|hey|hello|yo|sup|continue|go ahead|do it|"
    r"proceed|got it|cool|nice|great|done|next|lgtm|k)[\s!?.:;,\"'~()\[\]{}<>*&^%$#@+=`\u2018\u2019\u201c\u201d"
    r"\u2014\u2013\u2026\u00a0]*$",
    re.IGNORECASE,
)
trivial_checks: List[str] = []


def is_trivial_prompt(text: Optional[str]) -> bool:
    trivial_checks.append(text or "")
    stripped = (text or "").strip()
    return not stripped or stripped.startswith("/") or bool(_TRIVIAL.match(stripped))


class OldMemoryProvider(ABC):
    """The first provider hosts' base class: no session switch, checkpoint, recall status or inspection hooks."""

    @property
    @abstractmethod
    def name(self) -> str: ...

    @abstractmethod
    def is_available(self) -> bool: ...

    @abstractmethod
    def initialize(self, session_id: str, **kwargs) -> None: ...

    @abstractmethod
    def get_tool_schemas(self) -> List[Dict[str, Any]]: ...

    def system_prompt_block(self) -> str:
        return ""

    def prefetch(self, query: str) -> str:
        return ""

    def queue_prefetch(self, query: str) -> None:
        return None

    def sync_turn(self, user_content: str, assistant_content: str) -> None:
        return None

    def handle_tool_call(self, tool_name: str, args: Dict[str, Any], **kwargs) -> str:
        raise NotImplementedError(tool_name)

    def shutdown(self) -> None:
        return None

    def on_turn_start(self, turn_number: int, message: str) -> None:
        return None

    def on_session_end(self, messages: List[Dict[str, Any]]) -> None:
        return None

    def on_pre_compress(self, messages: List[Dict[str, Any]]) -> str:
        return ""

    def on_memory_write(self, action: str, target: str, content: str) -> None:
        return None

    def get_config_schema(self) -> List[Dict[str, Any]]:
        return []

    def save_config(self, values: Dict[str, Any], hermes_home: str) -> None:
        return None


class MemoryProvider(OldMemoryProvider):
    """Today's base class: the old one's abstract methods, plus today's hooks and signatures as Hermes has them."""

    pre_compress_checkpoint_api_version = 1

    def initialize_for_inspection(self, session_id: str, **kwargs) -> None:
        self.initialize(session_id=session_id, **kwargs)

    def unavailable_reason(self) -> str:
        return ""

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        return ""

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        return None

    def recall_status(self) -> Optional[RecallStatus]:
        return None

    def sync_turn(self, user_content: str, assistant_content: str, *, session_id: str = "",
                  messages: Optional[List[Dict[str, Any]]] = None) -> None:
        return None

    def on_turn_start(self, turn_number: int, message: str, **kwargs) -> None:
        return None

    def on_session_switch(self, new_session_id: str, *, parent_session_id: str = "", reset: bool = False,
                          rewound: bool = False, **kwargs) -> None:
        return None

    def on_memory_write(self, action: str, target: str, content: str, metadata=None) -> None:
        return None

    def on_delegation(self, task: str, result: str, *, child_session_id: str = "", **kwargs) -> None:
        return None

    def backup_paths(self) -> List[str]:
        return []


def spawn_context_thread(target, *, name, daemon=True, args=(), kwargs=None) -> threading.Thread:
    """Like Hermes: an unstarted thread running `target` under a copy of the caller's contextvars."""
    spawned_threads.append(name)
    context = contextvars.copy_context()
    return threading.Thread(
        target=lambda: context.run(target, *args, **(kwargs or {})), name=name, daemon=daemon
    )


def _new_host_module() -> types.ModuleType:
    module = types.ModuleType("agent.memory_provider")
    module.MemoryProvider = MemoryProvider
    module.RecallStatus = RecallStatus
    module.is_trivial_prompt = is_trivial_prompt
    module.PRE_COMPRESS_CHECKPOINT_API_VERSION = PRE_COMPRESS_CHECKPOINT_API_VERSION
    module.spawn_context_thread = spawn_context_thread
    return module


def _old_host_module() -> types.ModuleType:
    module = types.ModuleType("agent.memory_provider")
    module.MemoryProvider = OldMemoryProvider
    return module


HOSTS = {"new": _new_host_module(), "old": _old_host_module()}


def install_stand_in() -> None:
    """Puts `agent` and the current `agent.memory_provider` into sys.modules once, before any plugin import."""
    if "agent.memory_provider" in sys.modules:
        return
    agent = types.ModuleType("agent")
    agent.__path__ = []
    agent.memory_provider = HOSTS["new"]
    sys.modules["agent"] = agent
    sys.modules["agent.memory_provider"] = HOSTS["new"]


def load_installed_plugin():
    """Loads the pip-installed plugin as Hermes does: the `memory-pool` entry point of its provider group."""
    install_stand_in()
    points = [p for p in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP) if p.name == "memory-pool"]
    if len(points) != 1:
        raise RuntimeError(f"expected one memory-pool entry point in {ENTRY_POINT_GROUP}, found {len(points)}")
    return points[0].load()


def load_plugin(module_name: str = "_hermes_user_memory.memory-pool__source_test", host: str = "new"):
    """Imports the plugin folder the way Hermes does (a package spec on its `__init__.py`) under the given host."""
    if INSTALLED and host == "new":
        return load_installed_plugin()
    install_stand_in()
    if module_name in sys.modules:
        return sys.modules[module_name]  # one import per process, like Hermes's loader
    parent = module_name.rsplit(".", 1)[0]
    if parent not in sys.modules:
        namespace = types.ModuleType(parent)
        namespace.__path__ = []
        sys.modules[parent] = namespace
    spec = importlib.util.spec_from_file_location(
        module_name, PLUGIN_DIR / "__init__.py", submodule_search_locations=[str(PLUGIN_DIR)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    # `import agent.memory_provider as x` reads the package attribute, `from ... import` reads sys.modules: swap both.
    agent, current = sys.modules["agent"], sys.modules["agent.memory_provider"]
    sys.modules["agent.memory_provider"] = agent.memory_provider = HOSTS[host]
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules["agent.memory_provider"] = agent.memory_provider = current
    return module


def load_old_host_plugin():
    """The same plugin folder imported a second time, against the old host."""
    return load_plugin("_hermes_user_memory.memory-pool__source_old_host", host="old")


class FakeContext:
    """Collects what `register(ctx)` hands over, like Hermes's provider collector."""

    def __init__(self) -> None:
        self.providers: List[Any] = []

    def register_memory_provider(self, provider) -> None:
        self.providers.append(provider)


def _accepts(fn, keyword: str) -> bool:
    params = inspect.signature(fn).parameters
    return keyword in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


class HostDriver:
    """Calls a provider's hooks as the current memory manager does; `old=True` as the first hosts did."""

    def __init__(self, provider, old: bool = False):
        self.provider = provider
        self.old = old

    def pre_compress(self, messages, *, require_checkpoint: bool = False) -> str:
        """Today's rule: a checkpoint (v2) provider's failure propagates when a checkpoint is required."""
        try:
            version = int(getattr(self.provider, "pre_compress_checkpoint_api_version", 1))
        except (TypeError, ValueError):
            version = 1
        is_checkpoint = not self.old and version >= PRE_COMPRESS_CHECKPOINT_API_VERSION
        kwargs = {"require_checkpoint": require_checkpoint} if is_checkpoint and _accepts(
            self.provider.on_pre_compress, "require_checkpoint") else {}
        try:
            summary = self.provider.on_pre_compress(messages, **kwargs) or ""
        except Exception:
            if require_checkpoint and is_checkpoint:
                raise
            summary = ""  # best effort: the host logs it and compresses anyway
        if require_checkpoint and not is_checkpoint:
            raise RuntimeError("No active memory provider completed pre-compress checkpoint API v2")
        return summary

    def describe_recall(self) -> str:
        status = self.provider.recall_status()
        if status is None:
            return ""
        detail = ("recalled 1 memory" if status.count == 1 else f"recalled {status.count} memories"
                  if status.count > 1 else "recalled relevant memory")
        return f"{status.glyph} {status.provider_label} — {detail}"

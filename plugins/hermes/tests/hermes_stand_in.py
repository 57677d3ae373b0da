"""A stand-in for Hermes's `agent.memory_provider` and its plugin loader, so the tests run without Hermes."""

from __future__ import annotations

import contextvars
import importlib.util
import sys
import threading
import types
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, Dict, List, Optional

PLUGIN_DIR = Path(__file__).resolve().parent.parent
spawned_threads: List[str] = []


class MemoryProvider(ABC):
    """The same abstract methods, hooks and signatures as Hermes's base class."""

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

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        return ""

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        return None

    def sync_turn(self, user_content: str, assistant_content: str, *, session_id: str = "",
                  messages: Optional[List[Dict[str, Any]]] = None) -> None:
        return None

    def handle_tool_call(self, tool_name: str, args: Dict[str, Any], **kwargs) -> str:
        raise NotImplementedError(tool_name)

    def shutdown(self) -> None:
        return None

    def on_turn_start(self, turn_number: int, message: str, **kwargs) -> None:
        return None

    def on_session_end(self, messages: List[Dict[str, Any]]) -> None:
        return None

    def on_session_switch(self, new_session_id: str, *, parent_session_id: str = "", reset: bool = False,
                          rewound: bool = False, **kwargs) -> None:
        return None

    def on_pre_compress(self, messages: List[Dict[str, Any]]) -> str:
        return ""

    def on_memory_write(self, action: str, target: str, content: str, metadata=None) -> None:
        return None

    def on_delegation(self, task: str, result: str, *, child_session_id: str = "", **kwargs) -> None:
        return None

    def get_config_schema(self) -> List[Dict[str, Any]]:
        return []

    def save_config(self, values: Dict[str, Any], hermes_home: str) -> None:
        return None


def spawn_context_thread(target, *, name, daemon=True, args=(), kwargs=None) -> threading.Thread:
    """Like Hermes: an unstarted thread running `target` under a copy of the caller's contextvars."""
    spawned_threads.append(name)
    context = contextvars.copy_context()
    return threading.Thread(
        target=lambda: context.run(target, *args, **(kwargs or {})), name=name, daemon=daemon
    )


def install_stand_in() -> None:
    """Puts `agent` and `agent.memory_provider` into sys.modules once, before any plugin import."""
    if "agent.memory_provider" in sys.modules:
        return
    agent = types.ModuleType("agent")
    agent.__path__ = []
    module = types.ModuleType("agent.memory_provider")
    module.MemoryProvider = MemoryProvider
    module.spawn_context_thread = spawn_context_thread
    agent.memory_provider = module
    sys.modules["agent"] = agent
    sys.modules["agent.memory_provider"] = module


def load_plugin(module_name: str = "_hermes_user_memory.memory-pool__source_test"):
    """Imports the plugin folder the way Hermes does: a package spec on its `__init__.py`."""
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
    spec.loader.exec_module(module)
    return module


class FakeContext:
    """Collects what `register(ctx)` hands over, like Hermes's provider collector."""

    def __init__(self) -> None:
        self.providers: List[Any] = []

    def register_memory_provider(self, provider) -> None:
        self.providers.append(provider)

"""What the running Hermes offers, read once at import: newer names when the host has them, stand-ins when not.

Older Hermes builds lack `RecallStatus`, `is_trivial_prompt`, `spawn_context_thread` and the pre-compress
checkpoint constant; the plugin must load and behave sensibly on them too.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import agent.memory_provider as host
from agent.memory_provider import MemoryProvider

from .trivial_prompts import pick_trivial_rule

__all__ = ["MemoryProvider", "RecallStatus", "CHECKPOINT_API_VERSION", "host", "is_trivial_prompt", "spawn_thread"]

# The fail-closed pre-compress checkpoint contract this plugin implements (Hermes calls it version 2).
CHECKPOINT_API_VERSION = 2


@dataclass(frozen=True)
class _LocalRecallStatus:
    """The shape of Hermes's `RecallStatus`, for hosts that do not define it (they never ask for it either)."""

    provider_label: str
    count: int
    glyph: str = "\U0001f9e0"


RecallStatus = getattr(host, "RecallStatus", None) or _LocalRecallStatus
is_trivial_prompt = pick_trivial_rule(host)


def spawn_thread(target, *, name, daemon=True, args=(), kwargs=None) -> threading.Thread:
    """The host's `spawn_context_thread` (keeps Hermes's profile contextvars) or a plain daemon thread."""
    host_spawn = getattr(host, "spawn_context_thread", None)
    if callable(host_spawn):
        return host_spawn(target, name=name, daemon=daemon, args=args, kwargs=kwargs)
    return threading.Thread(target=target, name=name, daemon=daemon, args=args, kwargs=kwargs or {})

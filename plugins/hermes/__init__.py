"""memory-pool: a Hermes Agent memory provider that shares one long-term memory with SillyTavern, Discord and MCP.

Hermes finds this folder under $HERMES_HOME/plugins/memory-pool, calls register(ctx), and
activates it with `memory.provider: memory-pool` (it checks this file for register_memory_provider).
"""

from __future__ import annotations

from .provider import MemoryPoolProvider

__all__ = ["MemoryPoolProvider", "register"]


def register(ctx) -> None:
    """Hermes's plugin entry point: hands it one provider instance."""
    ctx.register_memory_provider(MemoryPoolProvider())

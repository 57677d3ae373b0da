"""The settings panel Hermes's dashboard draws for memory-pool (loaded by path, so it imports nothing of the plugin).

The dashboard keeps non-secret values in `$HERMES_HOME/memory-pool/config.json` (its `flat_json` storage),
the file `config.py` reads, and the API key in `$HERMES_HOME/.env` as `MEMORY_POOL_API_KEY`.
"""

# No `from __future__ import annotations`: the dashboard runs this file without registering it as a module,
# and dataclasses cannot resolve string annotations then.
try:
    from plugins.memory.config_schema import (
        KIND_BOOL,
        KIND_NUMBER,
        KIND_SECRET,
        KIND_TEXT,
        STORAGE_FLAT_JSON,
        ProviderConfigSchema,
        ProviderField,
    )
except ImportError:  # an older Hermes (it never loads this file) or no Hermes at all: the same shapes, locally
    from dataclasses import dataclass
    from typing import Optional, Tuple

    KIND_TEXT, KIND_SECRET, KIND_BOOL, KIND_NUMBER = "text", "secret", "bool", "number"
    STORAGE_FLAT_JSON = "flat_json"

    @dataclass(frozen=True)
    class ProviderField:  # type: ignore[no-redef]
        key: str
        label: str
        kind: str = KIND_TEXT
        default: str = ""
        description: str = ""
        placeholder: str = ""
        env_key: Optional[str] = None
        inline: bool = False
        group: str = ""

    @dataclass(frozen=True)
    class ProviderConfigSchema:  # type: ignore[no-redef]
        name: str
        label: str
        storage: str = STORAGE_FLAT_JSON
        docs_url: str = ""
        fields: Tuple[ProviderField, ...] = ()


CONFIG_SCHEMA = ProviderConfigSchema(
    # The flat_json file is $HERMES_HOME/<name>/config.json: the name must be the provider's.
    name="memory-pool",
    label="memory-pool",
    storage=STORAGE_FLAT_JSON,
    fields=(
        ProviderField(
            key="url", label="Service URL", kind=KIND_TEXT, default="http://127.0.0.1:3102",
            description="The memory-pool service Hermes recalls from and saves to.", inline=True, group="Connection",
        ),
        ProviderField(
            key="api_key", label="API key", kind=KIND_SECRET, env_key="MEMORY_POOL_API_KEY",
            description="A memory-pool key with sources [hermes] and scopes save, retrieve (and forget for the tool); "
            "empty when the service has no keys.", inline=True, group="Connection",
        ),
        ProviderField(
            key="bot", label="Bot key", kind=KIND_TEXT, placeholder="mythos",
            description="The bot configured in memory-pool whose memory Hermes shares.", inline=True, group="Connection",
        ),
        ProviderField(
            key="prefetch_timeout", label="Recall timeout (s)", kind=KIND_NUMBER, default="2",
            description="How long a turn waits for recall before going on without it (0.1 to 8).", group="Timing",
        ),
        ProviderField(
            key="save_timeout", label="Save timeout (s)", kind=KIND_NUMBER, default="5",
            description="Per background save attempt; the pre-compress checkpoint waits at most twice this.", group="Timing",
        ),
        ProviderField(
            key="save_delegations", label="Save delegated tasks", kind=KIND_BOOL, default="false",
            description="Also save each finished subagent task and its result, as a note from the agent.", group="Memory",
        ),
        ProviderField(
            key="max_chars", label="Recall budget (characters)", kind=KIND_NUMBER,
            description="The most characters of recalled memories a turn receives, whole memories only (1 to 100000); "
            "empty: the bot's retrieve.maxChars on the service.", group="Memory",
        ),
    ),
)

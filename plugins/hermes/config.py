"""Settings for the memory-pool provider: defaults, the setup schema, the saved file and environment overrides."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional

CONFIG_FILE_NAME = "memory-pool.json"

DEFAULT_URL = "http://127.0.0.1:3102"
DEFAULT_PREFETCH_TIMEOUT = 2.0
DEFAULT_SAVE_TIMEOUT = 5.0
# Newer Hermes builds give up on prefetch after 8 s; a longer wait would only hold older builds' turns.
PREFETCH_TIMEOUT_RANGE = (0.1, 8.0)

# Environment variables win over the saved file so containers can configure without `hermes memory setup`.
ENV_VARS = {
    "url": "MEMORY_POOL_URL",
    "api_key": "MEMORY_POOL_API_KEY",
    "bot": "MEMORY_POOL_BOT",
    "prefetch_timeout": "MEMORY_POOL_PREFETCH_TIMEOUT",
    "save_timeout": "MEMORY_POOL_SAVE_TIMEOUT",
}


@dataclass(frozen=True)
class MemoryPoolConfig:
    """Resolved settings; built once per `initialize` and never mutated."""

    url: str = DEFAULT_URL
    api_key: str = ""
    bot: str = ""
    prefetch_timeout: float = DEFAULT_PREFETCH_TIMEOUT
    save_timeout: float = DEFAULT_SAVE_TIMEOUT


def get_config_schema() -> List[Dict[str, Any]]:
    """The fields `hermes memory setup` asks for; the secret goes to `$HERMES_HOME/.env`."""
    return [
        {"key": "url", "description": "memory-pool service URL", "default": DEFAULT_URL, "type": "text"},
        {
            "key": "api_key",
            "description": "memory-pool API key (leave empty when the service has no keys)",
            "secret": True,
            "env_var": ENV_VARS["api_key"],
        },
        {"key": "bot", "description": "bot key configured in memory-pool (e.g. mythos)", "required": True, "type": "text"},
        {
            "key": "prefetch_timeout",
            "description": "seconds to wait for recall before a turn goes on without it",
            "default": DEFAULT_PREFETCH_TIMEOUT,
            "type": "number",
            "minimum": 0.1,
            "maximum": 8,
        },
        {
            "key": "save_timeout",
            "description": "seconds per background save attempt",
            "default": DEFAULT_SAVE_TIMEOUT,
            "type": "number",
            "minimum": 0.5,
            "maximum": 60,
        },
    ]


def resolve_hermes_home(hermes_home: Optional[str] = None) -> Path:
    """The Hermes home given by the host, else `$HERMES_HOME`, else `~/.hermes`."""
    if hermes_home:
        return Path(hermes_home)
    env = os.environ.get("HERMES_HOME", "").strip()
    return Path(env) if env else Path.home() / ".hermes"


def save_config(values: Mapping[str, Any], hermes_home: Optional[str]) -> Path:
    """Writes the non-secret values to `$HERMES_HOME/memory-pool.json`, merged over what is there."""
    path = resolve_hermes_home(hermes_home) / CONFIG_FILE_NAME
    current = read_config_file(path)
    for key, value in values.items():
        # Secrets belong in .env (Hermes writes them there); never persist them in a plain JSON file.
        if key == "api_key" or value is None:
            continue
        current[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(current, indent=2) + "\n", encoding="utf-8")
    return path


def read_config_file(path: Path) -> Dict[str, Any]:
    """The saved settings, or {} when the file is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load_config(hermes_home: Optional[str] = None, env: Optional[Mapping[str, str]] = None) -> MemoryPoolConfig:
    """Defaults, then the saved file, then environment variables (empty strings count as unset)."""
    environ = os.environ if env is None else env
    merged: Dict[str, Any] = dict(read_config_file(resolve_hermes_home(hermes_home) / CONFIG_FILE_NAME))
    for key, var in ENV_VARS.items():
        value = environ.get(var, "").strip()
        if value:
            merged[key] = value
    return MemoryPoolConfig(
        url=str(merged.get("url") or DEFAULT_URL).rstrip("/"),
        api_key=str(merged.get("api_key") or ""),
        bot=str(merged.get("bot") or ""),
        prefetch_timeout=_clamp(_read_seconds(merged.get("prefetch_timeout"), DEFAULT_PREFETCH_TIMEOUT), PREFETCH_TIMEOUT_RANGE),
        save_timeout=_read_seconds(merged.get("save_timeout"), DEFAULT_SAVE_TIMEOUT),
    )


def _read_seconds(value: Any, default: float) -> float:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return default
    return seconds if seconds > 0 else default


def _clamp(value: float, bounds: tuple) -> float:
    low, high = bounds
    return min(high, max(low, value))

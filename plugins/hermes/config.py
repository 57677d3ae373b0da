"""Settings for the memory-pool provider: defaults, the setup schema, the saved file and environment overrides."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional

# Where `hermes memory setup` and the dashboard (its `flat_json` storage) keep the settings: $HERMES_HOME/memory-pool/.
CONFIG_DIR_NAME = "memory-pool"
CONFIG_FILE_NAME = "config.json"
# Where versions before the dashboard kept them; still read, under the file above.
LEGACY_CONFIG_FILE_NAME = "memory-pool.json"

DEFAULT_URL = "http://127.0.0.1:3102"
DEFAULT_PREFETCH_TIMEOUT = 2.0
DEFAULT_SAVE_TIMEOUT = 5.0
# Newer Hermes builds give up on prefetch after 8 s; a longer wait would only hold older builds' turns.
PREFETCH_TIMEOUT_RANGE = (0.1, 8.0)
# The most characters memory-pool's /retrieve takes as `max_chars`.
MAX_CHARS_LIMIT = 100_000

# Environment variables win over the saved file so containers can configure without `hermes memory setup`.
ENV_VARS = {
    "url": "MEMORY_POOL_URL",
    "api_key": "MEMORY_POOL_API_KEY",
    "bot": "MEMORY_POOL_BOT",
    "prefetch_timeout": "MEMORY_POOL_PREFETCH_TIMEOUT",
    "save_timeout": "MEMORY_POOL_SAVE_TIMEOUT",
    "save_delegations": "MEMORY_POOL_SAVE_DELEGATIONS",
    "max_chars": "MEMORY_POOL_MAX_CHARS",
}
# Moves the settings file (e.g. onto a shared volume); then `backup_paths()` names it when it is outside $HERMES_HOME.
CONFIG_FILE_ENV_VAR = "MEMORY_POOL_CONFIG_FILE"


@dataclass(frozen=True)
class MemoryPoolConfig:
    """Resolved settings; built once per `initialize` and never mutated."""

    url: str = DEFAULT_URL
    api_key: str = ""
    bot: str = ""
    prefetch_timeout: float = DEFAULT_PREFETCH_TIMEOUT
    save_timeout: float = DEFAULT_SAVE_TIMEOUT
    # Off by default: a subagent's task and answer are the agent's work, not the user's conversation.
    save_delegations: bool = False
    # The most characters of the recalled block a turn's prompt receives (sent as /retrieve's `max_chars`);
    # None: the bot's own `retrieve.maxChars` on the service, unset there by default.
    max_chars: Optional[int] = None


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
        {
            "key": "save_delegations",
            "description": "also save each finished subagent task and its result, as a note from the agent",
            "default": False,
            "type": "boolean",
        },
        {
            "key": "max_chars",
            "description": "most characters of recalled memories per turn (whole memories); empty: the bot's default",
            "type": "number",
            "minimum": 1,
            "maximum": MAX_CHARS_LIMIT,
        },
    ]


def resolve_hermes_home(hermes_home: Optional[str] = None) -> Path:
    """The Hermes home given by the host, else `$HERMES_HOME`, else `~/.hermes`."""
    if hermes_home:
        return Path(hermes_home)
    env = os.environ.get("HERMES_HOME", "").strip()
    return Path(env) if env else Path.home() / ".hermes"


def config_file_path(hermes_home: Optional[str] = None, env: Optional[Mapping[str, str]] = None) -> Path:
    """The settings file: `$MEMORY_POOL_CONFIG_FILE` when set, else `$HERMES_HOME/memory-pool/config.json`."""
    environ = os.environ if env is None else env
    moved = environ.get(CONFIG_FILE_ENV_VAR, "").strip()
    if moved:
        return Path(moved).expanduser()
    return resolve_hermes_home(hermes_home) / CONFIG_DIR_NAME / CONFIG_FILE_NAME


def save_config(values: Mapping[str, Any], hermes_home: Optional[str]) -> Path:
    """Writes the non-secret values to the settings file, merged over what is there."""
    path = config_file_path(hermes_home)
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


def read_env_file(path: Path) -> Dict[str, str]:
    """`KEY=value` lines of a dotenv file (`export`, quotes and `#` comments allowed); {} when it is missing.

    Hermes keeps secrets in `$HERMES_HOME/.env` and loads it into its own process, but a dashboard or a
    status check may ask before that happened.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    values: Dict[str, str] = {}
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def load_config(hermes_home: Optional[str] = None, env: Optional[Mapping[str, str]] = None) -> MemoryPoolConfig:
    """Defaults, then the saved files (old, then current), then `$HERMES_HOME/.env`, then the environment.

    Empty strings count as unset everywhere.
    """
    environ = os.environ if env is None else env
    home = resolve_hermes_home(hermes_home)
    merged: Dict[str, Any] = dict(read_config_file(home / LEGACY_CONFIG_FILE_NAME))
    merged.update({k: v for k, v in read_config_file(config_file_path(hermes_home, environ)).items() if v not in (None, "")})
    dotenv = read_env_file(home / ".env")
    for key, var in ENV_VARS.items():
        value = (environ.get(var) or "").strip() or dotenv.get(var, "").strip()
        if value:
            merged[key] = value
    return MemoryPoolConfig(
        url=str(merged.get("url") or DEFAULT_URL).strip().rstrip("/"),
        api_key=str(merged.get("api_key") or ""),
        bot=str(merged.get("bot") or "").strip(),
        prefetch_timeout=_clamp(_read_seconds(merged.get("prefetch_timeout"), DEFAULT_PREFETCH_TIMEOUT), PREFETCH_TIMEOUT_RANGE),
        save_timeout=_read_seconds(merged.get("save_timeout"), DEFAULT_SAVE_TIMEOUT),
        save_delegations=_read_bool(merged.get("save_delegations")),
        max_chars=_read_max_chars(merged.get("max_chars")),
    )


def explain_unavailable(config: MemoryPoolConfig) -> str:
    """What to fix before the provider can work, or "" when the settings are complete (no network involved)."""
    if not config.bot:
        return "set MEMORY_POOL_BOT (or run `hermes memory setup`) to the bot key configured in memory-pool"
    if not config.url.startswith(("http://", "https://")):
        return f"MEMORY_POOL_URL must be an http:// or https:// URL (got {config.url!r})"
    return ""


def _read_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value or "").strip().lower() in ("1", "true", "yes", "on")


def _read_seconds(value: Any, default: float) -> float:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return default
    return seconds if seconds > 0 else default


def _read_max_chars(value: Any) -> Optional[int]:
    """A character budget: a whole number, at most what the service takes; empty, 0 or unreadable means none."""
    try:
        chars = int(float(value))
    except (TypeError, ValueError):
        return None
    return min(chars, MAX_CHARS_LIMIT) if chars > 0 else None


def _clamp(value: float, bounds: tuple) -> float:
    low, high = bounds
    return min(high, max(low, value))

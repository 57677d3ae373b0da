"""A stand-in for Hermes's `plugins.memory.config_schema` (the declarations a plugin's `config_schema.py` imports)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Optional, Tuple

KIND_TEXT, KIND_SELECT, KIND_SECRET, KIND_BOOL, KIND_NUMBER, KIND_JSON = "text", "select", "secret", "bool", "number", "json"
STORAGE_FLAT_JSON = "flat_json"


@dataclass(frozen=True)
class ProviderField:
    key: str
    label: str
    kind: str = KIND_TEXT
    default: str = ""
    description: str = ""
    placeholder: str = ""
    options: tuple = ()
    env_key: Optional[str] = None
    aliases: Tuple[str, ...] = ()
    env_fallbacks: Tuple[str, ...] = ()
    inline: bool = False
    group: str = ""
    info: str = ""
    scope: str = "host"
    when: Optional[Dict[str, str]] = None


@dataclass(frozen=True)
class ProviderConfigSchema:
    name: str
    label: str
    storage: str = STORAGE_FLAT_JSON
    docs_url: str = ""
    fields: Tuple[ProviderField, ...] = field(default_factory=tuple)

"""Which prompts carry nothing worth recalling for: Hermes's `is_trivial_prompt` when the host has it, else the same rule here.

Older hosts lack the function; the rule below follows its documented behavior: empty input, slash commands, and
a bare greeting or acknowledgement with nothing after it but whitespace and punctuation.
"""

from __future__ import annotations

import re
import string
from typing import Any, Callable, Optional

_TRIVIAL_WORDS = (
    "yes", "no", "ok", "okay", "sure", "thanks", "thank you", "y", "n", "yep", "nope", "yeah", "nah",
    "hi", "hey", "hello", "yo", "sup",
    "continue", "go ahead", "do it", "proceed", "got it", "cool", "nice", "great", "done", "next", "lgtm", "k",
)
# ASCII punctuation plus the typographic quotes, dashes, ellipsis and no-break space people type after "thanks".
_TRAILING = string.punctuation + "\u2018\u2019\u201c\u201d\u2014\u2013\u2026\u00a0"
_LOCAL_RULE = re.compile(
    "^(?:" + "|".join(re.escape(word) for word in _TRIVIAL_WORDS) + ")[\\s" + re.escape(_TRAILING) + "]*$",
    re.IGNORECASE,
)


def local_is_trivial_prompt(text: Optional[str]) -> bool:
    """True for "", "/compact", "thanks!", "ok." and the like; "k8s" or "note this" are not trivial."""
    if not text or not str(text).strip():
        return True
    stripped = str(text).strip()
    return stripped.startswith("/") or bool(_LOCAL_RULE.match(stripped))


def pick_trivial_rule(host: Any) -> Callable[[Optional[str]], bool]:
    """The host's `is_trivial_prompt` (one rule shared with Hermes's own prefetch gate), or the local copy."""
    host_rule = getattr(host, "is_trivial_prompt", None)
    return host_rule if callable(host_rule) else local_is_trivial_prompt

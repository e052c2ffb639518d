"""Token counting for prompt budgets.

No tokenizer is fetched at run time, so the default counter is a deliberately pessimistic estimate
of GPT/Claude-style BPE counts: it errs on the side of more tokens, so a rendered block that fits
our count fits the model's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

TokenCounter = Callable[[str], int]

_WORDS = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def estimate_tokens(text: str) -> int:
    """~4 ASCII characters or one non-ASCII character per token, and never fewer than 4/3 per word."""
    if not text:
        return 0
    non_ascii = sum(1 for ch in text if ord(ch) > 127) if not text.isascii() else 0
    by_chars = (len(text) - non_ascii) / 4 + non_ascii
    by_words = len(_WORDS.findall(text)) * 4 / 3
    return math.ceil(max(by_chars, by_words))


def truncate_to_tokens(text: str, budget: int, count: TokenCounter = estimate_tokens) -> str:
    """The longest prefix of ``text`` (cut at a word boundary where possible, plus "…") within budget."""
    if count(text) <= budget:
        return text
    if budget <= 1:
        return ""
    low, high = 0, len(text)
    while low < high:  # binary search on the prefix length: counts are monotone in the prefix
        mid = (low + high + 1) // 2
        if count(text[:mid].rstrip() + "…") <= budget:
            low = mid
        else:
            high = mid - 1
    prefix = text[:low]
    space = prefix.rfind(" ")
    if space > low * 0.8:
        prefix = prefix[:space]
    return prefix.rstrip() + "…" if prefix.strip() else ""

"""Optional LLM second opinion for memories the local classifier is unsure about.

Off unless ``category_llm`` is set and an OpenAI-compatible endpoint is configured (mnemo.llm).
Only low-confidence items are sent, many per request; any failure of the endpoint (down, slow,
an answer that is not the JSON asked for) keeps the local classification, so ingestion never
depends on the LLM.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from mnemo.records import CATEGORIES

#: Items whose local confidence is below this are asked about.
ASK_BELOW = 0.8
#: Memories per request, and the characters of each one that are sent.
PER_REQUEST = 40
MAX_CHARS = 400

SYSTEM = (
    "You sort memories of an AI assistant into exactly one category each: "
    "facts (objective facts about the user, the world or a system), "
    "preferences (likes, dislikes, style choices), "
    "skills (know-how: how to do something, procedures, commands), "
    "rules (instructions or constraints the assistant must follow), "
    "context (the current situation or work in progress). "
    'Answer only with a JSON object mapping each memory number to its category, e.g. {"1": "facts"}.'
)
_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


def ask(client: Any, texts: Sequence[str]) -> dict[int, str]:
    """Category per position for ``texts`` from the LLM; positions it did not answer are absent.

    Raises mnemo.llm.client.LLMError when the endpoint fails; a malformed answer gives {}.
    """
    answers: dict[int, str] = {}
    for start in range(0, len(texts), PER_REQUEST):
        chunk = texts[start : start + PER_REQUEST]
        listing = "\n".join(f"{i}. {' '.join(t.split())[:MAX_CHARS]}" for i, t in enumerate(chunk, start=1))
        reply = client.complete(
            [{"role": "system", "content": SYSTEM}, {"role": "user", "content": listing}],
            max_tokens=12 * len(chunk) + 20,
            temperature=0.0,
        )
        for number, category in _parse(reply).items():
            if 1 <= number <= len(chunk):
                answers[start + number - 1] = category
    return answers


def _parse(reply: str) -> dict[int, str]:
    found = _OBJECT.search(reply or "")
    if not found:
        return {}
    try:
        data = json.loads(found.group(0))
    except json.JSONDecodeError:
        return {}
    if not isinstance(data, dict):
        return {}
    parsed = {}
    for key, value in data.items():
        label = str(value).strip().lower()
        if str(key).strip().isdigit() and label in CATEGORIES:
            parsed[int(str(key).strip())] = label
    return parsed


def refine(client: Any, texts: Sequence[str], categories: list[str | None], confidences: Sequence[float]) -> int:
    """Replace, in place, the categories of unsure items with the LLM's; returns how many changed."""
    from mnemo.llm.client import LLMError

    unsure = [i for i, (c, p) in enumerate(zip(categories, confidences, strict=True)) if c and p < ASK_BELOW]
    if client is None or not unsure:
        return 0
    try:
        answers = ask(client, [texts[i] for i in unsure])
    except LLMError:
        return 0  # the local answer stands; the endpoint is optional by design
    changed = 0
    for position, category in answers.items():
        index = unsure[position]
        changed += categories[index] != category
        categories[index] = category
    return changed

"""Which of EN/ES/FR/DE/IT a turn is in, from frequent-word and character profiles (no dependency).

Each language scores one point per token found in its profile, plus a little for characters only
it uses (ñ, ß, ç, ...). The best language needs a point more than nothing and must beat the
runner-up; otherwise the answer is None ("unknown"), and unknown turns yield no facts.
"""

from __future__ import annotations

import re

from mnemo.extract.langs import LEXICONS
from mnemo.extract.lexicon import Lexicon

_TOKEN = re.compile(r"[^\W\d_]+", re.UNICODE)
_CHARS: dict[str, str] = {"es": "ñ¿¡áó", "de": "ßäöü", "fr": "çœêâîûëèà", "it": "òìù", "en": ""}
#: Enough words to decide; a long paste is judged on its beginning.
_SAMPLE_TOKENS = 200


def detect(text: str) -> str | None:
    tokens = [t.lower().replace("’", "'") for t in _TOKEN.findall(text[:4000])][:_SAMPLE_TOKENS]
    if not tokens:
        return None
    scores: dict[str, float] = {}
    for code, lexicon in LEXICONS.items():
        score = float(sum(1 for t in tokens if t in lexicon.profile))
        score += 0.5 * sum(1 for ch in text[:4000].lower() if ch in _CHARS[code]) ** 0.5
        scores[code] = score
    ranked = sorted(scores.items(), key=lambda pair: pair[1], reverse=True)
    (best, top), (_, second) = ranked[0], ranked[1]
    if top < 1:
        return None
    if top == second:  # a tie ("Possiedo una Vespa"): the language whose verbs the turn uses
        tied = [code for code, score in ranked if score == top]
        verbs = {code: sum(1 for t in tokens if _is_verb(t, LEXICONS[code])) for code in tied}
        best = max(verbs, key=lambda code: verbs[code])
        if list(verbs.values()).count(verbs[best]) > 1:
            return None
    # a turn of several words with fewer than two different profile words is some other language
    distinct = {t for t in tokens if t in LEXICONS[best].profile}
    if len(tokens) >= 5 and (len(distinct) < 2 or top < 0.15 * len(tokens)):
        return None
    return best


def _is_verb(token: str, lexicon: Lexicon) -> bool:
    return token in lexicon.copulas or token in lexicon.have or any(r.matches(token, token) for r in lexicon.verbs)

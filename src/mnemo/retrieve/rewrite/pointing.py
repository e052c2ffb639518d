"""The words that point back, in one place: the modules that ask whether a query answers its own
pointers (own_bare, own_clause, own_generic, own_time, own_situation) test a clause against them.
Each takes the lists whole or leaves out the words its own reading allows ("its" owned in its clause).
"""

from __future__ import annotations

import re

#: Personal pronouns and possessives that point at a thing or a person said elsewhere.
PERSONAL = ("it", "its", "they", "them", "their", "he", "she", "him", "her", "his")
#: Demonstratives and the pointing adverbs of time and place.
DEMONSTRATIVE = ("this", "that", "these", "those", "then", "there")


def pointer_words(*words: str) -> re.Pattern[str]:
    """A case-blind pattern that finds any of ``words`` as a whole word."""
    return re.compile(r"\b(?:" + "|".join(words) + r")\b", re.IGNORECASE)

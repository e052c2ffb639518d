"""Data files shipped with mnemo (the default synonyms list)."""

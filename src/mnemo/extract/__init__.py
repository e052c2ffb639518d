"""Fact extraction from conversation turns: intent, triples, coreference-lite, hedging, languages."""

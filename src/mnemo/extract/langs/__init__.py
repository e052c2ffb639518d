"""Word lists for the five languages; ``LEXICONS`` maps a language code to its Lexicon."""

from __future__ import annotations

from mnemo.extract.langs.de import DE
from mnemo.extract.langs.en import EN
from mnemo.extract.langs.es import ES
from mnemo.extract.langs.fr import FR
from mnemo.extract.langs.it import IT
from mnemo.extract.lexicon import Lexicon

LEXICONS: dict[str, Lexicon] = {lex.code: lex for lex in (EN, ES, FR, DE, IT)}

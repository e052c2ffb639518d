"""Italian word lists (no spaCy model: rules with the simplemma lemmatizer)."""

from __future__ import annotations

from mnemo.extract.lexicon import Lexicon, VerbRule, phrases, words

_NUMBERS = (
    "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici quindici "
    "sedici diciassette diciotto diciannove venti"
).split()

_A = "a ad al allo alla all' ai agli alle"
_IN = "in nel nello nella nell' nei negli nelle"
_DA = "da dal dallo dalla dall' dai dagli dalle"

IT = Lexicon(
    code="it",
    profile=words(
        "il lo la gli le e è di che un una mio mia non sono ho per con del della nel nella anche ma molto "
        "io mi chiamo abito vivo lavoro anni sei ci si al alla a grazie fantastico ahah dove posso come perché "
        "quando bene buon buona consigli ho tre sì già questo questa poi tutto forse adesso ora miei mie vivono "
        "lavora abita andata andato vive abita lavora chiama ha sono"
    ),
    first_person=words("io noi"),
    first_object=words("mi ci"),
    possessive=words("mio mia miei mie nostro nostra nostri nostre"),
    second_person=words("tu te ti voi"),
    he=words("lui"),
    she=words("lei"),
    they=words("loro"),
    it=words("questo quello ciò"),
    determiners=words(
        "il lo la l' i gli le un uno una un' mio mia miei mie tuo tua suo sua nostro nostra questo questa quel quella"
    ),
    function=words(
        f"{_A} {_IN} {_DA} di del dello della dei degli delle con su per tra fra presso come che e ed o ma "
        "perché se quando dove chi ora adesso ancora già anche molto qui lì oggi sono sei è siamo era "
        "ero stato stata ho hai ha abbiamo hanno avevo aveva non mai più io tu lui lei noi voi loro mi ti "
        "si ci vi"
    ),
    coordinators=words("e ed ma o oppure"),
    subordinators=words("perché poiché siccome"),
    skip_clause=words("se quando mentre prima dopo"),
    negations=words("non mai nessun nessuno nessuna né"),
    negation_phrases=phrases("non più|non ... più|una volta"),
    hedges=phrases(
        "forse|probabilmente|magari|penso che|credo che|suppongo che|mi sembra che|non sono sicuro|"
        "non sono sicura|pare che"
    ),
    irrealis=phrases(
        "prossimo|prossima|domani|presto|voglio|vorrei|andrò|vivrò|lavorerò|spero|penso di|potrei|dovrei|un giorno|"
        "ho intenzione"
    ),
    corrections=phrases("in realtà|anzi|scusa ,|volevo dire|intendevo|no ,|correzione"),
    change_markers=words("ora adesso attualmente"),
    question_words=words("che cosa cosa dove chi quando perché come quale quali quanto quanti"),
    question_openers=frozenset(),
    reactions=words(
        "ok okay grazie fantastico bello bene figo ahah haha sì si no certo perfetto davvero wow ah oh esatto "
        "vero ottimo"
    ),
    copulas=("essere", "sono", "è", "sei", "siamo", "sono", "ero", "era"),
    have=("avere", "ho", "hai", "ha", "abbiamo", "hanno", "avevo", "aveva"),
    verbs=(
        VerbRule("lives_in", ("viv*", "abit*", "risied*"), words(f"{_A} {_IN}")),
        VerbRule("works_at", ("lavor*",), words(f"{_A} {_IN} presso per da dal dalla")),
        VerbRule("is", ("lavor*",), words("come")),
        VerbRule("born_in", ("nato", "nata", "nati", "nacqui", "nascere"), words(f"{_A} {_IN}")),
        VerbRule("moved_from", ("trasferit*", "trasferisco", "trasferì", "venuto", "venuta"), words(_DA)),
        VerbRule("lives_in", ("trasferit*", "trasferisco", "trasferì"), words(f"{_A} {_IN}")),
        VerbRule(
            "went_to",
            (
                "andato",
                "andata",
                "andati",
                "andate",
                "vado",
                "va",
                "vanno",
                "vai",
                "andiamo",
                "viaggiat*",
                "stato",
                "stata",
            ),
            words(f"{_A} {_IN}"),
        ),
        VerbRule("went_to", ("studi*", "laureat*"), words(f"{_A} {_IN} presso")),
        VerbRule("went_to", ("visitat*", "visito", "visitare"), frozenset()),
        VerbRule("participated_in", ("partecipat*", "partecipo", "gareggiat*"), words(_A)),
        VerbRule("participated_in", ("corso", "completat*", "finito"), frozenset()),
        VerbRule("works_at", ("posto", "impiego", "tirocinio"), words("presso"), noun=True),
        VerbRule("has", ("adottato", "adottata", "adottare"), frozenset()),
        VerbRule("owns", ("possied*", "possed*"), frozenset()),
        VerbRule("name", ("chiam*",), frozenset()),
    ),
    numbers={w: n for n, w in enumerate(_NUMBERS)} | {"trenta": 30, "quaranta": 40, "cinquanta": 50, "sessanta": 60},
    year_words=words("anno anni"),
    age_markers=frozenset(),
    duration_preps=phrases("da|per|da ben"),
    duration_units=words("anno anni mese mesi settimana settimane giorno giorni"),
    time_phrases=phrases(
        "ieri|oggi|la settimana scorsa|il mese scorso|l' anno scorso|l' estate scorsa|l' inverno scorso|"
        "lo scorso weekend|di recente|recentemente"
    ),
    time_preps=words("nel a"),
    months=words("gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre"),
    name_nouns=words("nome"),
    called=("chiama", "chiamano", "chiamava"),
    favorite=words("preferito preferita preferiti preferite"),
    favorite_prefix="",
    topics={
        "colore": "color",
        "cibo": "food",
        "piatto": "food",
        "film": "movie",
        "libro": "book",
        "sport": "sport",
        "canzone": "song",
        "gruppo": "band",
        "animale": "animal",
        "bevanda": "drink",
        "città": "city",
        "squadra": "team",
    },
    friend_words=words("amico amica amici amiche"),
    friend_preps=words("di con"),
    family=words(
        "madre mamma padre papà genitori sorella fratello fratelli moglie marito compagno compagna figlio "
        "figlia figli fidanzato fidanzata nonna nonno zia zio cugino cugina capo collega vicino vicina "
        "cane gatto gatta"
    ),
    future_endings=("rò", "rà", "remo", "ranno"),
    fillers=words("nuovo nuova piccolo piccola vecchio vecchia bello bella bel"),
    profession_endings=("iere", "iera", "ista", "tore", "trice", "aio", "aia", "ere", "ologo", "ologa", "ico", "ica"),
    name_links=words("di del della"),
)

"""German word lists (no spaCy model: rules with the simplemma lemmatizer)."""

from __future__ import annotations

from mnemo.extract.lexicon import Lexicon, VerbRule, phrases, words

_NUMBERS = (
    "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn "
    "sechzehn siebzehn achtzehn neunzehn zwanzig"
).split()

DE = Lexicon(
    code="de",
    profile=words(
        "der die das und ist ich nicht ein eine mein meine mit bei von zu im in auf für es sie wir bin habe "
        "wohne arbeite auch aber sehr schon noch jahre jahren heiße seit dem den des danke ja nein genau kannst du "
        "mir dir wo wie warum wann gut nicht kein keine ich sich auch wurde noch nach jahr vielleicht soll was heute "
        "wie heißt heiße wohnt arbeitet lebt lebe hat habe mein meine"
    ),
    first_person=words("ich wir"),
    first_object=words("mich mir uns"),
    possessive=words("mein meine meinen meinem meiner meines unser unsere unseren unserem"),
    second_person=words("du dich dir euch"),
    he=words("er ihn ihm"),
    she=words("sie"),
    they=words("sie"),
    it=words("es das dies"),
    determiners=words(
        "der die das den dem des ein eine einen einem einer eines mein meine meinen meinem meiner sein seine "
        "ihr ihre dein deine unser unsere diese dieser dieses"
    ),
    function=words(
        "in im bei beim an am auf aus von vom zu zum zur nach mit für seit über unter vor hinter als wie "
        "und oder aber denn weil dass wenn ob wo wer was jetzt noch schon auch sehr hier dort heute "
        "bin bist ist sind war waren gewesen habe hast hat haben hatte hatten nicht kein keine nie "
        "ich du er sie es wir ihr mich mir uns sich um"
    ),
    coordinators=words("und aber oder sondern"),
    subordinators=words("weil denn da"),
    skip_clause=words("wenn falls bevor nachdem ob"),
    negations=words("nicht kein keine keinen keinem keiner nie niemals nein"),
    negation_phrases=phrases("nicht mehr|kein mehr|keine mehr|früher"),
    hedges=phrases(
        "vielleicht|wahrscheinlich|vermutlich|eventuell|ich glaube|ich denke|ich schätze|wohl|"
        "nicht sicher|ich bin mir nicht sicher|anscheinend"
    ),
    irrealis=phrases(
        "nächste|nächstes|nächsten|nächster|morgen|bald|ich will|ich möchte|ich werde|wir werden|ich würde|"
        "ich plane|ich hoffe|ich könnte|irgendwann"
    ),
    corrections=phrases("eigentlich|tatsächlich|korrektur|ich meinte|ich meine|nein ,|sorry ,|genauer gesagt"),
    change_markers=words("jetzt inzwischen mittlerweile"),
    question_words=words("was wo wer wann warum wie welche welcher welches wohin woher wieso"),
    question_openers=words("bist ist sind hast hat habt kannst kann wohnst arbeitest"),
    reactions=words(
        "ok okay danke super toll cool haha ja nein genau gut klar stimmt wow ach oh prima echt krass schön"
    ),
    copulas=("sein", "bin", "ist", "sind", "war", "waren", "bist"),
    have=("haben", "habe", "hab", "hat", "haben", "hatte", "hatten", "hast"),
    verbs=(
        VerbRule("lives_in", ("wohn*", "gewohnt", "leb*", "gelebt"), words("in im")),
        VerbRule("works_at", ("arbeit*", "gearbeitet", "angestellt", "beschäftigt"), words("bei beim für in im")),
        VerbRule("is", ("arbeit*",), words("als")),
        VerbRule("born_in", ("geboren",), words("in im")),
        VerbRule("moved_from", ("zog", "gezogen", "umgezogen", "ziehe", "gekommen", "kam"), words("aus von vom")),
        VerbRule("lives_in", ("zog", "gezogen", "umgezogen", "ziehe"), words("nach")),
        VerbRule(
            "went_to",
            ("ging", "gegangen", "fuhr", "gefahren", "flog", "geflogen", "reiste", "gereist", "war"),
            words("nach zum zur"),
        ),
        VerbRule("went_to", ("geh*", "ging*", "gegangen"), words("auf aufs zur zum")),
        VerbRule("went_to", ("studier*", "studiert"), words("an am in")),
        VerbRule("went_to", ("besuch*",), frozenset()),
        VerbRule("participated_in", ("teilgenommen", "nahm", "nehme"), words("an am")),
        VerbRule("participated_in", ("gelaufen", "lief"), words("beim")),
        VerbRule("works_at", ("job", "stelle", "praktikum"), words("bei beim"), noun=True),
        VerbRule("has", ("adoptiert",), frozenset()),
        VerbRule("owns", ("besitz*", "besaß"), frozenset()),
        VerbRule("name", ("heiß*", "heisse", "heisst", "genannt"), frozenset()),
    ),
    numbers={w: n for n, w in enumerate(_NUMBERS)}
    | {"ein": 1, "eine": 1, "einen": 1, "dreißig": 30, "vierzig": 40, "fünfzig": 50, "sechzig": 60},
    year_words=words("jahr jahre jahren"),
    age_markers=words("alt"),
    duration_preps=phrases("seit|für|lang"),
    duration_units=words("jahr jahre jahren monat monate monaten woche wochen tag tage tagen"),
    time_phrases=phrases(
        "gestern|heute|letzte woche|letzten monat|letztes jahr|letzten sommer|letzten winter|"
        "letztes wochenende|vor kurzem|kürzlich|vor zwei jahren"
    ),
    time_preps=words("im"),
    months=words("januar februar märz april mai juni juli august september oktober november dezember"),
    name_nouns=words("name vorname"),
    called=("heißt", "heisst", "hieß"),
    favorite=frozenset(),
    favorite_prefix="lieblings",
    topics={
        "farbe": "color",
        "essen": "food",
        "gericht": "food",
        "film": "movie",
        "buch": "book",
        "sport": "sport",
        "lied": "song",
        "band": "band",
        "tier": "animal",
        "getränk": "drink",
        "stadt": "city",
        "mannschaft": "team",
    },
    friend_words=words("freund freundin freunde"),
    friend_preps=words("mit"),
    family=words(
        "mutter mama vater papa eltern schwester bruder geschwister frau mann ehefrau ehemann partner "
        "partnerin sohn tochter kinder freund freundin oma opa großmutter großvater tante onkel cousin "
        "cousine chef chefin kollege kollegin nachbar nachbarin hund katze"
    ),
    fillers=words(
        "neu neue neuen neuer neues kleine kleinen kleiner kleines alte alten alter altes schöne schönen schöner"
    ),
    name_links=words("von der"),
)

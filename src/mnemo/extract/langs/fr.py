"""French word lists."""

from __future__ import annotations

from mnemo.extract.lexicon import Lexicon, VerbRule, phrases, words

_NUMBERS = (
    "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize "
    "dix-sept dix-huit dix-neuf vingt"
).split()

FR = Lexicon(
    code="fr",
    profile=words(
        "le la les et est je j' suis de des du un une mon ma mes que qui pas ne n' à au aux avec pour dans "
        "sur très mais nous vous il elle ai habite travaille chez ans j qu c n suis merci oui ouais d'accord accord "
        "tu connais où comment pourquoi quand bon bonne avoir être fait aussi ça cette en vivent sont appelle "
        "habite vit travaille appelle"
    ),
    first_person=words("je j' nous moi on"),
    first_object=words("me m'"),
    possessive=words("mon ma mes notre nos"),
    second_person=words("tu vous te t' toi"),
    he=words("il lui"),
    she=words("elle"),
    they=words("ils elles eux"),
    it=words("ça cela ce c'"),
    determiners=words("le la les l' un une des du de d' mon ma mes ton ta tes son sa ses notre nos ce cet cette ces"),
    function=words(
        "à au aux en dans de du des chez pour par avec sans sur sous vers depuis pendant comme que qu' et ou "
        "mais ni car si quand où qui dont maintenant toujours déjà aussi très ici là aujourd'hui encore "
        "est suis es sommes sont était été ai a as avons ont avais avait ne n' pas plus jamais je j' tu il "
        "elle nous vous ils elles me m' se s' y"
    ),
    coordinators=words("et mais ou"),
    subordinators=words("car parce puisque"),
    skip_clause=words("si quand lorsque avant après"),
    negations=words("ne n' pas jamais aucun aucune non personne rien"),
    negation_phrases=phrases("ne plus|n' plus|plus jamais|autrefois"),
    hedges=phrases(
        "peut-être|peut être|probablement|sans doute|je pense que|je crois que|il me semble que|"
        "je suppose que|pas sûr|pas sûre|je ne suis pas sûr|je ne suis pas sûre|apparemment"
    ),
    irrealis=phrases(
        "prochain|prochaine|demain|bientôt|je veux|je voudrais|j' aimerais|je vais|nous allons|on va|je compte|"
        "j' espère|je pourrais|"
        "je devrais|j' habiterai|je travaillerai|un jour"
    ),
    corrections=phrases("en fait|en réalité|pardon|je voulais dire|je veux dire|non ,|correction"),
    change_markers=words("maintenant désormais actuellement"),
    question_words=words("quoi où qui quand pourquoi comment quel quelle quels quelles combien qu' est-ce"),
    question_openers=frozenset(),
    reactions=words(
        "ok d'accord merci super génial cool mdr haha oui non ouais bien parfait top ah oh bon exactement "
        "vraiment incroyable sympa"
    ),
    copulas=("être", "suis", "est", "es", "sommes", "sont", "étais", "était", "c'"),
    have=("avoir", "ai", "as", "a", "avons", "ont", "avais", "avait", "j'ai"),
    verbs=(
        VerbRule("lives_in", ("habit*", "vis", "vit", "viv*", "vécu", "résid*"), words("à au aux en dans")),
        VerbRule("works_at", ("travail*", "bosse*"), words("chez à au pour dans en")),
        VerbRule("is", ("travail*",), words("comme")),
        VerbRule("born_in", ("né", "née", "nés", "naître", "naqui*"), words("à au en")),
        VerbRule("moved_from", ("déménag*", "venu", "venue", "partie", "parti"), words("de d' du des")),
        VerbRule("lives_in", ("déménag*", "install*", "emménag*"), words("à au aux en dans")),
        VerbRule("went_to", ("allé", "allée", "allés", "allées", "voyag*", "parti", "partie"), words("à au aux en")),
        VerbRule("went_to", ("étudi*",), words("à au en")),
        VerbRule("went_to", ("visit*", "fréquent*"), frozenset()),
        VerbRule("participated_in", ("particip*", "couru", "joué"), words("à au aux")),
        VerbRule("participated_in", ("couru", "termin*", "fini"), frozenset()),
        VerbRule("works_at", ("poste", "emploi", "stage", "boulot"), words("chez"), noun=True),
        VerbRule("has", ("adopté", "adoptée", "adopter"), frozenset()),
        VerbRule("owns", ("possèd*", "possed*"), frozenset()),
        VerbRule("name", ("appel*",), frozenset()),
    ),
    numbers={w: n for n, w in enumerate(_NUMBERS)}
    | {"une": 1, "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60},
    year_words=words("an ans année années"),
    age_markers=frozenset(),
    duration_preps=phrases("depuis|pendant|durant|il y a"),
    duration_units=words("an ans année années mois semaine semaines jour jours"),
    time_phrases=phrases(
        "hier|aujourd'hui|la semaine dernière|le mois dernier|l' année dernière|l' an dernier|"
        "l' été dernier|l' hiver dernier|le week-end dernier|récemment"
    ),
    time_preps=words("en"),
    months=words("janvier février mars avril mai juin juillet août septembre octobre novembre décembre"),
    name_nouns=words("nom prénom"),
    called=("appelle", "appelait", "appellent"),
    favorite=words("préféré préférée préférés préférées favori favorite"),
    favorite_prefix="",
    topics={
        "couleur": "color",
        "plat": "food",
        "nourriture": "food",
        "film": "movie",
        "livre": "book",
        "sport": "sport",
        "chanson": "song",
        "groupe": "band",
        "animal": "animal",
        "boisson": "drink",
        "ville": "city",
        "équipe": "team",
    },
    friend_words=words("ami amie amis amies copain copine pote"),
    friend_preps=words("avec de"),
    family=words(
        "mère maman père papa parents sœur soeur frère frères femme mari épouse époux partenaire fils fille "
        "enfants copain copine grand-mère grand-père tante oncle cousin cousine patron patronne collègue "
        "voisin voisine chien chienne chat chatte"
    ),
    future_endings=("rai", "ras", "rons", "ront"),
    fillers=words("nouveau nouvel nouvelle petit petite vieux vieille joli jolie beau belle"),
    profession_endings=("eur", "euse", "ien", "ienne", "iste", "ier", "ière", "ère", "ologue"),
    relatives=words("qui dont"),
    name_links=words("de du"),
)

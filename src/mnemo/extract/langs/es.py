"""Spanish word lists."""

from __future__ import annotations

from mnemo.extract.lexicon import Lexicon, VerbRule, phrases, words

_NUMBERS = (
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis "
    "diecisiete dieciocho diecinueve veinte"
).split()

ES = Lexicon(
    code="es",
    profile=words(
        "el la los las y es en de que un una mi yo no por para con muy pero tengo soy estoy vivo trabajo "
        "me llamo mis del al se lo como más también hace años qué está voy fui hoy mañana ayer tiene gracias genial "
        "jaja jajaja vale sí dónde puedo cómo cuándo quién esto eso tengo tiene hay bien pues nunca ya vive "
        "trabaja llama tengo"
    ),
    first_person=words("yo nosotros nosotras"),
    first_object=words("me nos"),
    possessive=words("mi mis nuestro nuestra nuestros nuestras"),
    second_person=words("tú tu usted vosotros ustedes te"),
    he=words("él"),
    she=words("ella"),
    they=words("ellos ellas"),
    it=words("eso esto ello"),
    determiners=words("el la los las un una unos unas mi mis su sus tu tus este esta ese esa lo nuestro nuestra"),
    function=words(
        "en a de del al con por para desde hasta sobre entre sin hacia durante como que y o pero ni "
        "porque aunque si cuando donde quien cual ahora ya todavía también muy aquí allí hoy "
        "es soy eres somos son era fue fui estoy está están he ha han había no nunca yo tú él ella "
        "nosotros ellos me te se nos le les lo todo toda todos todas cada"
    ),
    coordinators=words("y e o pero sino"),
    subordinators=words("porque pues aunque"),
    skip_clause=words("si cuando mientras antes después"),
    negations=words("no nunca jamás tampoco ningún ninguna ninguno ni"),
    negation_phrases=phrases("ya no|solía|solíamos|antes"),
    hedges=phrases(
        "quizás|quizá|tal vez|probablemente|posiblemente|creo que|supongo que|a lo mejor|me parece que|"
        "no estoy seguro|no estoy segura|igual"
    ),
    irrealis=phrases(
        "próximo|próxima|el año que viene|pronto|quiero|quisiera|me gustaría|voy a|vamos a|pienso|planeo|espero|"
        "ojalá|podría|debería|viviré|"
        "trabajaré|iré|algún día"
    ),
    corrections=phrases("en realidad|de hecho|perdón|corrijo|quería decir|quise decir|no ,|bueno ,"),
    change_markers=words("ahora actualmente"),
    question_words=words("qué que dónde donde quién quien cuándo cuando cómo como cuál cual cuánto cuántos por"),
    question_openers=frozenset(),
    reactions=words(
        "vale ok gracias genial jaja jajaja sí si no claro bueno perfecto guay vaya wow ah oh qué bien "
        "increíble exacto cierto"
    ),
    copulas=("ser", "soy", "es", "eres", "somos", "son", "era", "fui", "fue"),
    have=("tener", "tengo", "tiene", "tenemos", "tienen", "tenía", "tuve"),
    verbs=(
        VerbRule("lives_in", ("vivir", "viv*", "resid*", "habit*"), words("en")),
        VerbRule("works_at", ("trabaj*",), words("en para con")),
        VerbRule("is", ("trabaj*",), words("como de")),
        VerbRule("born_in", ("nac*", "nací", "naciste"), words("en")),
        VerbRule("moved_from", ("mud*", "traslad*"), words("de desde del")),
        VerbRule("lives_in", ("mud*", "traslad*"), words("a al")),
        VerbRule(
            "went_to",
            ("fui", "fue", "fuimos", "viaj*", "estuve", "estuvimos", "va", "van", "vas", "vamos", "voy"),
            words("a al"),
        ),
        VerbRule("went_to", ("estudi*", "gradu*"), words("en")),
        VerbRule("went_to", ("visit*",), frozenset()),
        VerbRule("participated_in", ("particip*", "compet*", "corr*", "jug*"), words("en")),
        VerbRule("participated_in", ("corrí", "complet*", "termin*"), frozenset()),
        VerbRule("works_at", ("empleo", "puesto"), words("en"), noun=True),
        VerbRule("has", ("adopté", "adoptamos", "adoptado"), frozenset()),
        VerbRule("owns", ("pose*", "poseo"), frozenset()),
        VerbRule("name", ("llam*",), frozenset()),
    ),
    numbers={w: n for n, w in enumerate(_NUMBERS)}
    | {"un": 1, "una": 1, "treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60},
    year_words=words("año años"),
    age_markers=frozenset(),
    duration_preps=phrases("desde hace|durante|hace|por|llevo|llevamos|lleva"),
    duration_units=words("año años mes meses semana semanas día días década décadas"),
    time_phrases=phrases(
        "ayer|hoy|anoche|la semana pasada|el mes pasado|el año pasado|el verano pasado|el invierno pasado|"
        "el fin de semana pasado|recientemente|hace dos años|hace un año"
    ),
    time_preps=words("en"),
    months=words("enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre"),
    name_nouns=words("nombre"),
    called=("llama", "llaman", "llamo", "llamaba"),
    favorite=words("favorito favorita preferido preferida favoritos favoritas"),
    favorite_prefix="",
    topics={
        "color": "color",
        "comida": "food",
        "plato": "food",
        "película": "movie",
        "libro": "book",
        "deporte": "sport",
        "canción": "song",
        "grupo": "band",
        "animal": "animal",
        "bebida": "drink",
        "ciudad": "city",
        "equipo": "team",
    },
    friend_words=words("amigo amiga amigos amigas"),
    friend_preps=words("de"),
    family=words(
        "madre mamá padre papá padres hermana hermano hermanos esposa esposo mujer marido pareja hijo hija "
        "hijos novio novia abuela abuelo tía tío primo prima jefe jefa compañero compañera vecino vecina "
        "perro perra gato gata"
    ),
    future_endings=("ré", "rás", "rá", "remos", "rán"),
    fillers=words("nuevo nueva pequeño pequeña viejo vieja bonito bonita precioso preciosa"),
    profession_endings=("ero", "era", "ista", "or", "ora", "ico", "ica", "ogo", "oga", "ario", "aria", "ante"),
    name_links=words("de del"),
)

"""Small word lists the resolver uses to tell people from things and guess grammatical gender.

Only a hint: a name not listed here is still a person when the context treats it as one
("Ask Priya", "Priya said"), and its gender is then taken from the pronouns the context uses.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from mnemo.retrieve.rewrite.lexicon import SOFTWARE, kinds_of

#: First names listed by hand; lower-case chats capitalise only these (a longer list would turn
#: ordinary lower-case words into names).
CURATED_MALE = frozenset(
    """adam alan alex alexander andrew anthony ben benjamin bill bob brian carlos charles chris
    christopher daniel dave david dennis diego donald ed edward eric frank gary george greg harry henry
    ian jack jacob james jason jeff jim joe john jon jonathan jose joseph josh juan kevin kyle larry
    leo liam lucas luis mark martin matt matthew max michael miguel mike nathan nick noah oliver omar
    patrick paul pedro peter raj ravi richard rob robert ryan sam samuel scott sean steve steven
    thomas tim tom tony victor walter will william
    aarav abdul ahmed ahmet aleksandr ali anders andrei anton arjun bjorn bogdan bongani chidi chinedu dario
    dimitri dmitri ekow emeka enrique erik farid felipe felix giorgi gustav gustavo hamid hassan hemi hiroshi
    ibrahim ivan jakub jonah joaquin jorge kaito kemal kenji kofi kwabena kwame lars lorenzo mateo mehmet
    mikey mohammed muhammad musa nikolai olumide oluwaseun oskar pablo piotr rahul rajesh ravi rohan sanjay
    segun sergei sipho sven takeshi tariq thabo tobi tomas vikram wei wiremu yusuf zoltan""".split()
)
CURATED_FEMALE = frozenset(
    """alice amanda amy ana angela anna anne ashley barbara beth betty carol caroline catherine chloe
    christine claire deborah diana donna elena elizabeth ella emily emma eva fatima grace hannah helen
    isabel jane janet jennifer jess jessica julia karen kate katie laura linda lisa lucy maria mary
    megan melanie mia michelle nancy natalie nina olivia patricia priya rachel rebecca rose ruth
    sandra sara sarah sofia sophia sophie susan tina yuki zoe
    abena aisha akosua amani amara amira anika annika aoife astrid ayesha beatriz bianca camila carmen chiara
    chioma daniela elif emilia fernanda folake freya gabriela greta hana hanna ifeoma ines ingrid isabela
    jasmine kemi keisha leila lena lucia luisa marta mariana marisol maya mei mireille nadia naomi ngozi
    nkechi noor nora olga paula priscila renata sakura sana siobhan sunita svetlana tamar thandiwe valentina
    wangari wiktoria ximena yara yasmin zainab zanele""".split()
)


def fold(word: str) -> str:
    """ "Tomás" -> "tomas", "Björn" -> "bjorn": accents do not change a name's gender."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))


def _read_names() -> tuple[dict[str, str], frozenset[str]]:
    """The given names of data/first_names.tsv (many cultures, by gender: m, f or u), folded, without
    those that are also ordinary words ("will", "may", "grace", and "vân" that folds to "van"), spelt
    like a month, two letters long or a software name; and every name the file lists."""
    path = Path(__file__).with_name("data") / "first_names.tsv"
    found: dict[str, str] = {}
    listed: set[str] = set()
    words: set[str] = set()  # ordinary words, whatever spelling brings them in
    plain: set[str] = set()  # folded names also listed as written without accents
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        name, gender, flag = [*line.split("\t"), "", ""][:3]
        key = fold(name)
        listed.add(key)
        if flag == "w":
            words.add(key)
        if flag == "w" or len(name) < 3 or gender not in ("m", "f", "u") or name in _CALENDAR_SHORT:
            continue
        if kinds_of(name) & SOFTWARE:
            continue  # "Cassandra", "Julia": in a chat about software, a product
        if name == key:  # "mira" (f) decides over the Hungarian "míra" (m) that folds the same
            found[key] = gender
            plain.add(key)
        elif key not in plain:  # two accented names folding alike, of different sexes: either
            found[key] = gender if found.get(key, gender) == gender else "u"
    return {name: gender for name, gender in found.items() if name not in words}, frozenset(listed)


#: Abbreviated months and days, which some given names are spelt like ("Mar", "Jun").
_CALENDAR_SHORT = frozenset(
    "jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur fri sat sun".split()
)


_LISTED, _ALL_NAMES = _read_names()
MALE = CURATED_MALE | {n for n, g in _LISTED.items() if g == "m"} - CURATED_FEMALE
FEMALE = CURATED_FEMALE | {n for n, g in _LISTED.items() if g == "f"} - CURATED_MALE
#: Given names used for either sex: a person, of no gender one can tell.
UNISEX = frozenset(n for n, g in _LISTED.items() if g == "u") - MALE - FEMALE
#: Every given name of the list, those that are ordinary words or places too ("Santiago") among them.
ANY_GIVEN_NAME = _ALL_NAMES | CURATED_MALE | CURATED_FEMALE
#: Names that are everyday words too: typed in lower case they are the word ("will", "grace").
WORDS_TOO_NAMES = frozenset(
    "will mark bill rose grace max frank pat may june april august dawn hope joy faith art sue jack sandy".split()
)
#: Every listed first name, of either sex or both.
FIRST_NAMES = MALE | FEMALE | UNISEX


#: Words for people that carry gender: "my wife" is a she, "the CTO" is not known.
FEMALE_NOUNS = frozenset(
    """wife mother mom mum sister daughter girlfriend aunt auntie grandmother grandma granny niece lady woman
    nan nana nanna gran stepmum stepmom stepmother stepsister stepdaughter fiancee fiancée godmother
    goddaughter sister-in-law mother-in-law daughter-in-law""".split()
) | frozenset("nonna abuela abuelita oma babcia yiayia bubbe bubby lola nani dadi ammamma".split())
MALE_NOUNS = frozenset(
    """husband father dad brother son boyfriend uncle grandfather grandpa granddad nephew guy man grandad
    gramps stepdad stepfather stepbrother stepson fiance fiancé godfather godson brother-in-law father-in-law
    son-in-law""".split()
) | frozenset("nonno abuelo abuelito opa dziadek papou zayde lolo nanu dada".split())
#: Grandparents in the languages families use for them ("my nonna's focaccia"); written with a
#: capital before a name they may also name a place ("Nonna Rosa's on Abbeville Road").
KIN_ABROAD = frozenset(
    "nonna abuela abuelita oma babcia yiayia bubbe bubby lola nani dadi ammamma nonno abuelo abuelito opa dziadek"
    " papou zayde lolo nanu dada".split()
)
PERSON_NOUNS = (
    frozenset(
        """manager boss colleague coworker friend teammate lead engineer developer designer doctor teacher
    mentor client customer partner cto ceo founder recruiter landlord neighbour neighbor roommate
    therapist lawyer intern cousin dentist vet nurse physio coach tutor student professor accountant
    contractor plumber electrician agent nanny mechanic builder surgeon gp optician pharmacist midwife
    receptionist technician installer cleaner courier physio dermatologist physiotherapist solicitor
    landlady caretaker babysitter flatmate housemate classmate tenant childminder mate pal buddy bestie
    carer housekeeper gardener handyman decorator roofer locksmith tiler joiner carpenter painter
    walker sitter minder instructor groomer hairdresser barber stylist chef nutritionist dietitian
    psychologist counsellor counselor paediatrician pediatrician orthodontist consultant adviser advisor
    coordinator secretary photographer videographer caterer florist officiant registrar celebrant dj
    inspector assessor adjuster surveyor broker estate-agent realtor barista waiter waitress bartender
    producer presenter journalist reporter author writer illustrator translator auditor investor vendor
    supplier landscaper paramedic cfo coo cio ciso cmo vp buyer vicar priest rabbi imam""".split()
    )
    | FEMALE_NOUNS
    | MALE_NOUNS
)
#: Words for a child that give no gender: "my toddler", "our baby", "my teenager".
CHILD_NOUNS = frozenset("toddler baby infant newborn teenager teen kid child grandchild stepchild preschooler".split())
#: Counting words: "Three options", "both tests" are never a name or a specific modifier.
QUANTIFIERS = frozenset(
    "two three four five six seven eight nine ten several many few some both each every all".split()
)
#: Capitalised words that open sentences or name days, never people or topics.
NOT_NAMES = (
    frozenset(
        """i i'm i've i'll i'd a an the this that these those what when where why how who which can could
    would should will shall do does did is are was were it its it's we you he she they my our your his
    her their yes no ok okay sure thanks thank hi hello hey please let lets let's also and but or so
    then there here if maybe just well oh also great good nice sounds sorry noted done looks perfect
    right exactly agreed cool got true fine monday tuesday wednesday
    thursday friday saturday sunday january february march april may june july august september october
    november december today tomorrow yesterday ask tell talk check remember note try use make see
    tonight already still went used next back twice everyone everybody someone somebody at in on by for
    from with into onto over under about after before since until during without within between among
    per via otherwise unfortunately fortunately however meanwhile basically actually honestly luckily
    hopefully apparently alternatively additionally generally usually typically ideally personally
    realistically technically obviously definitely absolutely certainly probably possibly maybe perhaps
    instead besides anyway anyways therefore thus hence overall again once
    utc gmt bst cet cest est edt pst pdt cst cdt""".split()
    )
    | QUANTIFIERS
)
#: Nouns too vague to stand in for "it" or "that".
VAGUE = frozenset(
    """thing things way lot bit time idea stuff something anything everything one kind sort part point
    question answer moment day week minute look chance sense reason case fact matter little while end""".split()
)
#: Words people use for a problem; "the bug" points at the latest of these in the context.
PROBLEM_WORDS = frozenset("issue problem error bug exception failure crash traceback outage regression leak".split())
PLACE_NOUNS = frozenset(
    """place restaurant cafe bar hotel office park beach city town village house venue museum gym
    school campus airport station shop store market studio lake mountain island country embassy consulate
    hospital clinic surgery stadium theatre theater cinema church pub bakery salon venue hostel
    campsite""".split()
)
#: Verbs that end a noun phrase ("the customer survey showed ..."): the phrase stops before them.
PHRASE_BREAKERS = frozenset(
    """want wants use uses run runs make makes take takes get gets go goes need needs like likes say
    says said is are was were has have had will would can could should drops throws fails met went got
    made took told found gave came saw ran wrote built sent left brought bought thought knew began lost won
    paid kept held felt meant sold spent broke chose drove fell forgot grew heard led rode sat slept spoke
    stood taught threw woke wore ends expires lapses renews finishes""".split()
)
PLURAL_GROUPS = frozenset("team folks people users customers developers engineers kids children parents group".split())
#: Collective nouns: "they" can be one of these ("the council", "Julien's band"), not only a plural.
COLLECTIVES = frozenset(
    """council company team band committee government bank firm agency club board school university airline
    startup family police ministry department org organisation organization vendor supplier landlord""".split()
)
#: Nouns after "that"/"the same" that point at a time the conversation named ("that day").
TIME_HEADS = frozenset("day date night morning evening afternoon weekend week month year time".split())
#: Particles of phrasal verbs: "turn that off", "set this up".
PARTICLES = frozenset("off up out down away back over".split())
#: Everyday verbs, for telling "that job" from "that happens".
COMMON_VERBS = frozenset(
    """happen work take make go get run break fail help mean cause change matter look come start stop
    support need cost show seem sound feel break crash""".split()
)

#: A duration ("20 minutes", "a few days"): after "for" it says how long, and names no part of a thing.
DURATION = (
    r"(?:\d+|a|an|one|two|three|four|five|six|ten|several|a\s+few|many)\s+(?:more\s+)?"
    r"(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|nights?)\b"
)


#: An amount or a clock time ("5mg", "3pm", "180", "20kg", "24.50", "1h20"): it measures a thing and
#: is never the thing "it" points at, nor a topic. Units are listed, so "2FA", "4K" and "1Password"
#: stay names.
QUANTITY = re.compile(
    r"[£$€]?\d[\d.,:]*\s*(?:mg|g|kg|lb|lbs|ml|l|km|m|cm|mm|mi|%|am|pm|h|hrs?|mins?|s|secs?|h\d{2}|°?[cf]|°)?"
    r"(?:k?/(?:month|mo|year|yr|week|day|hour|h|night))?",
    re.IGNORECASE,
)


def proper_name(text: str) -> bool:
    """A capitalised name that is neither an amount ("1h20") nor an acronym ("PR", "NDA"): what a
    title or a firm is named by."""
    return text[:1].isupper() and not QUANTITY.fullmatch(text) and not text.isupper()


#: The irregular past tenses of English (a closed class): like "-ed", they end a subject's phrase.
IRREGULAR_PAST = frozenset(
    """ate became began bent bought brought built caught chose came dealt drank drove fell felt fought found flew
    forgot froze gave got grew hid held hurt kept knew laid led left lent lost made meant met paid ran rode rang
    rose said sang sat saw sent shook shot shut slept sold spent spoke stood stole stuck swam swore taught tore
    told thought threw took understood woke won wore wrote""".split()
    # past tenses spelt like their present ("the GP put me on omeprazole"), those seldom a noun too
    + "put let quit".split()
)


#: Pets by kind, and the words a conversation uses for each ("a rescue greyhound called Pepper"
#: is the dog): "the dog" in a query means the pet the conversation named.
_DOGS = (
    "dog|dogs|puppy|pup|greyhound|beagle|labrador|retriever|spaniel|terrier|poodle|collie|dachshund|husky|pug"
    "|bulldog|whippet|lurcher|sheepdog|corgi|schnauzer"
)
_CATS = "cat|cats|kitten|kitty|tabby|moggy"
PETS = {
    "dog": _DOGS,
    "puppy": _DOGS,
    "pup": _DOGS,
    "cat": _CATS,
    "kitten": _CATS,
    "pet": f"{_DOGS}|{_CATS}|rabbit|hamster|parrot|tortoise",
}


def is_pet(noun: str) -> bool:
    return noun.lower() in PETS


#: The word classes detect.py and internal.py read a query by: auxiliary verbs ("is it done?",
#: "did she call?"), punctuation tokens and prepositions.
AUXILIARIES = frozenset("is was are were has had have will would can could should does did may might must".split())
PUNCTUATION = frozenset(".?!,;:")
PREPOSITIONS = frozenset("on in at for to with without from by into onto about over under before after through".split())
#: "I" and its contractions: capitalised, yet never a name.
FIRST_PERSON = frozenset({"I", "I'm", "I've", "I'll", "I'd"})


#: Words in "-ing" that are nouns after a determiner: "that setting", "this booking", "that wiring".
ING_NOUNS = frozenset(
    """setting settings building buildings meeting meetings booking bookings wedding ceiling heating wiring
    listing listings painting paintings warning warnings ending pudding clothing training parking housing
    funding timing pricing packaging frosting icing topping lining flooring fitting fittings bedding
    recording recordings drawing drawings offering earring earrings filling fillings mapping mappings
    string strings thing things spring evening morning""".split()
)


#: Verbs of going somewhere: "driving there" goes to the chat's place.
GOING_VERBS = frozenset(
    """go goes going went gone drive driving drove fly flying flew travel travelling traveling head heading walk
    walking move moving get getting come coming commute commuting cycle cycling""".split()
)


#: Adjectives that say what state something is kept or left in ("keep this alive", "leave that
#: open"): the demonstrative before them stands alone.
STATE_ADJECTIVES = frozenset(
    """alive open closed shut clean dry wet warm cold hot cool fresh safe quiet secret short simple tidy
    busy healthy private separate worth enough true normal legit okay ok fine possible necessary allowed""".split()
)

#: Verbs of having something done to an object: "get those valued", "had this checked".
HAVING_DONE = frozenset("get got getting have had having".split())

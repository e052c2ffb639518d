"""Medicines and body parts, for "take it" and "ice it": the verb says which kind of thing "it" is.

What one takes, or has a drink with, is a medicine or a supplement; what one ices, rests or strains
is a part of the body.

"should i take it with food", "can it be taken at night", "is it ok to take that every night" name
no thing, but the verb says which kind: among the things a health chat mentions (the stomach, the
blood sugar, a light alarm, magnesium), "it" is the one that is taken. A medicine is known by its
shape: the stems of generic drug names ("metformin", "sertraline", "ibuprofen"), a supplement's
mineral or vitamin, or a medicine noun ("tablets", "the antibiotics").
"""

from __future__ import annotations

import re

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.reference import Reference

from . import cached_re

#: "take it", "taking that", "took them", "swallow it"; not "take it back", "take it to the shop".
_TAKE_BEFORE = re.compile(r"\b(?:take|takes|taking|took|swallow|swallowing)\s+$", re.IGNORECASE)
_NOT_DOSING = re.compile(
    r"^\s+(?:back|out|off|apart|home|away|down|up|over|along|easy|in\s+(?:to|for)\b|into\b|with\s+me"
    r"|to\s+(?:the|a|an|my|your|their|his|her)\b)",
    re.IGNORECASE,
)
#: "can he have grapefruit juice with it", "can i drink alcohol while on it": what is had alongside.
_ALONGSIDE_BEFORE = re.compile(
    r"\b(?:have|having|drink|drinking|eat|eating|mix|mixing|combine|combining)\b[\w\s'-]{0,30}?\s(?:with|on)\s+$",
    re.IGNORECASE,
)
_YES_NO = re.compile(r"^\s*(?:can|could|should|is|are|do|does|will|would|may|am)\b", re.IGNORECASE)
#: "can it be taken at night", "should it be taken with food".
_TAKEN_AFTER = re.compile(
    r"^\s+(?:be|is|are|was|should\s+be|can\s+be|must\s+be)\s+taken\b(?!\s+(?:down|off|out|away|back|apart)\b)",
    re.IGNORECASE,
)

#: Stems of generic drug names that name one drug ("simvastatin", not "the statin").
_DRUG_STEMS = (
    "formin|statin|pril|sartan|olol|prazole|dipine|oxetine|traline|citalopram|profen|azepam|azolam"
    "|cillin|mycin|cycline|floxacin|triptan|tidine|gliptin|gabalin|pentin|thyroxine|olone"
)
DRUG_NAME = re.compile(
    rf"\b(?:[a-z]{{3,}}(?:{_DRUG_STEMS})|citalopram)\b"
    # supplements named in lower case: "3 to 5 g of creatine", "taking magnesium at night"
    r"|\b(?:creatine|collagen|glucosamine|melatonin|magnesium|ashwagandha|biotin|iron\s+tablets|vitamin\s+[a-d]\d*)\b",
    re.IGNORECASE,
)
#: Stems of generic drug names (the international non-proprietary name stems) and supplements.
_STEMS = re.compile(
    rf"(?:{_DRUG_STEMS}|amol|ximab|zumab|umab|vir|tropin|sone|tonin"
    r"|magnesium|calcium|potassium|zinc|iron|vitamin\s+\w+|omega-?3|melatonin|aspirin"
    r"|creatine|collagen|glucosamine|probiotics?|multivitamins?|biotin|ashwagandha|electrolytes"
    r"|codeine|morphine|insulin|steroids?|antibiotics?|antihistamines?|tablets?|pills?|capsules?|medicine"
    r"|medication|supplements?|drops|inhaler|gummies)\b",
    re.IGNORECASE,
)


#: "while im still on it", "can i come off it": one is on a course of a medicine.
_ON_COURSE_BEFORE = re.compile(
    r"\b(?:(?:still|while|i'?m|im|am|been)\s+(?:still\s+)?on"
    r"|(?:come|coming|came|get|getting|go|going)\s+off)\s+$",
    re.IGNORECASE,
)
#: The medicine a conversation puts someone on: "the doctor put me on amoxicillin", "i'm on sertraline".
_PUT_ON = re.compile(
    r"\b(?:put\s+(?:me|him|her|us|them)\s+on|started\s+(?:me\s+|him\s+|her\s+)?on|i'?m\s+on|im\s+on|been\s+on"
    r"|prescribed(?:\s+me|\s+him|\s+her)?|switched\s+(?:me\s+)?to)\s+([\w-]+(?:\s+[\w-]+)?)",
    re.IGNORECASE,
)


#: What a medicine does once taken: "kicks in", "wears off", "starts working".
TAKES_EFFECT = re.compile(r"\s+(?:kicks?\s+in|kicked\s+in|wears?\s+off|wore\s+off|starts?\s+working)\b", re.IGNORECASE)


def on_course_before(text: str) -> bool:
    """Whether the text ends as "still on", "come off": the next "it" is a course of medicine."""
    return bool(_ON_COURSE_BEFORE.search(text[-50:]))


def put_on(medicine: str, context_text: str) -> bool:
    """Whether the conversation puts someone on this medicine ("put me on amoxicillin")."""
    names = {w.lower() for w in _words(medicine)}
    return any(names & {w.lower() for w in m.group(1).split()} for m in _PUT_ON.finditer(context_text))


def taken(query: str, ref: Reference) -> bool:
    """Whether the query takes the reference as one takes a medicine."""
    before = query[max(0, ref.start - 50) : ref.start]
    after = query[ref.end : ref.end + 30]
    if on_course_before(before) or TAKES_EFFECT.match(after):
        return True  # "while im still on it", "how long before that kicks in"
    if _TAKE_BEFORE.search(before):
        return not _NOT_DOSING.match(after)
    # "can he have grapefruit juice with it" asks yes or no; "what wine should we have with it" pairs food
    alongside = _ALONGSIDE_BEFORE.search(before) and _YES_NO.match(query)
    return bool(_TAKEN_AFTER.match(after) or alongside)


def medicine_like(text: str) -> bool:
    """Whether a candidate's words name a medicine or a supplement."""
    return any((found := _STEMS.search(word)) and found.end() == len(word) for word in _words(text))


def _words(text: str) -> list[str]:
    # "vitamin d" is one name; the rest word by word
    joined = cached_re.sub(r"\bvitamin\s+(\w+)", r"vitamin_\1", text, flags=re.IGNORECASE)
    return [w.replace("_", " ") for w in cached_re.findall(r"[\w-]+", joined)]


def drug_names(text: str) -> list[tuple[int, Candidate]]:
    """The drugs a message names by their generic name, whatever the case ("put on simvastatin")."""
    return [
        (m.start(), Candidate(m.group(0), "thing", salience=1.0))
        for m in DRUG_NAME.finditer(text)
        if not _RULED_OUT.search(text[max(0, m.start() - 16) : m.start()])  # "something that isn't melatonin"
    ]


_RULED_OUT = re.compile(r"(?:isn'?t|is\s+not|not|other\s+than|instead\s+of)\s+$", re.IGNORECASE)


#: "ice it", "should i rest it", "strapping it up": what is done to an injured part of the body.
_TENDED_BEFORE = re.compile(
    r"\b(?:ice|icing|iced|rest|resting|strap|strapping|elevate|elevating|massage|massaging|bandage|bandaging"
    r"|stretch|stretching|splint|brace|bracing|x-ray|heat)\s+$",
    re.IGNORECASE,
)
_BODY_PARTS = frozenset(
    """knee knees ankle ankles wrist wrists elbow elbows shoulder shoulders hip hips back neck foot feet heel
    heels toe toes finger fingers thumb hand hands arm arms leg legs calf calves hamstring hamstrings
    quad quads shin shins groin achilles tendon ligament jaw rib ribs spine""".split()
)


def tended(query: str, ref: Reference) -> bool:
    """Whether the query does to the reference what one does to an injured part of the body."""
    return bool(_TENDED_BEFORE.search(query[max(0, ref.start - 14) : ref.start]))


def body_part(text: str) -> str:
    """The part of the body a candidate's words name ("knee" in "my left knee", "knee clicks"), or ""."""
    return next((w for w in cached_re.findall(r"[a-z]+", text.lower()) if w in _BODY_PARTS), "")


#: What a medicine has: "the next dose", "the dosage", "the side effects" are a named medicine's.
DOSE_REF = re.compile(
    r"\bthe\s+(?:next|first|last|second|evening|morning|night|usual|max(?:imum)?)?\s*(dose|doses|dosage|side\s+effects)\b"
    r"(?!\s+(?:of|for)\b)",
    re.IGNORECASE,
)


def dose_spans(query: str, context_text: str) -> list[tuple[int, int, str]]:
    """(start, end, noun) for each "the next dose" when the conversation names a medicine."""
    found = [(m.start(), m.end(), m.group(1).lower()) for m in DOSE_REF.finditer(query)]
    if not found:  # the query is read first: the conversation is long, the query short
        return []
    named = any(medicine_like(w) and not GENERIC_MEDICINE.fullmatch(w) for w in _words(context_text[-_WINDOW:]))
    if named and cached_re.search(
        rf"\b(?:{'|'.join(f[2] for f in found)})\s+of\s+(?!\w*(?:{_DRUG_STEMS}))", context_text
    ):
        return []  # "the dosage of fertiliser": the conversation already says whose dose it is
    return found if named else []


#: How much of the conversation is searched for a medicine's name: its end, where the talk is.
_WINDOW = 6000


#: Medicine nouns that name no medicine of their own: "tablets", "the medicine".
GENERIC_MEDICINE = re.compile(
    r"(?:tablets?|pills?|capsules?|medicines?|medications?|drugs?|supplements?|drops|inhaler|gummies|antibiotics?|steroids?)",
    re.IGNORECASE,
)

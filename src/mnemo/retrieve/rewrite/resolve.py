"""The rule resolver: replace each reference with the most salient fitting candidate.

No LLM. People resolve by number, gender and recency (speakers count: a role that is a name is a
person); things by recency and frequency; "that migration" by the candidate whose head noun is
"migration"; "there" by the latest place; "the bug" by the latest problem phrase; "that" alone
by the matter under discussion; "then" and "that day" by the anchor date and event (temporal.py);
a named role ("the plumber") by its name. Implicit pointers with no slot of their own (ellipsis,
"earlier", "the same") get the conversation's main topic attached (implicit.py).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from mnemo.retrieve.rewrite.absence import absence_period, is_absence
from mnemo.retrieve.rewrite.anchor import temporal_text
from mnemo.retrieve.rewrite.attach import attach_topic, has_own_topic
from mnemo.retrieve.rewrite.backref import BACKREF, recall
from mnemo.retrieve.rewrite.between import between_text
from mnemo.retrieve.rewrite.candidates import Candidate
from mnemo.retrieve.rewrite.choices import ordinal_choice
from mnemo.retrieve.rewrite.choose import choose, name_like, said_which
from mnemo.retrieve.rewrite.cohesion import cohesive, same_object
from mnemo.retrieve.rewrite.comparison import comparison_frame, comparison_span
from mnemo.retrieve.rewrite.contextual import from_context
from mnemo.retrieve.rewrite.datenouns import counted_span, date_span
from mnemo.retrieve.rewrite.dates import named_quarter
from mnemo.retrieve.rewrite.deeds import DO_THAT, event_text
from mnemo.retrieve.rewrite.described import Description, described_person, stated_descriptions
from mnemo.retrieve.rewrite.described import descriptions as person_descriptions
from mnemo.retrieve.rewrite.eventfit import topic_stems
from mnemo.retrieve.rewrite.fragments import substitute
from mnemo.retrieve.rewrite.grammar_fit import clause_mate, fitted
from mnemo.retrieve.rewrite.illness import illness_text
from mnemo.retrieve.rewrite.implicit import is_role
from mnemo.retrieve.rewrite.lists import ORDINAL_REF
from mnemo.retrieve.rewrite.locative import locative
from mnemo.retrieve.rewrite.names import FEMALE_NOUNS, MALE_NOUNS
from mnemo.retrieve.rewrite.picks import other_than_used
from mnemo.retrieve.rewrite.problems import problem_text
from mnemo.retrieve.rewrite.properties import NUMBER_REF
from mnemo.retrieve.rewrite.reference import Reference
from mnemo.retrieve.rewrite.resolution import Resolution
from mnemo.retrieve.rewrite.roles import name_roles
from mnemo.retrieve.rewrite.spelling import as_written
from mnemo.retrieve.rewrite.splice import spliced
from mnemo.retrieve.rewrite.swap import FOLLOW_UP, last_question, swapped
from mnemo.retrieve.rewrite.temporal import SEQUEL, event_in, find_anchor, without_preposition
from mnemo.retrieve.rewrite.their_time import their_time
from mnemo.retrieve.rewrite.tidy import without_determiner
from mnemo.retrieve.rewrite.timeclause import TIME_CLAUSE, appended_text, is_appended, wants_earliest
from mnemo.retrieve.rewrite.told_times import said_relative_text
from mnemo.store.sql import STOPWORDS

from . import cached_re

__all__ = ["Resolution", "resolve"]


def resolve(
    query: str,
    references: Sequence[Reference],
    candidates: Sequence[Candidate],
    context: Sequence[Mapping[str, str]] = (),
    centred: Sequence[Candidate] | None = None,
) -> tuple[str, list[Resolution]]:
    """The rewritten query and what each resolved reference became (unresolved ones are left as is).

    ``context`` (the messages) lets "that bug" find its specific mention, "the second one" its
    list and "then" its date or event. Temporal pointers go last, so their anchor can skip what the
    other references already became; a candidate used for one reference is not used for another
    ("what did she say about that": she and that are different things). ``centred`` (chains.py)
    ranks the candidates for personal pronouns, which continue the conversation's centre;
    demonstratives point at what is newly in focus and keep the plain ranking.
    """
    chosen: dict[int, Resolution] = {}
    used: set[str] = set()
    pending: list[Reference] = []
    same_person: dict[str, str] = {}  # "did she pay her share": one "she" and "her" are one person
    same_at: dict[str, int] = {}
    first_it: tuple[int, str, float] | None = None
    pointed: list[str] = []  # what "that push" became: its told time is the one that names it
    subjects: list[str] = []  # whom "he" and "she" became: their told time likewise
    people = cohesive(query, candidates, context)
    centred = candidates if centred is None else centred
    for index in sorted(range(len(references)), key=lambda i: references[i].kind == "temporal"):
        ref = references[index]
        if ref.kind == "demonstrative" and ref.noun:  # "that propsal": the conversation's "proposal"
            ref = replace(ref, noun=as_written(ref.noun, context))
        ranked = people if ref.kind == "person" else centred if ref.kind in _PRONOUN_KINDS else candidates
        if ref.kind == "thing":  # "add it" after "I'd add a cleanup step": the object of the same verb
            ranked = same_object(query, ranked, context)
        pool = _pool(query, ref, ranked, used)
        gender = _PRONOUN_GENDER.get(ref.text.lower()) if ref.kind == "person" else None
        if ref.kind == "thing" and first_it and _next_sentence(query, first_it[0], ref):
            # "I loved it. who played the butler in the film of it?": one "it" per thing talked about
            chosen[index] = Resolution(ref.text, fitted(query, ref, first_it[1]), ref.kind, first_it[2])
            continue
        if gender in same_person:
            other = choose(query, ref, pool, context) if clause_mate(query, ref, same_at[gender]) else None
            text = other[0] if other else same_person[gender]  # "is he taller than him": two people
            chosen[index] = Resolution(ref.text, fitted(query, ref, text), ref.kind, 0.8 if other is None else other[1])
            used.add(text.lower())
            continue
        timed = _told_time(ref, [*subjects, *pointed], context) if ref.anchored else None
        choice = (timed, 0.65) if timed else _choice(query, ref, pool, context, used)  # "that day": the GP's
        if choice is None:
            if ref.kind in ("temporal", "implicit", "ordinal") and not NUMBER_REF.fullmatch(ref.text):
                pending.append(ref)  # "the second phase" with no list: of the matter discussed
            continue
        text, confidence = choice
        if ref.kind == "implicit" and _names_its_own(query, ref, text):
            continue  # "the meeting went well. email Bauer GmbH thanking them for the kickoff call"
        used.add(text.lower())
        if ref.kind == "thing" and ref.text.lower() == "it" and not first_it:
            first_it = (ref.end, text, confidence)
        if gender:
            same_person[gender], same_at[gender] = text, ref.end
        if ref.text.lower() in ("he", "she", "him", "her"):  # not the "his" of "did she check his hip"
            subjects.append(text)
        if ref.kind == "demonstrative" and len(text.split()) >= 3:  # "that push": "the bad config push"
            pointed.append(without_determiner(text.split(" (")[0]))
        for described in _described_gender(query, ref, text):  # "ask the glaze guy if he sells ...": he is the guy
            same_person[described], same_at[described] = text.split(" (")[0].removeprefix(ref.text).strip(), ref.end
        chosen[index] = Resolution(ref.text, fitted(query, ref, text), ref.kind, confidence)
    order = sorted(chosen)
    rewritten = spliced(query, [(references[i].start, references[i].end, chosen[i].replacement) for i in order])
    return _unslotted(query, rewritten, [chosen[i] for i in order], pending, candidates, context)


def _told_time(ref: Reference, people: Collection[str], context: Sequence[Mapping[str, str]]) -> str | None:
    """A time pointer the chat said in the same words ("The week before, I'd received ..."), else the
    told time of the one person the query's pronoun became (their_time.py)."""
    return said_relative_text(ref.text, context) or their_time(ref.text, people, context)


def _next_sentence(query: str, earlier_end: int, ref: Reference) -> bool:
    """Whether an "it" opens a sentence after the one an earlier "it" was in."""
    return ref.text.lower() == "it" and bool(cached_re.search(r"[.?!]\s", query[earlier_end : ref.start]))


def _pool(query: str, ref: Reference, ranked: Sequence[Candidate], used: set[str]) -> list[Candidate]:
    """The candidates a reference may take: none another reference took, and for "it" and "they"
    none the query names itself ("what do they check in a UK MOT test": not the MOT)."""
    pool = [c for c in ranked if not _taken(c.text.lower(), used)]
    if ref.kind in ("thing", "plural"):
        pool = [c for c in pool if not _named_in_query(query, ref, c.text)]
    return pool


def _choice(
    query: str, ref: Reference, pool: Sequence[Candidate], context: Sequence[Mapping[str, str]], used: set[str]
) -> tuple[str, float] | None:
    """What one reference becomes and how sure, by its kind, or None."""
    if ref.kind == "event":  # "how long did that take": what someone did, not a thing
        return _event(query, ref, pool, context)
    if ref.kind == "implicit" and (ref.noun or "").startswith(
        ("meta:", "moment:", "occurrence:", "version:", "beginning:")
    ):
        return from_context(ref, context, query)  # "the first thing I asked": the turn, not an ordinal
    if ref.kind == "implicit" and ORDINAL_REF.match(ref.text) and (listed := ordinal_choice(ref, context, query)):
        return listed  # "the first guy" after "torn between Haaland and Isak": an ordinal over people
    if ref.kind in ("role", "implicit") and ref.noun and _describes_person(query, ref):
        described = _described(query, ref, pool, context)  # "the demo guy", "whoever handles repairs"
        if described or ref.kind == "role":
            return described
    if ref.anchored:
        return _temporal(query, ref, context, used)
    if ref.kind == "ordinal" and _OTHER_ONE.fullmatch(ref.text) and (other := other_than_used(context, used, query)):
        return other, 0.8  # "an offer for him and a no for the other one": not the one just named
    if ref.kind == "demonstrative" and ref.noun and (which := said_which(query, ref, pool, context)):
        return which  # "that machine my sister has": the named thing of the sentence its clause repeats
    problem = problem_text(query, ref.text, context) if ref.kind == "demonstrative" else None
    problem = illness_text(query, ref.text, context) or problem  # "is that contagious": the blight, not the plant
    choice = (problem, 0.7) if problem else from_context(ref, context, query) or choose(query, ref, pool, context)
    if choice is None and ref.kind == "place":
        choice = locative(context)  # "worked there" after "my job at the bank"
    return choice


#: Tags of references the conversation answers by a turn or a told happening, never by an ordinal.
_OF_THE_CHAT = ("meta:", "moment:", "occurrence:", "version:", "beginning:")
#: "the other one", "that other one": one of a pair, told apart from the one already named.
_OTHER_ONE = re.compile(r"(?:the|that)\s+other(?:\s+one)?", re.IGNORECASE)


def _event(
    query: str, ref: Reference, pool: Sequence[Candidate], context: Sequence[Mapping[str, str]]
) -> tuple[str, float] | None:
    """An event reference's deed (deeds.py); with none, "that" is read as a plain demonstrative
    (an ordering question has no plain reading)."""
    found = event_text(ref.text, query, context)
    verb, _, pronoun = ref.text.rpartition(" ") if DO_THAT.fullmatch(ref.text) else ("", "", ref.text)
    if found or pronoun.lower() not in ("that", "this", "it"):  # an ordering or a bare verb has no plain reading
        return (found, 0.7) if found else None
    plain = replace(ref, kind="demonstrative", text=pronoun, start=ref.end - len(pronoun))
    choice = from_context(plain, context, query) or choose(query, plain, pool, context)
    return (f"{verb} {choice[0]}".strip(), choice[1]) if choice else None  # "do that" with no action: do the thing


def _described_gender(query: str, ref: Reference, text: str) -> tuple[str, ...]:
    """The genders a later "he"/"she" of the query may share with a described person it follows:
    "the glaze guy" is a he, "the lady who did the scan" a she, "the tutor" either."""
    if ref.kind != "role" or not ref.noun:
        return ()
    found = _description_at(query, ref)
    head = (found.head if found and found.head != "whoever" else ref.noun).lower()
    words = set(ref.text.lower().split())  # "the guy who fixed it": its head is "whoever"
    if head in MALE_NOUNS or words & {"guy", "man", "bloke", "chap", "fella", "dude"}:
        return ("m",)
    if head in FEMALE_NOUNS or words & {"woman", "lady", "girl"}:
        return ("f",)
    return ("m", "f")


def _description_at(query: str, ref: Reference, context: Sequence[Mapping[str, str]] = ()) -> Description | None:
    """The person description whose span the reference is (with ``context``, also a title the
    conversation stated: "the code owner")."""
    described = person_descriptions(query) + (stated_descriptions(query, context) if context else ())
    return next((d for d in described if (d.start, d.end) == (ref.start, ref.end)), None)


def _describes_person(query: str, ref: Reference) -> bool:
    return ref.kind == "role" or is_role(ref.noun or "") or _description_at(query, ref) is not None


def _described(
    query: str, ref: Reference, pool: Sequence[Candidate], context: Sequence[Mapping[str, str]]
) -> tuple[str, float] | None:
    """The person a description points at, named beside it ("the demo guy Bram")."""
    found = _description_at(query, ref, context)
    # a name the cues read as a thing ("on call this week is Tendai") may be the person described
    places = {c.text for c in pool if c.kind == "place"}
    people = [c.text for c in pool if c.kind == "person" or (name_like(c) and c.text not in places)]
    name = described_person(found, people, context) if found else None
    if not name or name.lower() in query.lower():
        return None
    return (f"{name} ({ref.text})" if found and found.head == "whoever" else f"{ref.text} {name}"), 0.75


def _unslotted(
    query: str,
    rewritten: str,
    done: list[Resolution],
    pending: list[Reference],
    candidates: Sequence[Candidate],
    context: Sequence[Mapping[str, str]],
) -> tuple[str, list[Resolution]]:
    """What the references with no candidate of their own still get: a role's name, a dated
    event, the previous question's frame, the mention a back-reference names, or the topic."""
    rewritten, named = name_roles(rewritten, context)
    done = done + named
    if pending:
        rewritten, pending, dated = _dated_back(rewritten, pending, context)
        done.extend(dated)
    framed = comparison_frame(query, context) if pending and not done else None
    if framed is not None:  # "which is cheaper?": the pair just compared, not the topic
        return framed, [Resolution(pending[0].text, framed, "implicit", 0.7)]
    if pending and all(comparison_span(query) == (p.start, p.end) for p in pending):
        return rewritten, done  # a comparison with no pair to compare: the topic would not say which

    rebuilt = (substitute(query, context) or swapped(query, context)) if pending and not done else None
    if rebuilt is not None:  # "and to Florence?": the previous question with one argument swapped
        return rebuilt, [Resolution(query, rebuilt, "implicit", 0.7)]
    resolved_follow_up = swapped(rewritten, context) if done and not pending else None
    asked = last_question(context) or ""
    owners = [r.replacement.removesuffix("'s") for r in done]
    if resolved_follow_up is not None and any(o and o in asked for o in owners):
        # "and his sister?" -> "what size shoes is Theo's sister in now?": Theo is the name asked about
        return resolved_follow_up, [*done, Resolution(query, resolved_follow_up, "implicit", 0.7)]
    pending = [p for p in pending if p.noun != FOLLOW_UP]  # an unswappable follow-up takes no topic
    recalled = recall(rewritten, context) if pending else None
    if recalled is not None:  # "the croquetas place you mentioned earlier": its own words say which
        return recalled[0], [*done, recalled[1]]
    # an unnamed "X you mentioned" has its own topic: the conversation's is no better
    pending = [p for p in pending if not (p.kind == "implicit" and BACKREF.match(query, p.start))]
    if pending:
        rewritten, extra = attach_topic(rewritten, pending, candidates, done, context)
        done.extend(extra)
    return rewritten, done


def _named_in_query(query: str, ref: Reference, text: str) -> bool:
    """Whether the query names ``text`` itself outside the reference: a pronoun meaning it would
    point inside the query, which needs no rewrite."""
    bare = without_determiner(text).lower()
    rest = f" {query[: ref.start]} {query[ref.end :]} ".lower()
    return len(bare) > 1 and f" {bare} " in cached_re.sub(r"[^\w'-]+", " ", rest)


def _names_its_own(query: str, ref: Reference, text: str) -> bool:
    """Whether every name a definite description's resolution adds is one the query names itself,
    elsewhere: the query says which meeting, and the description needs nothing of the chat."""
    added = text.removeprefix(ref.text)
    names = set(cached_re.findall(r"\b[A-Z][\w&-]+", added))
    rest = f"{query[: ref.start]} {query[ref.end :]}"
    return (
        bool(names)
        and len(added.split()) > len(names)
        and all(cached_re.search(rf"\b{re.escape(name)}\b", rest) for name in names)
    )


def _taken(text: str, used: set[str]) -> bool:
    """Whether a candidate is, or names, a referent another reference already took ("my neighbour
    Mrs Abernathy" after "her" became "Mrs Abernathy"): one entity, one reference."""
    return text in used or any(len(u) > 3 and cached_re.search(rf"\b{re.escape(u)}\b", text) for u in used)


def _temporal(
    query: str, ref: Reference, context: Sequence[Mapping[str, str]], used: set[str]
) -> tuple[str, float] | None:
    """ "then" -> "during the Lisbon offsite on March 3rd"; parts the query already has are left out."""
    if ref.text.lower().split() == ["in", "between"]:  # two times, not one: "between the gig and the tour"
        spanned = between_text(context)
        return (spanned, 0.7) if spanned else None
    if is_absence(ref.text):  # "while we're away" -> "while we're away (from the 5th to the 15th)"
        period = absence_period(context)
        return (f"{ref.text} ({period})", 0.7) if period else None
    counted = counted_span(ref.text, context)
    if counted:  # "all those days" after "invoiced 12 days for march": the 12 days counted
        return counted, 0.7
    spanned = date_span(context) if _THOSE_DATES.fullmatch(ref.text) else None
    if spanned:  # "the forecast for those days" after "from 25 to 29 June"
        return f"{ref.text} ({spanned})", 0.7
    unit = cached_re.search(
        r"\b(day|night|morning|evening|afternoon|weekend|week|month|year|summer|winter|spring|autumn)s?\b",
        ref.text,
        re.IGNORECASE,
    )
    if unit is None and cached_re.search(r"\bquarters?\b", ref.text, re.IGNORECASE):
        quarter = named_quarter(context)  # "what happened that quarter" after "missed the Q2 target"
        if quarter is None:
            return None
        governed = cached_re.search(r"\b(?:in|during|for|by|over|throughout)\s*$", query[: ref.start], re.IGNORECASE)
        return (quarter if governed else f"in {quarter}"), 0.7
    anchor = find_anchor(
        context,
        wants_date=unit is not None,
        unit=unit.group(1) if unit else "",
        topic=topic_stems(query),
        earliest=wants_earliest(ref.text),
        sequel=bool(SEQUEL.search(ref.text)),
    )
    if anchor is None:
        return None
    rest = query[: ref.start] + " " + query[ref.end :]  # "the day before" names no day of its own
    said = {w for w in cached_re.findall(r"\w+", rest.lower()) if w not in STOPWORDS} | {
        w for text in used for w in cached_re.findall(r"\w+", text) if w not in STOPWORDS
    }
    if anchor.event and _event_head(anchor.event) in said:
        anchor = replace(anchor, event=None)  # the query names the event; a shared modifier is not enough
    if anchor.time and without_preposition(anchor.time).lower() in query.lower():
        anchor = replace(anchor, time=None)
    if not anchor.time and not anchor.event and not anchor.place:
        return None  # "back then" after "at uni in Glasgow": the place is the time
    if TIME_CLAUSE.fullmatch(ref.text.lower()) and not anchor.time:
        return None  # a clause names its own event; only a date the conversation gave adds to it
    if ref.appended or is_appended(ref.text):  # "a week before we go live (the product launch on 3 October)"
        return appended_text(ref.text, anchor.bare()), anchor.confidence
    text = temporal_text(ref.text, anchor)
    if cached_re.search(
        r"\b(?:around|about|during|at|in|on|from|until|till|by|since)\s*$", query[: ref.start], re.IGNORECASE
    ):
        text = cached_re.sub(r"^(?:in|on|at|during)\s+", "", text)  # "around that period": one preposition, not two
    elif cached_re.search(r"\bfor\s*$", query[: ref.start], re.IGNORECASE):
        text = cached_re.sub(r"^(?:for|during|in|on|at)\s+", "", text)  # "a car for that week": one preposition
    return text, anchor.confidence


_THOSE_DATES = re.compile(r"(?:for\s+|during\s+|on\s+)?(?:those|these)\s+(?:days|nights|dates)", re.IGNORECASE)


def _dated_back(
    query: str, pending: list[Reference], context: Sequence[Mapping[str, str]]
) -> tuple[str, list[Reference], list[Resolution]]:
    """ "the slow query logs from earlier": a query with a topic of its own that points back in
    time points at the conversation's dated event ("earlier, during the cpu spike around 9am").
    Only an anchor with both a time and an event is trusted: a bare "earlier" may mean today."""
    same_day = _same_day(query, pending, context)
    if same_day is not None:  # "the fix we found yesterday" after "yesterday we spent hours debugging ..."
        return same_day
    backs = [p for p in pending if p.text.lower() in _BACK_IN_TIME]
    if len(backs) != 1 or not has_own_topic(query) or backs[0].text.lower() not in query.lower():
        return query, pending, []
    back = backs[0]
    anchor = find_anchor(context, wants_date=False)
    if anchor is None or not anchor.time or not anchor.event or _said(anchor.event, query):
        return query, pending, []
    at = query.lower().find(back.text.lower())
    replacement = f"{back.text} {anchor.phrase()}"
    rewritten = query[:at] + replacement + query[at + len(back.text) :]
    return rewritten, [p for p in pending if p is not back], [Resolution(back.text, replacement, "temporal", 0.6)]


_BACK_IN_TIME = frozenset({"earlier", "previously"})
#: Pointers the chat may have used for the same day: the query's "yesterday" is the chat's.
_SAME_DAY = frozenset({"yesterday", "last night", "this morning", "last week", "last weekend", "last time"})


def _same_day(
    query: str, pending: list[Reference], context: Sequence[Mapping[str, str]]
) -> tuple[str, list[Reference], list[Resolution]] | None:
    """A "yesterday" the conversation also said: the deed it dated is what the query asks about."""
    backs = [p for p in pending if p.text.lower() in _SAME_DAY]
    if len(backs) != 1:
        return None
    back = backs[0]
    word = cached_re.compile(rf"\b{re.escape(back.text.lower())}\b", re.IGNORECASE)
    at = word.search(query)  # the query may already be rewritten: the reference's own offsets are stale
    if at is None:
        return None
    for message in reversed(list(context)):
        text = str(message.get("content") or "")
        if not word.search(text):
            continue
        # the sentence that says it dates the deed ("Need a haircut Saturday. Last time I went to the
        # walk-in place ..."), else the message as a whole
        said = next((s for s in cached_re.split(r"(?<=[.!?])\s+|\n", text) if word.search(s)), text)
        event = _dated_clause(said, word) or event_in(said)[0] or event_in(text)[0]
        if not event or _said(event, query):
            return None
        replacement = f"{back.text} ({event})"
        rewritten = query[: at.start()] + replacement + query[at.end() :]
        return rewritten, [p for p in pending if p is not back], [Resolution(back.text, replacement, "temporal", 0.6)]
    return None


#: Where a dated clause ends: "Last time restoring the orders database took 6 hours, while ...".
_CLAUSE_END = re.compile(r",\s+(?:while|but|whereas|though|and\s+this\s+time)\b|;|\s+-\s+|\.\s*$")
_DATED_MAX_WORDS = 14


def _dated_clause(sentence: str, word: re.Pattern[str]) -> str | None:
    """ "we rotated the TLS certs on the ingress, the payment webhook broke for an hour" of "Last time
    we rotated ...": what a sentence opening on the time word says happened then, up to where its
    clause ends; None when the time word does not open the sentence."""
    opening = word.match(sentence.strip())
    if opening is None or sentence.strip()[opening.end() :].startswith(("'", "’")):
        return None  # "Yesterday's deploy added ...": a possessor, not the time of the sentence
    rest = sentence.strip()[opening.end() :].lstrip(" ,")
    rest = _CLAUSE_END.split(rest, maxsplit=1)[0].strip().rstrip(".!?")
    words = rest.split()
    if len(words) < 3:
        return None
    return " ".join(words[:_DATED_MAX_WORDS])


def _event_head(event: str) -> str:
    """ "the new blood pressure meds" -> "meds", "when I lived in Montréal" -> "lived": the word
    that says which event it is (the last one before an attachment)."""
    words = cached_re.split(r"\s+(?:for|of|from|with|in|at|on|to)\s+", event.lower(), maxsplit=1)[0].split()
    if words and words[0] in ("when", "while"):
        verbs = [w for w in words if w.endswith("ed") or w in STOPWORDS]
        return verbs[0] if verbs else words[-1]
    return words[-1].strip(".,'s") if words else ""


def _said(event: str, query: str) -> bool:
    words = {w for w in cached_re.findall(r"\w+", event.lower()) if w not in STOPWORDS}
    return bool(words) and words <= set(cached_re.findall(r"\w+", query.lower()))


_PRONOUN_KINDS = frozenset({"person", "plural", "thing"})
#: Words of "the cheaper one" that say nothing about which priced things: "the cheaper car quote" says "car".
_PRONOUN_GENDER = {p: "m" for p in ("he", "him", "his", "himself")} | {
    p: "f" for p in ("she", "her", "hers", "herself")
}

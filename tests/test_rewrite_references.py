"""Query rewriting, the reference kinds added after the first resolver: temporal pointers, implicit
(elliptical) references, mixed queries, expletive "it", and definite descriptions (see test_rewrite.py
for detection basics, the LLM path and bad input)."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter, detect
from tests.test_rewrite import expand, kinds, said

pytestmark = pytest.mark.core

# --- temporal pointers: a date or an event the conversation fixed ---------------------------------


@pytest.mark.parametrize(
    ("query", "pointer"),
    [
        ("what did i eat then?", "then"),
        ("Who was on call at that time?", "at that time"),
        ("Who disagreed at the time?", "at the time"),
        ("What did I eat the day before?", "the day before"),
        ("how much was the rent when that happened?", "when that happened"),
        ("what did farid say after that?", "after that"),
        ("where did i stay earlier that week?", "earlier that week"),
        ("what did i use in the meantime?", "in the meantime"),
        ("Who is around that weekend?", "that weekend"),
    ],
)
def test_temporal_pointers_are_detected_as_one_span(query: str, pointer: str) -> None:
    assert kinds(query) == {pointer: "temporal"}


@pytest.mark.parametrize(
    "query",
    [
        "Then the latter sounds better, where do I start?",  # a discourse "then" opens the query
        "What did I eat the day before the launch?",  # the relation names its own anchor
        "What did we decide this week about pricing?",  # deictic, not anaphoric
        "and then what happens to the cache?",
    ],
)
def test_temporal_words_that_point_at_nothing_are_not_temporal_pointers(query: str) -> None:
    assert "temporal" not in kinds(query).values()


def test_a_temporal_pointer_takes_the_date_and_the_event_of_the_anchor_message() -> None:
    context = said("the lisbon offsite was on march 3rd", "the one with the roadmap session?", "yes, kenji presented")
    assert "march 3rd" in expand("what else did we discuss that day?", context).lower()
    wedding = said("at the wedding my uncle gave a long speech", "how long?", "forty minutes")
    assert "wedding" in expand("what did i eat then?", wedding)
    during = said("we launched the beta during the berlin hackathon", "signups?", "about 300 on the first day")
    assert "hackathon" in expand("what bugs have we found since then?", during)


def test_a_relation_keeps_its_words_and_takes_the_anchor_as_object() -> None:
    context = said("I saw the dermatologist on Tuesday", "What did she think?", "She wants a biopsy")
    rewritten = expand("What did I eat the day before?", context)
    assert rewritten.startswith("What did I eat the day before Tuesday") and rewritten.endswith("?")
    demo = said("the product demo to the board went badly on monday", "what went wrong?", "the staging db was down")
    assert "demo" in expand("what did farid say after that?", demo)


def test_a_past_event_and_the_named_unit_outrank_a_later_plan() -> None:
    race = said("I ran the Stockholm half marathon in 1:52", "Nice time!", "My goal for next year is under 1:45")
    assert "marathon" in expand("What did I eat the night before?", race)
    weekend = said("The migration is scheduled for the weekend of 9 November", "Freeze?", "Yes, from Friday evening")
    assert "9 November" in expand("Who is around that weekend?", weekend)


def test_a_temporal_pointer_with_no_date_or_event_in_the_context_is_left_alone() -> None:
    result = QueryRewriter().rewrite("what did i eat then?", said("hello", "hi, how can I help?"))
    assert result.expanded == "what did i eat then?" and not result.was_rewritten


# --- implicit references: elliptical follow-ups lean on the conversation's topic ---------------------


@pytest.mark.parametrize(
    "query",
    ["what about the price?", "and the deadline?", "Any update?", "what was the result?", "why not?",
     "What did the doctor say?", "how much flour?", "how long is the recovery?"],
)  # fmt: skip
def test_elliptical_follow_ups_are_implicit_references(query: str) -> None:
    assert list(kinds(query).values()) == ["implicit"]


@pytest.mark.parametrize(
    "query",
    [
        "What is the capital of Australia?",  # names its subject
        "what is the price of the Kindle?",  # the relational noun has its complement
        "how was your day?",  # a possessive anchors it to the speaker
        "what is recursion?",  # a definition question
        "any ideas for a birthday gift?",  # an opener, but enough content of its own
        "How many hours did I sleep last night?",
    ],
)
def test_queries_that_say_enough_are_not_elliptical(query: str) -> None:
    assert detect(query, "the standup moved to 10am") == []


def test_the_topic_of_the_opening_message_beats_a_later_distractor() -> None:
    camera = said("i'm thinking about buying the fujifilm x-t5", "which lens?", "probably the 18-55 kit lens")
    assert expand("what about the price?", camera) == "what about the price of the fujifilm x-t5?"
    doctor = said("I finally saw a doctor about my back pain", "Did they examine you?", "Yes, and ordered an x-ray")
    assert "back pain" in expand("What did the doctor say?", doctor)
    raise_ = said("I asked my manager for a raise", "How did she respond?", "She said not this quarter")
    assert "raise" in expand("why not?", raise_)


def test_an_elliptical_query_without_a_topic_in_the_context_is_left_alone() -> None:
    result = QueryRewriter().rewrite("what about the price?", said("hi", "hello"))
    assert not result.was_rewritten and result.references == ("what about",)


# --- mixed references, expletive "it", plural and "such" pointers, pronoun chains -------------------


def test_every_reference_of_a_mixed_query_is_resolved_and_none_reuses_a_referent() -> None:
    context = said("Ingrid presented the migration plan at the Tuesday sync", "How was it received?", "Mixed")
    result = QueryRewriter().rewrite("What did she say about that then?", context)
    assert result.expanded == "What did Ingrid say about the migration plan on Tuesday?"
    assert [r.kind for r in result.resolved] == ["person", "demonstrative", "temporal"]


@pytest.mark.parametrize(
    "query",
    [
        "Is it possible to make risotto in advance?",
        "it's raining, what indoor activities are there?",
        "it looks like the Northern line is suspended, how else can I get to Bank?",
        "how hard is it for a student to get a visa?",
        "is it going to rain tomorrow?",
        "what time is it in Tokyo?",
        "Is it worth learning Haskell?",
    ],
)
def test_expletive_it_points_at_nothing(query: str) -> None:
    assert "it" not in kinds(query)
    context = said("Chen moved the standup to 10am", "noted")
    assert QueryRewriter().rewrite(query, context).expanded == query


def test_referential_it_in_a_similar_frame_still_resolves() -> None:
    assert kinds("Why is it so slow to restore?") == {"it": "thing"}


def test_these_and_those_take_a_plural_noun_even_without_a_determiner() -> None:
    photos = said("found a box of old photos of grandma's farm", "Want to digitise them?", "yeah, about 200")
    assert "photos" in expand("where can i get these scanned cheaply", photos)
    assert kinds("plant those outside") == {"those": "demonstrative"}
    assert kinds("can i claim that on the insurance") == {"that": "demonstrative"}


def test_such_points_at_the_kind_the_conversation_described() -> None:
    refs = detect("how do i request such a refund")
    assert [(r.text, r.kind, r.noun) for r in refs] == [("such a refund", "demonstrative", "refund")]
    assert detect("fruits such as apples") == []


def test_a_pronoun_in_a_later_message_gives_the_person_named_before_it_a_gender() -> None:
    context = said(
        "Carlos and I reviewed the vendor contracts",
        "Which vendors?",
        "Mireille from procurement joined halfway through",
        "Did she have a view?",
        "she wants to renegotiate first",
    )
    assert "Mireille" in expand("send her the comparison sheet", context)


def test_class_nouns_take_the_latest_name_of_their_class() -> None:
    context = said("met a guy called Ekow at the rust meetup", "Did you get his contact?", "linkedin yeah")
    assert "Ekow" in expand("what was that guy's company called", context)


def test_stop_words_only_and_pronoun_only_queries_without_context_are_unchanged() -> None:
    for query in ("and the", "of the", "it", "then?"):
        result = QueryRewriter().rewrite(query, [])
        assert not result.was_rewritten and result.expanded == query and result.reason


def test_pronouns_of_one_gender_in_one_query_share_their_referent() -> None:
    context = said("Björn and Amani are splitting the cabin", "How much?", "Amani's partner Felix is coming too")
    result = QueryRewriter().rewrite("did she pay her share yet", context)
    assert result.expanded == "did Amani pay Amani's share yet"


def test_a_role_takes_the_name_the_conversation_gave_it() -> None:
    context = said("the shower is leaking, called Gareth the plumber", "Did he give you a time?", "said he'd text")
    assert "Gareth" in expand("did the plumber confirm?", context)
    doctor = said("Dr Okonkwo switched my inhaler in March", "Better?", "yes")
    assert "Dr Okonkwo" in expand("what did the doctor say about side effects back then", doctor)


def test_former_and_latter_count_the_names_of_a_prose_choice() -> None:
    context = said("i can either remortgage with Nationwide at 4.2% or stay on the Halifax tracker", "Tracker?")
    assert "Halifax" in expand("what are the exit fees on the latter", context)
    offer = said("want a quiet weekend", "Good options: North Berwick, Peebles, or the Isle of Arran.")
    assert "Arran" in expand("how do i get to the last option you gave", offer)


def test_the_same_week_takes_the_week_the_conversation_named() -> None:
    context = said("the Kraków conference is the week of October 6", "Hold your calendar?", "yes")
    assert "October 6" in expand("can i squeeze a dentist appointment in the same week", context)


# --- temporal pointers by grammar: a time noun under a deictic determiner, a relative time phrase ---


@pytest.mark.parametrize(
    ("query", "pointer"),
    [
        ("what did we do a few days later?", "a few days later"),
        ("who visited the following week", "the following week"),
        ("what did I eat that same morning?", "that same morning"),
        ("how was the weather those summers", "those summers"),
        ("were the shops still open until then?", "until then"),
        ("what changed from then on", "from then on"),
        ("what did I buy prior to that?", "prior to that"),
        ("where did we go afterwards?", "afterwards"),
        ("who was in charge at that point?", "at that point"),
        ("how much did the rent go up the previous year", "the previous year"),
        ("what did the vet say two weeks after?", "two weeks after"),
    ],
)
def test_a_time_noun_under_a_deictic_determiner_or_a_relative_phrase_is_a_temporal_pointer(
    query: str, pointer: str
) -> None:
    assert kinds(query) == {pointer: "temporal"}


@pytest.mark.parametrize(
    "query",
    [
        "what should I do the next time my laptop overheats?",  # any future occasion
        "can I run two jobs at the same time?",  # a manner: simultaneously
        "what happened two days before the election?",  # the relation names its own anchor
        "what did Marie Curie do later on in her life?",  # relative to the query's own subject
        "what are you doing this morning?",  # deictic to the speaker's now
        "when is the next train to Brighton?",  # "next" governs no time noun
    ],
)
def test_time_words_that_the_query_anchors_itself_are_not_pointers(query: str) -> None:
    assert "temporal" not in kinds(query).values()


def test_a_question_about_the_clock_is_clear_even_after_a_conversation() -> None:
    result = QueryRewriter().rewrite("what time is it?", said("The standup moved to 10am.", "Noted."))
    assert not result.was_rewritten and result.expanded == "what time is it?"


def test_a_relative_pointer_keeps_its_relation_and_takes_the_anchor_as_object() -> None:
    wedding = said("We got married in Porto on 12 June 2021.", "Congratulations!")
    later = expand("what did we do a few days later?", wedding)
    assert "a few days after" in later and "12 June 2021" in later
    assert "the week after 12 June 2021" in expand("who visited the following week?", wedding)
    assert "until 12 June 2021" in expand("were the shops open until then?", wedding)
    assert "since 12 June 2021" in expand("what changed from then on?", wedding)
    assert "after 12 June 2021" in expand("where did we go afterwards?", wedding)


# --- definite descriptions anchored by the conversation ------------------------------------------


@pytest.mark.parametrize(
    ("turn", "query", "wanted"),
    [
        ("I have an interview at Stripe on Monday", "how should I prepare for the interview?", "interview at Stripe"),
        ("the Stripe interview went okay", "when will I hear back about the interview?", "Stripe interview"),
        ("my landlord, Mr Hale, wants to raise the rent", "what did the landlord say about repairs?", "Mr Hale"),
        ("the venue is the Roxy", "how many people fit in the venue?", "venue Roxy"),
        ("booked my flight to Lima for March", "what seat did I pick on the flight?", "flight to Lima"),
        ("we found a cafe called Koya near the station", "is the cafe open on sundays?", "cafe Koya"),
        ("my appointment with dr osei is next week", "should I fast before the appointment?", "Osei"),
    ],
)
def test_a_definite_description_takes_the_name_the_conversation_tied_to_its_noun(
    turn: str, query: str, wanted: str
) -> None:
    result = QueryRewriter().rewrite(query, said(turn, "OK."))
    assert result.was_rewritten and wanted in result.expanded


def test_a_description_with_its_own_identifier_or_modifier_is_left_alone() -> None:
    stripe = said("I have an interview at Stripe on Monday", "Good luck!")
    assert expand("How should I prepare for the interview at Google?", stripe) == (
        "How should I prepare for the interview at Google?"
    )
    review = [{"role": "user", "content": "Sarah reviewed the payment service."}]
    assert expand("Show the notes from the payment service review", review) == (
        "Show the notes from the payment service review"
    )


def test_a_date_attached_to_a_noun_is_when_not_which() -> None:
    context = said("I see my Korean tutor on Tuesdays", "How is it going?", "slowly")
    assert "Tuesdays" not in expand("how much does the tutor charge?", context)


# --- a choice between listed items ---------------------------------------------------------------


def test_a_comparison_between_listed_items_names_the_items_in_order() -> None:
    cities = said("We're considering Rotterdam or Utrecht for the new office.", "What matters most?", "Rent.")
    assert "Rotterdam and Utrecht" in expand("Which of the two is cheaper?", cities)
    phones = said(
        "which noise cancelling headphones should i get",
        "The Sony WH-1000XM5 is about £330 and the Anker Soundcore Q45 about £110.",
    )
    rewritten = expand("order the cheaper pair", phones)  # the prices decide which: £110 < £330
    assert "Anker Soundcore Q45" in rewritten and "Sony" not in rewritten
    unpriced = said("which noise cancelling headphones should i get", "The Sony WH-1000XM5 or the Anker Soundcore Q45.")
    rewritten = expand("order the cheaper pair", unpriced)  # no prices: both named, in order
    assert rewritten.startswith("order the cheaper of") and "Sony" in rewritten and "Anker" in rewritten


def test_a_comparison_that_lists_its_own_items_is_clear() -> None:
    assert kinds("Which of the two languages is older, Rust or Go?") == {}
    assert kinds("which is the better option for beginners, Python or Java?") == {}


def test_a_bare_follow_up_can_favour_the_last_exchange_over_the_opening() -> None:
    from mnemo.retrieve.rewrite.candidates import extract
    from mnemo.retrieve.rewrite.implicit import topic

    context = said("the kitchen renovation starts in May", "Exciting!", "and the boiler service is due too", "OK.")
    candidates = extract(context)
    opening, recent = topic(context, candidates, "why?"), topic(context, candidates, "why?", recent=True)
    assert opening is not None and "renovation" in opening.text
    assert recent is not None and "boiler" in recent.text


def test_an_anchor_keeps_its_event_when_a_later_bare_time_narrows_it() -> None:
    context = said("let's meet Yusuf at the café on saturday", "What time?", "noon")
    rewritten = expand("remind me to leave 30 min before then", context)
    assert "noon" in rewritten and "café" in rewritten


def test_a_copula_that_dates_its_subject_makes_the_subject_the_event() -> None:
    context = said("the tax return deadline is 31 January", "Do you have your P60?", "mostly")
    rewritten = expand("set a reminder for the day before", context)
    assert "tax return deadline" in rewritten and "31 January" in rewritten


def test_an_event_keeps_the_place_it_happened_at() -> None:
    context = said("Þóra started her new job at the maritime museum in February", "How is it?", "she loves it")
    assert "maritime museum" in expand("how has work been going since then", context)


def test_code_in_backticks_is_one_specific_thing() -> None:
    from mnemo.retrieve.rewrite.candidates import extract

    context = said("CI fails at `npm ci --ignore-scripts` on the Node 22 runner", "Does it pass on Node 20?")
    assert "npm ci --ignore-scripts" in [c.text for c in extract(context)]
    assert "npm ci --ignore-scripts" in expand("should i run it locally first", context)


def test_its_return_type_belongs_to_the_function_not_the_file() -> None:
    context = said("open src/billing/invoice.py", "Opened. parse_lines() is the long one, about 200 lines.")
    assert "parse_lines" in expand("what does its return type look like", context)


def test_a_bare_phrase_question_swaps_into_the_last_question() -> None:
    context = said("does the Rab Microlight jacket come in size L", "Yes, L is in stock in black and olive.")
    assert expand("in navy?", context) == "does the Rab Microlight jacket come in navy?"


def test_a_fragment_after_a_statement_with_a_question_keeps_every_number() -> None:
    context = said("loan of 12k at 6.9% over 5 years, what's the monthly payment", "About £237 a month.")
    assert expand("and over 7 years", context) == "loan of 12k at 6.9% over 7 years, what's the monthly payment"


def test_the_new_and_the_old_of_a_told_change() -> None:
    context = said("rename the package from acme-utils to acme-toolkit", "Done, 12 imports updated.", "bump to 1.2")
    assert "acme-toolkit" in expand("is the new name free on PyPI?", context)
    assert "acme-utils" in expand("should we keep the old name as an alias?", context)
    moved = said("we move into the flat on Sonnenallee on the 1st", "Want a checklist?", "yes")
    assert "Sonnenallee" in expand("when does the internet at the new place get switched on", moved)


def test_a_new_thing_with_its_own_complement_or_another_change_is_left_alone() -> None:
    context = said("we moved the standup to 9:45", "Noted.")
    assert expand("what's in the new version of python", context) == "what's in the new version of python"
    assert "9:45" not in expand("is the new version any faster", context)


def test_the_verb_of_it_picks_the_thing_the_conversation_tied_to_that_verb() -> None:
    context = said(
        "my son's nursery wants a signed consent form for the zoo outing by monday",
        "Noted - consent form for the zoo outing, due Monday.",
    )
    assert "consent form" in expand("remind me to sign it tonight", context)


def test_work_on_a_function_goes_to_the_function() -> None:
    context = said(
        "parse_postcode in utils/address.py throws on lower-case input",
        "I can make it upper-case the input first. Want tests for it?",
    )
    assert "parse_postcode" in expand("yes and add a docstring to it while you're there", context)


def test_it_is_seldom_the_country_of_a_trip() -> None:
    context = said(
        "my visa expires in may, is that ok for a trip to Croatia in july?",
        "Croatia asks for a visa valid for the whole stay, and a visa expiring in May would not be valid in July,"
        " so it wouldn't be enough.",
    )
    assert "visa" in expand("how fast can i renew it", context)


@pytest.mark.parametrize(
    ("turns", "query", "expected"),
    [
        (
            ("can I take paracetamol with warfarin?", "Usually yes, at normal doses."),
            "what about aspirin",
            "can I take aspirin with warfarin?",
        ),
        (
            ("how much iron should an adult get a day?", "About 8.7 mg for men."),
            "and a 10 year old?",
            "how much iron should a 10 year old get a day?",
        ),
        (
            ("how often should I descale the kettle?", "Every month in hard-water areas."),
            "what about the coffee machine",
            "how often should I descale the coffee machine?",
        ),
        (
            ("do I need a visa for Peru with a UK passport?", "No, UK citizens can stay 90 days."),
            "what about Bolivia",
            "do I need a visa for Bolivia with a UK passport?",
        ),
    ],
)
def test_a_noun_phrase_follow_up_swaps_the_argument_of_its_shape(
    turns: tuple[str, str], query: str, expected: str
) -> None:
    assert expand(query, said(*turns)) == expected


def test_a_follow_up_of_another_kind_swaps_nothing() -> None:
    context = said("what time is my flight to Berlin?", "It leaves at 7:40.")
    assert "kids" not in expand("and the kids?", context).split("the kids")[0]
    assert not expand("how about a walk", context).startswith("what time")


def test_that_before_a_reflexive_or_a_time_adverbial_is_a_pronoun() -> None:
    assert [r.text for r in detect("can i clear that myself or do i need an engineer", "fault code F28")] == ["that"]
    assert [r.text for r in detect("is it ok to take that every night", "I started melatonin")] == ["that"]


def test_a_follow_up_with_a_pronoun_swaps_in_once_resolved() -> None:
    context = said("what shoe size is Amir in now?", "Amir was a UK 12 in March.")
    assert expand("and his brother?", context) == "what shoe size is Amir's brother in now?"


def test_a_word_with_a_dose_is_a_medicine() -> None:
    context = said("my GP put me on lansoprazole 30mg for reflux", "Noted - lansoprazole 30mg.")
    assert "lansoprazole" in expand("should i take it before breakfast", context)


@pytest.mark.parametrize(
    ("turns", "query"),
    [
        (("can I take ibuprofen with sertraline?", "Usually, but ask your pharmacist."), "what about Sam"),
        (("can we get sushi tonight?", "Sure, Sushi Samba has a table at 8."), "and we get ramen tomorrow?"),
        (("can I get a table for two at 8?", "Booked."), "and a coffee please"),
        (("is the match on tonight?", "Yes, kick-off 8pm."), "what about tomorrow's weather in general"),
    ],
)
def test_a_follow_up_that_fits_no_slot_swaps_nothing(turns: tuple[str, str], query: str) -> None:
    assert turns[0].rstrip("?") not in expand(query, said(*turns)).replace(query.rstrip("?"), "")
    assert not expand(query, said(*turns)).startswith(turns[0].split()[0])


def test_a_time_follow_up_keeps_the_questions_preposition() -> None:
    context = said("is the swimming pool open on Sunday?", "Yes, 8am to 4pm.")
    assert expand("and Monday?", context) == "is the swimming pool open on Monday?"

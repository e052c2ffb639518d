"""Query rewriting by discourse structure: lower-case chat with shouted words, pronoun chains
(centering), places attached to a noun phrase, explicit back-references ("the X you mentioned"),
dated back-pointers, places as times, and mixed queries whose references resolve independently."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import QueryRewriter, detect
from mnemo.retrieve.rewrite.lowercase import lower_case_chat, truecase, written_names
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


# --- lower-case chat ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lower"),
    [
        ("ugh tomek broke the build AGAIN", True),  # shouting is no name
        ("i think QA signed off", True),  # an acronym and "I" carry no news
        ("Tomek broke the build", False),  # the writer capitalises: trust the case
        ("the deploy is stuck, ask Tomek", False),
        ("", False),
    ],
)
def test_lower_case_chat_ignores_shouting_and_acronyms(text: str, lower: bool) -> None:
    assert lower_case_chat(text) is lower


def test_a_name_the_conversation_capitalised_is_a_name_in_its_lower_case_messages() -> None:
    names = written_names(["yesterday Oluwaseun Bello sent the draft", "The draft is fine"])
    assert {"oluwaseun", "bello"} <= names
    assert "draft" not in names and "the" not in names
    assert truecase("oluwaseun wants the numbers", names).startswith("Oluwaseun")


def test_a_shouted_message_still_has_its_lower_case_name_found() -> None:
    context = said("ugh tomek left the stove ON again", "Shall I remind him tonight?", "yes at 9")
    assert "Tomek" in expand("and remind him about the bins too", context)


# --- pronoun chains: a pronominalised entity stays the centre -----------------------------------


def test_it_continues_the_entity_the_last_message_called_it() -> None:
    context = said(
        "we rented the cottage near the lake for august",
        "The lakeside cottage sleeps six?",
        "yes and it has a wood burner",
    )
    rewritten = expand("is it dog friendly", context)
    assert "cottage" in rewritten and "burner" not in rewritten


def test_a_demonstrative_still_points_at_what_is_newly_in_focus() -> None:
    # "It" is the name attribute; "that" is the new suffix, not the centre the chain keeps
    context = said(
        "Pulumi keeps replacing the storage bucket.",
        "Is the bucket name changing?",
        "It gets a random suffix.",
    )
    assert "suffix" in expand("How do I make that deterministic?", context)


def test_a_place_attached_to_a_noun_phrase_is_not_what_it_stands_for() -> None:
    context = said("booked a guesthouse in Porto for the weekend")
    rewritten = expand("does it have parking", context)
    assert "guesthouse" in rewritten


# --- explicit back-references ------------------------------------------------------------------


def test_the_thing_you_mentioned_is_named_by_the_clause_that_has_its_words() -> None:
    context = said(
        "where can i get good dumplings in leeds?",
        "Try Little Wok near the market for soup dumplings, or Mr Tang for noodles.",
        "and a bar for after?",
        "The Domino Club is a cosy jazz bar.",
    )
    assert "Little Wok" in expand("what was the dumpling place you recommended", context)


def test_a_back_reference_is_an_ambiguity_even_without_a_time_word() -> None:
    found = detect("send me the guide you mentioned", "I mentioned the Rust async guide")
    assert [r.kind for r in found] == ["implicit"]


def test_an_unnamed_back_reference_gets_no_unrelated_topic() -> None:
    context = said("the gutter is leaking over the porch")
    result = QueryRewriter().rewrite("send me the video you mentioned", context)
    assert "gutter" not in result.expanded


# --- temporal: a dated event and a place as the time -------------------------------------------


def test_earlier_with_a_topic_of_its_own_points_at_the_dated_event() -> None:
    context = said(
        "at 14:10 the checkout service threw 502s for ten minutes",
        "Could be the deploy that went out at 14:05.",
        "maybe, it's fine now",
    )
    rewritten = expand("show me the error logs from earlier", context)
    assert "checkout" in rewritten and "14:10" in rewritten


def test_earlier_without_a_dated_event_is_left_alone_when_the_query_has_a_topic() -> None:
    context = said("i like the blue theme", "The blue theme is the default on mobile.")
    result = QueryRewriter().rewrite("show me the error logs from earlier", context)
    assert "blue" not in result.expanded


def test_back_then_can_be_a_place_the_speaker_lived() -> None:
    context = said("when i was at school in dundee we had a pipe band", "Did you play in it?", "drums")
    assert "Dundee" in expand("who taught us back then", context)


# --- mixed: each reference on its own ------------------------------------------------------------


def test_an_unlisted_ordinal_takes_the_topic_next_to_a_resolved_pronoun() -> None:
    context = said(
        "Ngozi drafted the rollout plan for the payments gateway",
        "She suggested three stages with a canary first.",
        "ok",
    )
    rewritten = expand("when does she want the third stage live", context)
    assert "Ngozi" in rewritten and "gateway" in rewritten


def test_a_relational_definite_is_resolved_next_to_a_pronoun() -> None:
    found = detect("did she send the results", "Mira ran the load test; the results come tomorrow")
    assert {r.kind for r in found} == {"person", "implicit"}
    assert {r.kind for r in detect("how much was the rent when that happened?")} == {"temporal"}


# --- candidates: bare subjects, attached names, openers the conversation names -------------------


def test_a_bare_noun_that_is_a_clause_subject_is_a_candidate() -> None:
    from mnemo.retrieve.rewrite.bare import bare_subjects

    assert [w for _, w in bare_subjects("The dashboard shows latency jumped after lunch.")] == ["latency"]
    assert [w for _, w in bare_subjects("potassium is 3.1 and sodium is fine")] == ["potassium", "sodium"]
    assert bare_subjects("running was fun, everything went well") == []


def test_a_name_the_object_moved_to_is_not_the_object() -> None:
    context = said("We moved the search index to Elasticsearch.", "Any problems?", "The shard counts were too high.")
    assert "search index" in expand("What replica setting did we pick for it?", context)


def test_a_sentence_opening_name_counts_when_the_conversation_writes_it_as_a_name() -> None:
    context = said("We swapped the queue for Kafka last month.", "Kafka is now the event bus.")
    assert "Kafka" in expand("Why did we choose it?", context)


# --- choosing by a stated property; appositions; pets; compound heads ---------------------------


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        ("what does the lighter one cost", "Pinecone"),
        ("how do i install the self-hosted one", "Weaviate"),
    ],
)
def test_the_one_with_a_property_is_the_subject_of_the_clause_that_states_it(query: str, wanted: str) -> None:
    context = said(
        "which vector store should we use?",
        "Weaviate is self-hosted and flexible; Pinecone is lighter to run but hosted only.",
    )
    assert wanted in expand(query, context)


def test_a_property_the_conversation_never_states_is_no_reference() -> None:
    context = said("which vector store should we use?", "Weaviate is self-hosted; Pinecone is hosted only.")
    assert QueryRewriter().rewrite("what does the purple one cost", context).expanded == "what does the purple one cost"


def test_a_description_set_beside_a_name_carries_the_name() -> None:
    context = said("my tomato leaves have spots", "That looks like blight, a fungal disease; remove the leaves.", "ok")
    assert "blight" in expand("does that disease spread to potatoes", context)


def test_a_one_word_name_the_message_calls_he_is_someone() -> None:
    context = said("the groomer says my cat is overweight", "Is that Mochi? How much does he weigh?", "5 kilos")
    assert "Mochi" in expand("how much food should he get", context)


def test_a_demonstrative_phrase_takes_its_known_head_noun() -> None:
    found = detect("how much is that lego set", "The Millennium Falcon set is on sale")
    assert [(r.text, r.noun) for r in found] == [("that lego set", "set")]


# --- temporal: deeds, holidays, inverted clauses; clear queries stay clear ---------------------


def test_a_dated_deed_is_the_event_and_keeps_its_date() -> None:
    context = said("what changed this week?", "We rolled back the search service on Tuesday.", "ok")
    rewritten = expand("have timeouts dropped since then", context)
    assert "Tuesday" in rewritten and "rolled back the search service" in rewritten


def test_the_event_is_kept_when_the_query_shares_only_a_modifier_with_it() -> None:
    context = said("I switched to the new sleep tablets on the 4th", "Any change?", "a bit groggy")
    assert "tablets" in expand("has my sleep improved since then", context)


def test_named_holidays_are_dates_as_a_whole() -> None:
    context = said("we bought the tv on Black Friday", "Good deal?", "40% off")
    rewritten = expand("was it cheaper a week before", context)
    assert "Black Friday" in rewritten


def test_after_that_before_an_inverted_auxiliary_is_a_pointer() -> None:
    assert {r.text.lower(): r.kind for r in detect("how soon after that did the rash fade")} == {
        "soon after that": "temporal"
    }


@pytest.mark.parametrize(
    "query",
    [
        "it is 3am and i can't sleep, any tips",  # the clock, not a thing
        "it's nearly midnight, what should i eat",
        "did my parents like the flat they rented in Porto",  # "they" are the query's own parents
    ],
)
def test_clear_queries_with_their_own_antecedent_or_an_expletive_pass_through(query: str) -> None:
    context = said("work has been stressful", "Is it the workload?", "both")
    assert QueryRewriter().rewrite(query, context).expanded == query


# --- lexical cohesion and attached topics --------------------------------------------------------


def test_a_pronoun_takes_the_person_of_the_thread_the_query_continues() -> None:
    context = said(
        "Ingrid has been comparing mortgage brokers for weeks",
        "That's a big decision.",
        "meanwhile Astrid started her new job at the museum",
        "How exciting for her!",
        "she loves it",
    )
    assert "Ingrid" in expand("did she choose a broker yet?", context)


def test_a_thing_keeps_the_topic_it_is_about() -> None:
    context = said("my aunt sent me a book on Roman history", "Nice gift!", "yes")
    assert "Roman history" in expand("have i started it yet", context)


# --- contractions, fragments, "the other", announced lists, roles, openings ----------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("it's leaking again", {"it": "thing"}),
        ("he's running late", {"he": "person"}),
        ("whether that's allowed", {"that": "demonstrative"}),
        ("they're closed today", {"they": "plural"}),
        ("the build that's failing", {}),  # a relative "that"
        ("is it worth it", {"it": "thing"}),  # the idiom's second "it" is no thing
    ],
)
def test_pronouns_with_a_clitic_verb_are_references(query: str, expected: dict[str, str]) -> None:
    assert {r.text.lower(): r.kind for r in detect(query) if r.kind != "temporal"} == expected


def test_a_prepositional_fragment_swaps_that_argument_of_the_previous_question() -> None:
    context = said("how long is the ferry from Split to Hvar?", "About an hour on the fast catamaran.")
    assert expand("and to Vis?", context) == "how long is the ferry from Split to Vis?"


def test_a_fragment_after_a_statement_is_not_rebuilt_from_it() -> None:
    context = said("adult tickets for the Science Museum are £20")
    assert "£20" not in expand("and for students?", context)


def test_the_other_ones_are_the_listed_items_nobody_took_up() -> None:
    context = said(
        "how do i speed up the test suite?",
        "Three options: cache the fixtures, parallelise with xdist, or skip the slow tests.",
        "caching sounds easy",
    )
    rewritten = expand("what about the other two", context)
    assert "xdist" in rewritten and "slow" in rewritten and "fixtures" not in rewritten


def test_a_count_announces_a_list_of_two() -> None:
    context = said("what broke?", "Two jobs: nightly_backup and export_reports. Both time out.")
    assert "export_reports" in expand("restart the other for now", context)


def test_a_role_named_with_a_title_takes_the_name() -> None:
    context = said("wrote to my landlord Mr Haddad about the damp on friday", "Good, keep copies.")
    assert "Haddad" in expand("i wonder if the landlord answered", context)


def test_that_after_an_answered_question_is_the_answers_thing() -> None:
    context = said("any scenic drives for a long weekend?", "The Atlantic Road in Norway is short but stunning.", "wow")
    assert "Atlantic Road" in expand("is that doable in a campervan", context)


def test_at_work_is_no_place_name() -> None:
    assert truecase("hangry at work") == "hangry at work"
    assert truecase("moved to leith") == "moved to Leith"


def test_which_of_them_chooses_between_the_named_pair() -> None:
    context = said(
        "need a robot mower",
        "Two picks: the Husqvarna 305, quiet and reliable, and the Worx Landroid, cheaper with an app.",
        "my lawn is small",
    )
    rewritten = expand("which of them is quieter", context)
    assert "Husqvarna" in rewritten and "Worx" in rewritten


def test_a_name_closing_a_phrase_of_common_words_is_a_referent() -> None:
    context = said("took the kids to the beach, my eldest Tomasz caught a crab", "Fun!")
    assert "Tomasz" in expand("was he scared of it", context)


def test_a_greeting_is_no_opening_topic() -> None:
    from mnemo.retrieve.rewrite.opening import opening

    context = said("morning", "Good morning! How can I help?", "our boiler keeps losing pressure")
    assert opening(context) == "our boiler keeps losing pressure"


def test_one_entity_takes_one_reference() -> None:
    context = said("my colleague Mr. Oyelaran lent me his drill on monday", "Kind of him.")
    rewritten = expand("should i pay him for it", context)
    assert "Oyelaran" in rewritten and "drill" in rewritten and "colleague" not in rewritten


@pytest.mark.parametrize("follower", ["if", "when", "tomorrow", "before"])
def test_her_before_a_subordinator_is_an_object(follower: str) -> None:
    context = said("Dr. Amal Haddad saw my cat today")
    assert expand(f"should i call her {follower} the rash spreads", context).startswith("should i call Dr Amal Haddad ")


def test_the_goal_of_a_motion_is_a_place_for_there() -> None:
    context = said("Priya has been going to the climbing club every week", "Good for her!")
    assert "climbing club" in expand("when did she first go there", context)


def test_a_bare_plural_after_at_is_no_place_name() -> None:
    assert truecase("it's hard at restaurants") == "it's hard at restaurants"


def test_that_before_a_time_pointer_is_an_object() -> None:
    found = detect("can she rehearse that the night before")
    assert [(r.text, r.kind) for r in found if r.kind == "demonstrative"] == [("that", "demonstrative")]


def test_a_dating_question_takes_its_event_from_the_answer() -> None:
    context = said("anything on the 14th?", "The Holloway street market is on.", "nice")
    assert "street market" in expand("should we eat before that", context)


def test_the_answer_to_a_what_question_names_its_first_word() -> None:
    context = said("which painkiller did the dentist suggest?", "Naproxen, twice a day. It can cause heartburn.", "ok")
    assert "Naproxen" in expand("can i take this on an empty stomach", context)


@pytest.mark.parametrize(
    ("query", "wanted"),
    [("how long is the one due friday", "Chemistry"), ("is that one ending in june renewable", "Halvorsen")],
)
def test_the_one_with_a_modifier_is_the_item_the_modifier_describes(query: str, wanted: str) -> None:
    context = said(
        "what's on my plate?",
        "Reports: Biology on Monday, Chemistry on Friday. The Halvorsen contract: it ends June 30.",
        "ok",
    )
    assert wanted in expand(query, context)


def test_a_verb_after_a_person_noun_is_no_name() -> None:
    assert truecase("my mom keeps sending me memes") == "my mom keeps sending me memes"
    assert truecase("my cousin priyanka visited").startswith("my cousin Priyanka")


def test_a_when_question_names_the_event_its_answer_dates() -> None:
    context = said("when's the school fair?", "Saturday 14 June, from 10am.")
    assert "school fair" in expand("should i bake something the day before", context)


def test_an_occasion_named_by_a_time_noun_is_an_event() -> None:
    context = said("the awards evening was on thursday", "How did it go?", "our team won")
    assert "awards evening" in expand("what did we celebrate the following week", context)


def test_that_age_is_the_time_a_when_clause_fixed() -> None:
    context = said("Jonas said he moved out when he was 19", "Early!")
    assert "19" in expand("where did he live at that age", context)

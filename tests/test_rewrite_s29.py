"""Query rewriting, eighth pass: titled works, answered questions, booked visits."""

from __future__ import annotations

import pytest

from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("opening", "query", "title"),
    [
        ("I'm reading Wolf Hall at the moment.", "who wrote the book?", "Wolf Hall"),
        ("we're watching The Bear with my brother", "how many seasons does the show have", "Bear"),
        ("been listening to Rumours on repeat", "what year did the album come out", "Rumours"),
    ],
)
def test_a_work_noun_takes_the_title_its_verb_consumed(opening: str, query: str, title: str) -> None:
    out = expand(query, said(opening, "Nice choice! How are you finding it?", "loving it so far"))
    assert title in out


def test_a_work_noun_is_not_a_person_seen() -> None:
    # no verb of the work's kind: "saw Tom" names a person, and "the film" keeps no title
    out = expand("what time does the film start", said("I saw Tom at the cinema yesterday", "Nice!"))
    assert "Tom" not in out


def test_an_answers_pronoun_is_what_the_question_asked_about() -> None:
    context = said(
        "I need to ring the council about the parking permit.",
        "Do you have the reference number?",
        "It's in my inbox somewhere.",
    )
    assert "reference number" in expand("can you find it for me", context)


def test_a_question_carrying_its_own_pronoun_keeps_the_chain() -> None:
    # "is it the amount you agreed?": the answer's "it" goes on with the question's "it", the invoice
    context = said("Aiko sent the final invoice for the redesign", "Is it the amount you agreed?", "It's 200 more")
    assert "invoice" in expand("why is it higher", context)


@pytest.mark.parametrize(
    ("booking", "query", "wanted"),
    [
        ("booked the dentist for thursday", "move that to friday", "dentist appointment"),
        ("made an appointment with Dr Okafor for 3pm", "can you cancel it", "appointment with Dr Okafor"),
        ("got the physio booked, I'm seeing my physio on monday", "push it back a week", "physio appointment"),
    ],
)
def test_a_rescheduled_that_is_the_booked_visit(booking: str, query: str, wanted: str) -> None:
    assert wanted in expand(query, said(booking, "What time?", "9am"))


def test_a_booked_thing_is_no_visit() -> None:
    # the latest booking is a table, which has a candidate of its own: no dentist appointment
    context = said("booked the dentist for thursday", "Great.", "also booked a table at Dishoom for friday")
    assert "dentist" not in expand("can you move it to saturday", context)


def test_rerun_takes_the_job_not_the_tool_it_runs() -> None:
    context = said(
        "the weekly export job failed, the log says `rsync: connection timed out` on files-2",
        "The export job still targets files-2, which was retired. Point it at files-3.",
    )
    assert "export job" in expand("ok point it there and rerun", context)


def test_rerun_takes_a_job_by_the_name_the_chat_gave_it() -> None:
    context = said("why did the nightly job rebuild_index fail", "It ran out of memory loading the stopwords file.")
    assert "rebuild_index" in expand("trim that file and rerun it", context)


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            (
                "the deploy adds the Flyway migration V42 and switches traffic with the canary setup",
                "The canary setup shifts 10% first.",
            ),
            "can i roll it back if the canary fails",
            "migration",
        ),
        (
            ("my wallet was stolen at the station, my debit card from Monzo was in it", "I'm sorry. Call Monzo now."),
            "how do i freeze it in the app",
            "card",
        ),
        (
            ("we're off to Lisbon in May, my passport runs out in June", "Portugal wants three months left on it."),
            "can i renew it online",
            "passport",
        ),
    ],
)
def test_what_the_query_does_says_which_kind_it_is(turns: tuple[str, str], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns))


def test_a_kind_the_chat_lacks_narrows_nothing() -> None:
    # no card in the chat: "block it" keeps the plain choice
    context = said("the neighbour's wifi keeps showing up as Hamster_Net", "You can hide networks you don't use.")
    assert "Hamster_Net" in expand("how do i block it", context)


def test_what_grows_is_the_damage_not_the_wall() -> None:
    context = said(
        "the bathroom ceiling has a thin crack next to a brown stain",
        "Is the ceiling plaster? A plaster ceiling often cracks when the joists settle.",
    )
    assert "crack" in expand("how will i know if it spreads", context)


def test_that_adjective_one_is_the_option_the_chat_described_so() -> None:
    context = said(
        "need a cosy rug for the reading corner, ideas?",
        "Two favourites: the Nordlys, a grey-green wool weave, or the Kasbah, a warm red kilim.",
        "for the hall we already went with Lattice Grey",
        "Nice, that will tie the two rooms together.",
    )
    out = expand("would that greenish one show dirt", context)
    assert "Nordlys" in out and "Lattice" not in out


def test_a_modifier_no_sentence_describes_changes_nothing_by_itself() -> None:
    from mnemo.retrieve.rewrite.candidates import extract
    from mnemo.retrieve.rewrite.modified_one import described_one

    context = said("calm paint?", "Calm choices are Sage Whisper, a soft grey-green, or Oat Milk, a warm off-white.")
    assert described_one("greenish", extract(context), context) == ("Sage Whisper", 0.75)
    assert described_one("purple", extract(context), context) is None


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        ("should i make her throw up", "make Miso throw up"),  # a causative's object, then a bare verb
        ("should i worry about her given the grapes were seedless", "about Miso given"),
        ("keep an eye on her until tonight", "on Miso until"),
    ],
)
def test_her_before_a_bare_verb_or_a_conjunction_is_an_object(query: str, wanted: str) -> None:
    context = said("our dog Miso ate some grapes an hour ago", "Grapes can be toxic to dogs. Call your vet now.")
    assert wanted in expand(query, context)


def test_a_definite_keeps_a_complement_with_a_possessive() -> None:
    context = said("my osteopath showed me four stretches for my hamstrings", "Those help with stiffness.")
    assert "for my hamstrings" in expand("remind me to do the stretches after work", context)


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            ("I've got the quarterly retro with design at 3 today", "I'll remind you at 2:45."),
            "who runs the meeting?",
            "retro",
        ),
        (
            ("the boiler is due its annual service in March", "Want me to find an engineer?"),
            "yes, book the appointment for monday",
            "boiler",
        ),
        (("the outage on friday came from a full disk on db-3", "Painful."), "draft the postmortem", "full disk"),
    ],
)
def test_an_occasion_noun_takes_the_occasion_the_chat_named_by_its_kind(
    turns: tuple[str, str], query: str, wanted: str
) -> None:
    assert wanted in expand(query, said(*turns))


@pytest.mark.parametrize(
    "query",
    [
        "who runs the meeting with legal?",  # the complement says which meeting
        "what is a typical meeting length",  # no definite
    ],
)
def test_an_occasion_noun_that_says_which_is_left_alone(query: str) -> None:
    context = said("I've got the quarterly retro with design at 3 today", "I'll remind you at 2:45.")
    assert "retro" not in expand(query, context)


def test_a_data_sync_is_no_meeting() -> None:
    from mnemo.retrieve.rewrite.occasions import occasion_spans

    assert occasion_spans("when is the meeting", "the nightly sync to the warehouse failed again") == []
    assert occasion_spans("when is the meeting", "the weekly sync with sales moved to 4") == [(8, 19, "meeting")]


def test_a_relation_before_a_preposition_has_lost_its_object() -> None:
    context = said("my sister's wedding is on the 14th in Galway", "Lovely! Are you going?", "yes, flying over")
    out = expand("block off the day before in my calendar", context)
    assert "wedding" in out and out.endswith("in my calendar")


def test_a_persons_last_day_is_the_occasion_a_relation_counts_from() -> None:
    context = said("Tomasz's last day is Thursday the 9th", "Noted. We'll miss him!")
    assert "Tomasz's last day" in expand("book a leaving drinks the day before", context)


def test_an_ampersand_joins_one_name() -> None:
    context = said("the paint we used in the study was Farrow & Ball Hague Blue", "Good to know, noted.")
    assert "Farrow & Ball Hague Blue" in expand("how many tins of that colour do i need for the hall", context)


def test_that_place_noun_takes_its_named_mention() -> None:
    context = said("Priya says the night market on Dock Road has the best dumplings", "Sounds worth a visit.")
    assert "night market on Dock Road" in expand("what time does that market close", context)


def test_take_it_is_the_named_medicine_over_a_possessive_description() -> None:
    context = said("my GP switched my cholesterol medication to atorvastatin", "Noted. Want a daily reminder?")
    assert (
        expand("can i take it with grapefruit juice", context).lower()
        == "can i take atorvastatin with grapefruit juice"
    )


def test_what_goes_back_is_what_was_lent() -> None:
    context = said(
        "my neighbour Tomasz lent me his hedge trimmer",
        "Handy! What are you doing?",
        "tidying the front garden and the side path",
    )
    assert "hedge trimmer" in expand("remind me to give it back to him on sunday", context)


def test_a_plural_class_noun_takes_every_member_named_together() -> None:
    context = said("for the curry i still need cumin, turmeric and cardamom", "Noted.")
    out = expand("add the spices to the shopping list", context)
    assert all(spice in out for spice in ("cumin", "turmeric", "cardamom"))


@pytest.mark.parametrize(
    "query",
    [
        "remind me to renew my car tax before it runs out in June",  # a time clause's subject: the object
        "eat the yoghurt before it goes off",
        "it's supposed to be wet on sunday, remind me to pack a coat",  # the weather
        "it's forecast to be really windy tomorrow, should we still go",
    ],
)
def test_queries_whose_it_needs_no_conversation_stay_unchanged(query: str) -> None:
    context = said("planning a weekend in the Lake District with Priya", "Lovely, where are you staying?")
    assert expand(query, context) == query


def test_an_answers_it_is_what_an_indefinite_question_asked_about() -> None:
    context = said(
        "We're moving the orders table to a new cluster tonight.",
        "Good luck! Is there a runbook?",
        "yes, Kemal wrote it up",
    )
    assert "runbook" in expand("where did he save it?", context)


def test_a_one_noun_definite_is_the_longer_thing_it_repeats() -> None:
    from mnemo.retrieve.rewrite.candidates import extract

    context = said(
        "the dishwasher is leaking and the tumble dryer smells of burning",
        "How old is the dryer?",
        "about 12 years",
    )
    texts = [c.text for c in extract(context)]
    assert "the tumble dryer" in texts and "the dryer" not in texts


def test_a_judged_that_is_the_latest_reported_figure() -> None:
    context = said("how's the website doing today?", "The p95 latency on the checkout API is at 870 ms since noon.")
    assert "p95 latency" in expand("is that too high?", context)


def test_a_judged_that_without_a_figure_keeps_the_topic() -> None:
    from mnemo.retrieve.rewrite.reference import Reference
    from mnemo.retrieve.rewrite.reported import judged_figure

    ref = Reference("that", "demonstrative", 3, 7)
    assert judged_figure("is that normal?", ref, said("my cat sleeps 18 hours", "Cats sleep a lot.")) is None


def test_a_bare_why_after_saying_takes_the_reported_clause() -> None:
    context = said("Omar told me the offsite is cancelled", "Oh no, noted.")
    assert expand("did he say why?", context) == "did Omar say why the offsite is cancelled?"


def test_a_why_with_its_own_clause_is_left_alone() -> None:
    context = said("Omar told me the offsite is cancelled", "Oh no, noted.")
    assert "cancelled" not in expand("did he say why the budget was cut?", context)


def test_a_definite_plural_takes_the_members_the_chat_counted() -> None:
    context = said("adopted two cats last week: a tabby called Miso and a black kitten, Soot", "Lovely!")
    out = expand("what should i feed the new cats", context)
    assert "Miso" in out and "Soot" in out


def test_a_count_without_members_adds_nothing() -> None:
    from mnemo.retrieve.rewrite.counted import counted_members

    assert counted_members("cats", "adopted two cats last week, and they love the garden") is None


@pytest.mark.parametrize(
    ("answer", "query", "wanted"),
    [
        (
            "You have the standup with Northwind at 9 and the budget review at 2.",
            "push the first one to 10",
            "Northwind",
        ),
        ("Two are due this week: 'Circe' and 'Stoner'.", "renew the second one", "Stoner"),
    ],
)
def test_an_ordinal_takes_an_answers_pair(answer: str, query: str, wanted: str) -> None:
    context = [{"role": "user", "content": "what's coming up?"}, {"role": "assistant", "content": answer}]
    assert wanted in expand(query, context)


def test_the_other_two_leave_out_the_speaker() -> None:
    context = said("The interview panel is me, Haruto and Leila.", "Noted.")
    out = expand("have the other two sent their feedback?", context)
    assert "Haruto" in out and "Leila" in out


def test_an_ordinal_person_noun_picks_from_the_listed_people() -> None:
    context = said("for the vacancy I'm torn between Okafor and Lindqvist", "Both interviewed well.")
    assert "Lindqvist" in expand("where is the second guy based?", context)


def test_a_change_like_that_is_the_reported_figure() -> None:
    context = said("error rate on the login service jumped to 4% after the deploy", "That's well above normal.")
    assert "error rate" in expand("what usually causes a jump like that", context)


def test_a_compound_keeps_every_word_of_its_name() -> None:
    from mnemo.retrieve.rewrite.compounds import compound_names

    texts = [
        c.text for _, c in compound_names("the shop recommended Continental Grand Prix tyres. Our Home Assistant box")
    ]
    assert "Continental Grand Prix tyres" in texts and "Home Assistant box" in texts


def test_a_mention_with_a_written_identifier_says_which() -> None:
    context = said("is the new search index ready?", "The products_v3 index finished building an hour ago.")
    assert "products_v3" in expand("how big is that index", context)


def test_a_role_is_named_by_a_copula_after_its_complement_and_never_by_a_day() -> None:
    context = said("Maya's swimming gala is on Saturday, the coach in charge is Mr. Okoro.", "Noted.")
    out = expand("text the coach about parking", context)
    assert "Okoro" in out and "Saturday" not in out


def test_a_name_of_the_other_gender_is_no_antecedent() -> None:
    context = said("We interviewed Tomasz for the QA role today.", "How did it go?")
    assert "Tomasz" in expand("what did Priya think of him?", context)
    assert expand("did Priya bring her laptop?", context) == "did Priya bring her laptop?"


def test_a_deadline_keeps_what_is_due() -> None:
    context = said("The grant report is due to the council on 3 March.", "I'll remind you the week before.")
    out = expand("how many days until the deadline?", context)
    assert "3 March" in out and "grant report" in out
    context = said("It is due on 3 March.", "Noted.")
    assert "it is" not in expand("how many days until the deadline?", context).lower()


def test_those_names_are_the_listed_names() -> None:
    context = said("who's judging the bake-off?", "The judges are Imogen Clarke, Raj Patel and Sunita Rao.")
    out = expand("email those names the schedule", context)
    assert all(name in out for name in ("Imogen Clarke", "Raj Patel", "Sunita Rao"))


def test_a_verb_of_ending_ends_a_noun_phrase() -> None:
    context = said("We're renewing with Brightline Freight, their contract ends in May.", "Noted.")
    assert "contract ends" not in expand("how much did we pay them last year?", context)


def test_a_compared_that_is_the_reported_figure() -> None:
    context = said("quote from Brightspark came in at £3,200 for the rewire", "Noted: Brightspark quoted £3,200.")
    assert "the quote from Brightspark" in expand("is that more than the going rate?", context)


def test_that_idea_is_what_was_proposed() -> None:
    context = said("Kwame suggested we move the standup to 10am.", "That would help the Lisbon folks.")
    assert "move the standup to 10am" in expand("does anyone object to that idea?", context)


def test_that_bug_is_the_problem_the_chat_named_otherwise() -> None:
    context = said("Ines found a race condition in the upload worker", "Is it in prod?", "since Tuesday")
    assert "race condition" in expand("did she file a ticket for that bug", context)


def test_a_list_item_named_by_its_owner_keeps_its_words() -> None:
    from mnemo.retrieve.rewrite.lists import list_items

    assert list_items("two PRs need review: Kofi's retry PR and Ada's logging PR") == [
        "Kofi's retry PR",
        "Ada's logging PR",
    ]


def test_that_place_after_if_is_the_place_named_by_its_kind() -> None:
    context = said("Marta recommended a Georgian bakery called Tone Sakhli", "Noted.")
    assert "Tone Sakhli" in expand("ask if that place does gluten free", context)


def test_block_out_the_time_takes_the_slot_the_chat_gave() -> None:
    context = said("Ama and I are reviewing the budget from 3 to 5 tomorrow.", "Sounds good.")
    out = expand("block out the time in my calendar", context)
    assert "from 3 to 5" in out and "budget" in out


def test_the_time_alone_asks_the_clock() -> None:
    context = said("Ama and I are reviewing the budget from 3 to 5 tomorrow.", "Sounds good.")
    assert expand("what's the time?", context) == "what's the time?"


def test_the_first_one_of_options_told_in_order() -> None:
    context = said(
        "The band has two gigs in May, first at the Leadmill on the 3rd and then at the Boardwalk on the 10th.",
        "Busy month! Both are in your calendar.",
    )
    assert "Leadmill" in expand("what time is soundcheck for the first one?", context)


def test_tickets_for_that_are_for_the_event_not_its_venue() -> None:
    context = said(
        "Our school is putting on a charity quiz at the Royal Oak on Friday.", "Fun! Are you selling tickets?"
    )
    assert "quiz" in expand("how many tickets have we sold for that?", context)


def test_the_same_again_repeats_the_speakers_whole_order() -> None:
    context = said(
        "last week I ordered a lamb biryani and two garlic naans from Taj Mahal",
        "Hope it was good!",
        "it was, though Tom had the korma and hated it",
    )
    out = expand("order the same again for tonight", context)
    assert "lamb biryani" in out and "garlic naans" in out and "korma" not in out


def test_is_it_likely_to_has_a_referent_unless_it_is_the_weather() -> None:
    context = said("the new hinge on the gate is already loose", "Was it fitted with the long screws?")
    assert expand("is it likely to fail again?", context) != "is it likely to fail again?"
    assert expand("is it likely to rain on saturday?", context) == "is it likely to rain on saturday?"


def test_a_price_to_a_verb_names_no_place() -> None:
    from mnemo.retrieve.rewrite.lowercase import truecase

    assert truecase("€45 to straighten, €70 for a new one") == "€45 to straighten, €70 for a new one"
    assert truecase("we flew to lisbon") == "we flew to Lisbon"


def test_what_a_task_costs_has_no_referent_but_its_object_does() -> None:
    context = said("the kitchen tap is dripping again", "Is it the washer or the cartridge?")
    out = expand("how much would it cost to replace it", context)
    assert out.startswith("how much would it cost to replace ") and "tap" in out


def test_there_takes_the_name_a_described_place_was_set_beside() -> None:
    context = said("We finally tried Kasbah, the Moroccan place on Mill Road, for Ade's birthday.", "How was it?")
    assert "Kasbah" in expand("what should I order there next time?", context)


def test_a_call_with_someone_is_the_meeting_and_a_stated_order_is_repeated_whole() -> None:
    context = said("We have a call with the Northwind legal team tomorrow at 11.", "I've added it.")
    assert "Northwind" in expand("can you draft an agenda for the meeting?", context)
    context = said("Our order from Pho Real last week was two bun cha and a papaya salad.", "Want me to save it?")
    out = expand("no, just order the same again", context)
    assert "Pho Real" in out and "papaya salad" in out


def test_a_proposed_gerund_is_the_idea_of_it() -> None:
    context = said("Mina suggested moving the retro to Fridays.", "That could work.")
    assert "the idea of moving the retro to Fridays" in expand("who else likes that idea?", context)


def test_an_ordinal_skips_a_list_the_query_draws_from() -> None:
    context = said(
        "I'm torn between the Kindle Paperwhite and the Kobo Clara for reading.",
        "What matters most to you?",
        "Price and library loans.",
    )
    assert "Kindle Paperwhite" in expand("does the first one do library loans?", context)


def test_that_document_is_the_document_the_chat_named_by_its_kind() -> None:
    context = said("The vendor sent over the contract for the CRM renewal.", "Do you want me to summarise it?")
    assert "contract" in expand("no, where should I file that document", context)


def test_a_mention_keeps_an_along_or_near_complement() -> None:
    context = said("There's a cycle path along the river from Kew to Richmond.", "Nice and flat.")
    assert "along the river" in expand("is that path busy on sundays", context)


@pytest.mark.parametrize(
    ("turns", "query", "absent"),
    [
        (("I'm planning a trip to Lisbon in May.", "Lovely!"), "who else is invited to the meeting?", "Lisbon"),
        (("I've got standup at 9.", "Noted."), "is the meeting room booked?", "standup"),
        (
            ("My daughter is 3 and she still naps twice a day.", "Many toddlers do."),
            "is that normal?",
            "daughter normal",
        ),
        (("Mum said she's fine. But she cancelled her trip.", "That's a shame."), "did she say why?", "why she's fine"),
        (("we have two cats, both rescues and very shy", "Aww."), "do the cats need jabs?", "both rescues"),
        (("last time I ordered a large pepperoni", "Nice."), "order the same pizza as Tom", "(a large pepperoni"),
        (("I'm seeing my sister on Friday.", "Nice!"), "can I change it to Saturday?", "sister appointment"),
        (("Noor suggested prices will fall next year.", "Maybe."), "what do you think of that idea?", "idea to prices"),
        (("At first we went to the Louvre and then to Orsay.", "Great."), "was the first one busy?", "we went"),
        (("I'm reading Slack messages all day.", "Sounds tiring."), "who wrote the book?", "the book Slack"),
        (
            ("The lasagne is in the oven.", "Smells great!"),
            "it's supposed to be hot all the way through, right?",
            "it's",
        ),
        (("our fig tree is in a pot by the door", "Figs like sun."), "give it a bigger pot as it grows", "crack"),
        (
            ("I borrowed a ladder from Sam but bought a drill on Amazon", "Busy!"),
            "can I return it without the receipt?",
            "ladder",
        ),
    ],
)
def test_the_review_near_misses_stay_clear_of_the_new_rules(turns: tuple[str, str], query: str, absent: str) -> None:
    assert absent not in expand(query, said(*turns))


def test_hot_all_the_way_through_is_the_food_not_the_weather() -> None:
    out = expand("it's supposed to be hot all the way through, right?", said("The lasagne is in the oven.", "Smells!"))
    assert "lasagne" in out

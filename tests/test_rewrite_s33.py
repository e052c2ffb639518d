"""Query rewriting, eleventh pass continued: frames that pick the referent, named events, clear queries."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.changes import moved_amount
from mnemo.retrieve.rewrite.clause import looks_verbal
from mnemo.retrieve.rewrite.detect import detect
from mnemo.retrieve.rewrite.determiner import demonstrative_use
from mnemo.retrieve.rewrite.gender import gender_of
from mnemo.retrieve.rewrite.lowercase import truecase
from mnemo.retrieve.rewrite.relative import called_place
from mnemo.retrieve.rewrite.temporal import event_in
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


def test_an_adjective_after_a_demonstrative_noun_is_its_predicate_not_its_head() -> None:
    context = said(
        "My friend told me about a Korean restaurant called Seoul Garden on 5th Street.",
        "Seoul Garden gets good reviews for its bibimbap and tabletop barbecue.",
    )
    rewritten = expand("is that place good for a birthday dinner?", context)
    assert "Seoul Garden" in rewritten
    assert "good reviews good" not in rewritten


@pytest.mark.parametrize(
    ("noun", "text", "wanted"),
    [
        ("jump", "Quick update: our churn rate went from 3% to 5.5% in August.", "the churn rate jump"),
        ("drop", "Weekly active users dropped to 4,100 after the redesign.", "the weekly active users drop"),
        ("spike", "The p99 latency spiked by 300 ms on Tuesday.", "the p99 latency spike"),
    ],
)
def test_a_change_noun_takes_what_the_chat_said_moved(noun: str, text: str, wanted: str) -> None:
    assert moved_amount(noun, said(text)) == wanted


def test_a_change_noun_against_the_change_told_or_no_change_is_left_alone() -> None:
    assert moved_amount("drop", said("Our churn rate jumped to 5.5% in August.")) is None
    assert moved_amount("jump", said("We met the churn team in August.")) is None
    assert moved_amount("idea", said("Our churn rate went from 3% to 5.5%.")) is None


def test_that_jump_is_rewritten_as_the_figure_that_moved() -> None:
    context = said("Quick update for the monthly report: our churn rate went from 3% to 5.5% in August.")
    assert expand("what could explain that jump?", context) == "what could explain the churn rate jump?"


def test_this_after_whether_with_a_verb_is_the_clause_subject() -> None:
    context = said(
        "Elif wrote the new caching layer for the search service, and Jakub reviewed it.",
        "Nice. Caching layers often get tricky around invalidation and stale reads.",
    )
    rewritten = expand("can you ask her whether this handles invalidation when a product is deleted?", context)
    assert "caching layer" in rewritten
    assert "handles invalidation" in rewritten


@pytest.mark.parametrize(
    ("nxt", "after", "known", "use"),
    [
        ("handles", "invalidation", set(), "pronoun"),
        ("works", "offline", set(), "pronoun"),
        ("series", "is", set(), "determiner"),
        ("analysis", "holds", set(), "determiner"),
        ("metrics", "look", set(), "determiner"),
        ("weeks", "meeting", {"weeks"}, "determiner"),
    ],
)
def test_this_after_whether_reads_a_verb_in_s_but_keeps_nouns_in_s(
    nxt: str, after: str, known: set[str], use: str
) -> None:
    assert demonstrative_use("this", "whether", nxt, after, known) == use


def test_a_season_opening_a_sentence_is_no_topic() -> None:
    context = said(
        "What's the best time of year to visit Kyoto?",
        "Spring (late March to early April) for cherry blossoms, or November for autumn leaves.",
    )
    rewritten = expand("and how many days would be enough?", context)
    assert "Kyoto" in rewritten
    assert "Spring" not in rewritten


def test_them_as_a_recipient_is_who_receives_not_the_things_discussed() -> None:
    context = said(
        "The client, Moreau Industries, rejected the first round of mockups.",
        "Did they say why?",
        "They think the colors are too muted and the logo is too small.",
    )
    assert "Moreau Industries" in expand("how should we present the revised ones to them?", context)
    assert "Moreau Industries" in expand("should I send the new palette over to them today?", context)


def test_the_morning_of_takes_the_bare_event_the_chat_dated() -> None:
    context = said(
        "I'm going under general anaesthetic for knee surgery on Thursday.",
        "Make sure someone can drive you home and stay with you that evening.",
    )
    assert "knee surgery" in expand("can I eat anything the morning of?", context)


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("he removed the token refresh logic from it entirely, is that risky", "is that risky"),
        ("she merged it without a review, is that weird?", "is that weird?"),
    ],
)
def test_a_judgement_of_the_querys_own_deed_keeps_that(query: str, kept: str) -> None:
    context = said("Reviewing a PR from Matteo that refactors our auth middleware.", "Anything worrying you?")
    rewritten = expand(query, context)
    assert rewritten.endswith(kept)
    assert "refactors risky" not in rewritten


def test_a_yes_no_question_ending_on_its_predicate_does_not_make_it_a_noun() -> None:
    context = said("We're moving the database to a managed Postgres next week.", "Plan a maintenance window.")
    rewritten = expand("ok, is that risky?", context)
    assert "risky" in rewritten and "the risky" not in rewritten
    # a wh-question's subject: the last word is the noun "that" determines, not a predicate
    assert "Lima flight" in expand("how long is that flight?", said("We fly to Lima on Friday.", "Pack light."))


def test_would_it_be_adjective_to_is_expletive_and_her_after_email_is_its_object() -> None:
    context = said(
        "My thesis advisor, Professor Haddad, wants the full literature review by Friday.",
        "That's a tight turnaround. How far along are you?",
    )
    rewritten = expand("About halfway. Would it be bad to email her asking for an extension until Monday?", context)
    assert rewritten == "About halfway. Would it be bad to email Haddad asking for an extension until Monday?"


def test_her_before_a_gerund_is_still_possessive_without_a_verb_of_messaging() -> None:
    context = said("Lena sang at the open mic last night.", "How did it go?")
    assert "Lena's singing" in expand("did people like her singing?", context)


def test_a_common_word_opening_a_sentence_is_no_name_in_the_query() -> None:
    context = said("Our landlord, Mrs Patel, is raising the rent.", "By how much?")
    assert "Mrs Patel" in expand("About 8%. Should I ask her to reconsider?", context)
    # a name after a full stop still names the query's own antecedent
    assert expand("Spoke to Ana. Maria said she can come.", context) == "Spoke to Ana. Maria said she can come."


def test_a_named_event_is_nobody_a_personal_pronoun_can_be() -> None:
    context = said("Did you watch the final?", "Yes! That was the second Australian Open title in a row.")
    assert "Australian Open" not in expand("how old is he now", context)


def test_a_lower_case_first_name_and_surname_before_a_deed_are_a_name() -> None:
    context = said(
        "Morning! Want your usual sports roundup?",
        "did you see jannik sinner won in melbourne",
        "Yes! That was his second Australian Open title in a row.",
    )
    assert expand("how old is he now", context) == "how old is Jannik Sinner now"


def test_that_range_is_the_two_amounts_the_chat_gave() -> None:
    context = said("recruiter said the range for the role is 70 to 80k", "Where would you like to land in it?")
    assert "70 to 80k range" in expand("is that range normal for a staff engineer in london", context)


def test_earlier_than_that_compares_with_the_date_the_chat_gave() -> None:
    context = said("the tiler, Ines, is starting on the kitchen on the 8th", "Shall I add it to the calendar?")
    rewritten = expand("ask her if she can start earlier than that", context)
    assert rewritten.endswith("earlier than the 8th")
    assert "during" not in rewritten


@pytest.mark.parametrize(
    ("query", "pointers"),
    [
        ("can she start earlier?", ["she"]),
        ("could we leave a bit earlier", []),
        ("what did we say earlier?", ["earlier"]),
    ],
)
def test_earlier_as_a_comparative_points_at_no_time(query: str, pointers: list[str]) -> None:
    assert [r.text for r in detect(query)] == pointers


def test_a_who_question_without_a_question_mark_is_answered_by_a_name() -> None:
    context = said("who should i captain this gameweek", "Haaland looks best, City are at home to Luton.")
    assert expand("has he been scoring lately", context) == "has Haaland been scoring lately"


def test_a_what_question_without_a_question_mark_does_not_make_a_verb_a_name() -> None:
    context = said(
        "what can i use instead of buttermilk in pancakes",
        "Stir a tablespoon of lemon juice into 250ml of milk and leave it for 10 minutes.",
    )
    assert "Stir" not in expand("does that work with oat milk", context)


def test_that_after_a_verb_that_takes_an_object_determines_its_noun() -> None:
    assert demonstrative_use("that", "buy", "food", "cheaper", set()) == "determiner"
    assert demonstrative_use("that", "buy", "again", "", set()) == "pronoun"  # "buy that again": no noun


def test_the_friday_before_keeps_its_weekday_and_takes_the_event() -> None:
    context = said("The quarterly board meeting is on Oct 15.", "Do you want help preparing the deck?")
    rewritten = expand("Yes please, I need a first draft by the Friday before.", context)
    assert "the Friday before the quarterly board meeting" in rewritten


def test_an_event_confirmed_for_a_span_of_days_in_a_pasted_chat_is_dated() -> None:
    context = [
        {"role": "user", "content": "Ilse: offsite is confirmed for 12–13 june in Ghent"},
        {"role": "user", "content": "Marco: nice, do we need to prep anything"},
    ]
    rewritten = expand("can we do a dry run the friday before", context)
    assert "Friday before offsite" in rewritten


def test_an_event_dated_outright_is_the_anchor_over_one_dated_from_it() -> None:
    context = said(
        "I have jury duty starting Monday the 16th, and my performance review is the Friday after.",
        "Jury duty can last anywhere from a day to several weeks.",
    )
    assert "jury duty" in expand("do I need to tell my employer the week before?", context)


def test_a_participle_and_its_particle_are_no_bare_event() -> None:
    assert event_in("Hamid: the client call got moved to Thursday 3pm")[0] != "moved to"
    assert event_in("I have jury duty starting Monday the 16th.") == ("jury duty", 1.0)


@pytest.mark.parametrize(
    "query",
    [
        "It looks like it'll be really hot on Sunday; what time should I start my long run to avoid the heat?",
        "it's been really humid lately, what size dehumidifier do I need for a one-bedroom flat?",
        "How much does it typically cost to convert a loft in London?",
        "will it be warm enough to swim in Lisbon in early June?",
        "it's almost 6, should I eat before a workout or after?",
        "does research show that standing desks reduce lower back pain",
        "what do they do with old wind turbine blades when they're replaced",
        "how do I store fresh tomatoes so they last longer",
    ],
)
def test_clear_queries_with_weather_cost_choices_and_their_own_plurals_pass_through(query: str) -> None:
    context = said("We're renovating the flat and I'm training for a half marathon.", "Sounds like a busy summer!")
    assert expand(query, context) == query


def test_it_will_be_with_an_adjective_but_no_weather_still_points() -> None:
    assert [r.text for r in detect("it'll be fine once it cools")] == ["it", "it"]


def test_there_after_a_verb_of_going_is_the_destination_not_our_home() -> None:
    context = said("we're thinking about buying a used Tesla Model 3 from a dealer in Phoenix, we live in Tucson")
    rewritten = expand("is it worth driving there to see it in person first?", context)
    assert "driving to Phoenix" in rewritten
    assert "Tesla Model 3" in rewritten


def test_whats_there_to_see_is_still_existential() -> None:
    context = said("We land in Lisbon on Friday.", "Lovely city!")
    assert expand("what's there to see?", context).startswith("what's there to see")


def test_staying_there_is_the_city_not_the_firm_at_it() -> None:
    context = said("I've got an interview at Spotify in Stockholm on the 21st!", "Congratulations!")
    assert "stay in Stockholm" in expand("what's a good area to stay there the night before", context)


def test_it_happening_is_the_event_not_the_place() -> None:
    context = said(
        "We're staying in Hoi An for four nights starting the 2nd.",
        "Lovely! The Full Moon Lantern Festival might coincide with your stay.",
    )
    rewritten = expand("is it happening while we're there?", context)
    assert "Lantern Festival happening" in rewritten
    assert "in Hoi An" in rewritten


def test_at_the_moment_is_now_and_then_too_is_the_time_told() -> None:
    assert "at the moment" not in [r.text for r in detect("is that kind of increase normal at the moment?")]
    context = said("we had a 9 hour power cut last night", "That's a long one. Anything affected?")
    assert "power cut" in expand("the fridge was off then too, is the milk ok?", context)


def test_they_failing_are_the_things_that_fail_not_the_system_they_run_on() -> None:
    context = said(
        "the playwright e2e tests pass locally but 3 of them fail on CI",
        "Common causes are timing differences and missing fonts on the CI image.",
    )
    rewritten = expand("could they be failing because of the cookie consent banner?", context)
    assert "tests be failing" in rewritten


def test_those_two_are_the_two_names_joined_or_the_two_picked_from_a_list() -> None:
    named = said(
        "the app wont connect to postgres in staging",
        "DATABASE_URL and PGSSLMODE aren't set in the staging environment; your local .env has both.",
    )
    wanted = "add DATABASE_URL and PGSSLMODE to the staging secrets"
    assert expand("add those two to the staging secrets", named) == wanted
    picked = said(
        "Lotte's exams: maths monday, german tuesday, physics thursday, history friday",
        "Want a revision plan?",
        "yes but only for the first and the last, she's fine with the others",
    )
    rewritten = expand("build a revision timetable for those two", picked)
    assert "maths" in rewritten and "history" in rewritten and "german" not in rewritten


def test_the_big_day_is_the_day_of_the_event_the_chat_is_about() -> None:
    context = said(
        "Nadia's wedding is 14 September, the hen do is 30 August and the rehearsal dinner is the 13th",
        "Want all three in your calendar?",
    )
    rewritten = expand("yes, and book me a hair appointment for the morning of the big day", context)
    assert "the big day (Nadia's wedding on 14 September)" in rewritten


def test_a_noun_in_eed_is_no_past_tense() -> None:
    context = said(
        "any dogs at the shelter that would suit me?",
        "They have Dash, a 3-year-old retired racing greyhound; they're usually calm indoors.",
    )
    assert expand("is that breed ok in a small flat", context) == "is the greyhound breed ok in a small flat"
    assert looks_verbal("agreed") and looks_verbal("proceed") and not looks_verbal("breed")


def test_a_role_noun_after_the_makes_a_compound_not_a_name_in_lower_case_chat() -> None:
    assert truecase("where are we on the vendor project?") == "where are we on the vendor project?"
    assert truecase("ask the plumber gareth") == "ask the plumber Gareth"


def test_they_who_ask_is_no_country() -> None:
    context = said("I submitted the visa application for Japan on 4 May", "Which embassy?", "the one in Lisbon")
    rewritten = expand("did they ask for anything else after that?", context)
    assert not rewritten.startswith("did Japan")
    assert "4 May" in rewritten


def test_replace_it_is_the_part_that_gave_out_unless_repair_is_weighed_against_it() -> None:
    context = said("my Skoda's battery died twice this week", "How old is the battery?", "five years, the original one")
    assert expand("should I replace it myself?", context) == "should I replace the battery myself?"
    boiler = said(
        "our boiler is about 12 years old, and the pressure keeps dropping",
        "A slow pressure drop usually points to a failing expansion vessel. Get an engineer to look at the boiler.",
    )
    assert "expansion vessel" not in expand("is it even worth repairing or should i just replace it", boiler)


def test_her_before_a_preposition_is_an_object() -> None:
    context = said("need a birthday present for my niece, she's turning 12", "A drawing tablet would be a hit.")
    assert "niece's" not in expand("which tablet would be best for her under 100 euros", context)


def test_that_place_is_the_name_set_after_a_comma() -> None:
    assert called_place("place", said("theres a new georgian place on Weststraße, Tbilisi Corner")) == "Tbilisi Corner"
    assert called_place("place", said("we went to a bar, Rosa was there")) is None


def test_a_double_first_name_opening_a_sentence_is_a_person() -> None:
    context = said(
        "Mei-Ling on the data team built a dbt model that feeds the churn dashboard",
        "Got it. Check the model's tests.",
        "she's in the tokyo office so timezones are tricky",
    )
    assert expand("ask her whether the incremental filter changed recently", context).startswith("ask Mei-Ling ")
    assert gender_of("Jean-Pierre") == "m"


def test_renew_it_takes_the_agreement_or_certificate_the_chat_named() -> None:
    context = said(
        "the cert for api.paygrid.io expires on the 22nd, renewal isn't automated yet",
        "Make sure whoever runs the drill has the runbook open and a rollback plan.",
    )
    rewritten = expand("draft a msg reminding me to renew it", context)
    assert "renew the cert" in rewritten and "rollback plan" not in rewritten


@pytest.mark.parametrize(
    "query",
    [
        "if we cut the retention to 3 days roughly how much disk would that free up",
        "if I move the standup to 10, will that clash with anything",
    ],
)
def test_that_after_the_querys_own_condition_is_the_condition(query: str) -> None:
    context = said("Kafka keeps 14 days of logs on the brokers.", "Disk is at 85%.")
    assert expand(query, context) == query


def test_that_before_a_phrasal_verb_after_an_auxiliary_is_its_subject() -> None:
    assert demonstrative_use("that", "would", "free", "up", set()) == "pronoun"


def test_the_place_we_booked_is_what_the_chat_booked() -> None:
    context = said("booked a cabin at Loch Tay for our anniversary in may", "Lovely spot.", "we'll bring Ziggy")
    wanted = "does the place we booked (cabin at Loch Tay) allow dogs"
    assert expand("does the place we booked allow dogs", context) == wanted


def test_that_change_is_the_course_someone_suggested() -> None:
    context = said("Siobhan suggested we move standup to 9:45", "Is everyone ok with it?", "Arjun isn't")
    assert expand("When would that change start?", context) == "When would the change to move standup to 9:45 start?"
    assert demonstrative_use("that", "would", "change", "start", set()) == "determiner"

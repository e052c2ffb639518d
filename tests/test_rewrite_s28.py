"""Query rewriting, seventh pass: remedies, choices, which thing by the query's own words, people and time."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite import detect
from mnemo.retrieve.rewrite.advice import advised_action
from mnemo.retrieve.rewrite.aged import aged_kind
from mnemo.retrieve.rewrite.alternatives import alternative_pair
from mnemo.retrieve.rewrite.asked import when_question_event
from mnemo.retrieve.rewrite.endorsed import endorsed
from mnemo.retrieve.rewrite.picks import other_than_used
from mnemo.retrieve.rewrite.possessed import kin_names
from mnemo.retrieve.rewrite.recommended import recommended
from mnemo.retrieve.rewrite.relative import instance_of
from mnemo.retrieve.rewrite.temporal import event_in
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("query", "noun"),
    [
        ("will that handle rows with a null id", None),  # the subject, then its verb and object
        ("can that run on an arm laptop", None),
        ("isnt that slower though", None),  # a comparative: no noun
        ("is that cheaper than renting", None),
        ("will that bug come back", "bug"),  # a noun, then the verb
        ("does that setting persist", "setting"),
    ],
)
def test_a_verb_or_comparative_after_that_is_no_noun(query: str, noun: str | None) -> None:
    found = [r for r in detect(query, "") if r.kind == "demonstrative"]
    assert found and found[0].noun == noun


def test_a_comparative_before_one_stays_in_the_phrase() -> None:
    assert [r.text for r in detect("is that bigger one in stock", "")] == ["that bigger one"]


@pytest.mark.parametrize(
    ("reply", "remedy"),
    [
        ("Convert it with `df.astype('int64')` before the merge.", "df.astype('int64')"),
        ("That's the lockfile. You can run yarn install --frozen-lockfile to stop that.", "--frozen-lockfile"),
        ("Then wrap the call in `retry(3)` and log each failure.", "retry(3)"),
        ("That sounds like a tight hamstring. Stretch it gently every morning.", None),  # no code
    ],
)
def test_the_remedy_is_the_code_of_the_first_advice(reply: str, remedy: str | None) -> None:
    assert recommended(said("the import fails on some rows", reply)) == remedy


def test_no_remedy_when_the_user_spoke_last() -> None:
    assert recommended(said("x", "Use `jq -r` for that.", "ok")) is None


def test_that_after_an_answer_is_its_remedy_not_the_pasted_error() -> None:
    context = said(
        "my script dies with 'UnicodeDecodeError: invalid start byte' when it reads the csv",
        "The file is probably Latin-1. Open it with `open(path, encoding='latin-1')` instead of the default.",
    )
    assert "encoding='latin-1'" in expand("will that work for every row", context)


def test_a_flag_is_a_candidate_for_that_flag() -> None:
    context = said(
        "pushing to the shared branch fails, someone else pushed first",
        "Rebase onto theirs; to overwrite, push with git push --force-with-lease rather than plain force.",
    )
    assert "--force-with-lease" in expand("is that flag safe on main", context)


def test_a_flag_inside_a_quoted_command_stays_with_the_command() -> None:
    context = said(
        "how do i squash my branch",
        "Run 'git merge --squash feature' from main, then commit once.",
    )
    assert "git merge --squash" in expand("what does that command do to the history", context)


@pytest.mark.parametrize(
    ("message", "event"),
    [
        # chat drops its subject: "had ..." is the speaker's own deed
        ("had my gallbladder out on 9 june", "when I had my gallbladder out"),
        # an irregular past tense dates the clause too
        ("we cut over the payroll system to the new provider on 1 April", "when we cut over the payroll system"),
        # a second deed joined to the dated one belongs to the event
        ("i crashed my bike in 2019 and broke my wrist", "when i crashed my bike and broke my wrist"),
        # and so does the purpose after the date
        ("took Pepper to the groomer on friday for her nails", "when I took Pepper to the groomer for her nails"),
    ],
)
def test_the_dated_deed_keeps_what_was_done(message: str, event: str) -> None:
    found, _ = event_in(message)
    assert found is not None and found.startswith(event)


def test_after_that_names_the_surgery_not_only_its_date() -> None:
    context = said(
        "had a hip replacement on 2 may",
        "The first weeks focus on walking with support and the exercises your physio gave you.",
    )
    rewritten = expand("when can i drive again after that", context)
    assert "hip replacement" in rewritten and "2 may" in rewritten


@pytest.mark.parametrize(
    ("reply", "query", "action"),
    [
        (
            "Slow pages usually come from images. Then serve the hero image as WebP and set width and height on it.",
            "ok do that first",
            "serve the hero image as WebP",
        ),
        (
            "That's a race. The usual fix is to take a row lock with SELECT ... FOR UPDATE before reading the balance.",
            "write to Ines suggesting that",
            "take a row lock with SELECT",
        ),
        (
            "With that much data you could partition the table by month, which keeps indexes small.",
            "try doing that",
            "partition the table by month",
        ),
    ],
)
def test_a_that_for_a_course_of_action_is_the_advice(reply: str, query: str, action: str) -> None:
    context = said("the dashboard is slow", reply)
    assert f"that ({action}" in expand(query, context)


def test_that_as_a_conjunction_after_suggesting_is_left_alone() -> None:
    context = said("the dashboard is slow", "Then serve the hero image as WebP.")
    assert advised_action("is anyone suggesting that we drop images", 24, context) is None


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        # the conversation says "our current one": "one" stands for the noun named before it
        (
            ("we ordered a mattress, the Otty hybrid", "Delivery is usually 5 days.", "good, our current one is lumpy"),
            "can the delivery people take the old one",
            "the old mattress",
        ),
        # something replaced: the new one is of its kind
        (
            ("the wildcard cert expired last night and got replaced by Lina",),
            "when does the new one expire",
            "new cert",
        ),
    ],
)
def test_the_new_or_old_one_takes_the_kind_of_the_replaced_thing(
    turns: tuple[str, ...], query: str, wanted: str
) -> None:
    assert wanted in expand(query, said(*turns))


def test_no_kind_leaves_the_old_one_alone() -> None:
    assert aged_kind("we talked about the weather all afternoon") is None


def test_the_other_one_is_not_the_one_the_query_already_named() -> None:
    context = said(
        "we shortlisted two flats, Ribeira 12 and Bonfim 40",
        "Which way are you leaning?",
        "ok we decided",
    )
    rewritten = expand("tell the Bonfim 40 landlord yes and cancel the viewing for the other one", context)
    assert "Ribeira 12" in rewritten


def test_other_than_used_needs_a_pair_and_one_taken() -> None:
    context = said("choosing between Kestrel and Osprey", "Both are good.")
    assert other_than_used(context, {"kestrel"}) == "Osprey"
    assert other_than_used(context, set()) is None
    assert other_than_used(context, {"kestrel", "osprey"}) is None


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            ("we run two queues, a main one on SQS and a retry one on Redis",),
            "how do i drain the retry one",
            "retry queue",
        ),
        (
            ("i baked two sponge cakes, one with lemon and one with almond",),
            "can the almond one be frozen",
            "almond sponge cake",
        ),
    ],
)
def test_the_word_one_takes_the_counted_kind_of_its_message(turns: tuple[str, ...], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns, "Sounds good."))


def test_a_time_word_before_thing_modifies_it() -> None:
    found = detect("can we book that weekend thing", "a glamping weekend or a cooking class")
    assert [(r.kind, r.text, r.noun) for r in found] == [("demonstrative", "that weekend thing", "thing")]


def test_that_weekend_alone_is_still_a_time() -> None:
    assert [r.kind for r in detect("what did we eat that weekend", "we went to Ghent in May")] == ["temporal"]


def test_a_modified_pro_noun_takes_the_thing_its_modifier_names() -> None:
    context = said("ideas for Ana's birthday?", "A pottery class for two, or a glamping weekend in the Peak District.")
    assert "glamping weekend" in expand("let's book that weekend thing", context)


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            (
                "good walks near Porto?",
                "Two easy ones: the Foz boardwalk, flat and breezy; or the Douro river path to Crestuma.",
            ),
            "is the latter ok with a buggy",
            "Douro river path",
        ),
        (
            ("the dentist offered either a resin filling for 90 or a ceramic inlay for 400", "Both last years."),
            "why is the latter so much more",
            "ceramic inlay",
        ),
        (
            (
                "flooring for a hallway with a dog?",
                "Slate tile or cork. Tile shrugs off claws; cork is warmer.",
                "we like both",
                "Think about warmth and noise then.",
            ),
            "is the former slippery when wet",
            "Slate tile",
        ),
        (
            ("i'm torn between Lisbon and Seville for May", "Both are warm then.", "We'd go by train or bus"),
            "how long is the flight to the latter",
            "Seville",
        ),
    ],
)
def test_former_and_latter_count_the_latest_choice(turns: tuple[str, ...], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns))


def test_alternative_pair_names_each_side() -> None:
    context = said("i can either remortgage with Monzo at 4.1% or stay on the Barclays tracker", "Noted.")
    assert alternative_pair(context) == ["Monzo", "the Barclays tracker"]
    assert alternative_pair(said("should i use uuid4 or ulid for the ids", "Either works.")) == ["uuid4", "ulid"]


@pytest.mark.parametrize(
    ("question", "event"),
    [
        ("when did the club move to the new stadium?", "when the club moved to the new stadium"),
        ("when did my sister get back from Lima", "when my sister got back from Lima"),
        ("when did Java 8 officially lose free updates", "when Java 8 officially lost free updates"),
        ("when was the flood?", "when the flood was"),
        ("what time is it", None),
    ],
)
def test_a_when_question_names_its_event_as_a_clause(question: str, event: str | None) -> None:
    assert when_question_event(question) == event


def test_back_then_after_a_when_question_takes_the_answers_date() -> None:
    context = said("when did the club move to the new stadium?", "In August 2016, after 110 years at the old ground.")
    rewritten = expand("how big were the crowds back then", context)
    assert "2016" in rewritten and "when did" not in rewritten and " In August" not in rewritten


def test_it_after_a_recommendation_is_the_thing_recommended() -> None:
    context = said(
        "what should we use for uptime checks? small team",
        "Uptime Kuma is self-hosted and free; Pingdom is the polished SaaS option.",
        "we self-host everything",
        "Then Uptime Kuma fits well. It runs as one container.",
        "our ops team already uses PagerDuty",
        "Good, that can stay.",
    )
    assert "Uptime Kuma" in expand("can it send alerts to slack", context)


@pytest.mark.parametrize(
    ("reply", "name"),
    [
        ("Then Cloud Run is the better fit.", "Cloud Run"),
        ("Honestly, Litestream is the go-to for that.", "Litestream"),
        ("I'd go with Postgres here.", "Postgres"),
        ("Grafana is great for ops metrics, but less friendly for finance.", None),  # praise, no pick
    ],
)
def test_endorsed_finds_the_pick_not_mere_praise(reply: str, name: str | None) -> None:
    assert endorsed(said("what should we use", reply)) == name


def test_a_team_is_no_it_and_an_acronym_plural_is_several() -> None:
    context = said("the data team reviews PRs on fridays", "The Renovate bot opens the update requests.")
    rewritten = expand("can it batch the updates", context)
    assert "team" not in rewritten and "PRs" not in rewritten


def test_a_contact_clause_says_which_thing() -> None:
    context = said(
        "my brother has had his Moccamaster for ten years",
        "It's a classic drip machine.",
        "a friend suggested a cheap pod machine too",
        "Pod machines are convenient but cost more per cup.",
    )
    assert "Moccamaster" in expand("how much does that machine my brother has cost now", context)


def test_a_clause_word_attached_to_a_phrase_names_it() -> None:
    context = said("we run two queues: rabbitmq for the invoices and sqs for emails", "Fine for now.")
    assert "rabbitmq" in expand("is that queue we use for the invoices overkill", context)


def test_a_modifier_the_chat_wrote_finds_its_sentence() -> None:
    context = said(
        "pulling registry.acme.io/billing-api:2.1.0 fails with forbidden",
        "Check the pull secret.",
        "also the search pod restarts sometimes",
        "Look at its logs.",
    )
    assert "billing-api" in expand("how do i fix that forbidden error", context)


def test_an_instance_given_for_a_noun_is_what_that_noun_names() -> None:
    assert instance_of("plugin", said("you could use a plugin like eslint-plugin-import for that", "ok")) == (
        "eslint-plugin-import"
    )
    context = said("Postgres has no v7 uuids built in; use an extension like pg_uuidv7 or do it in the app.", "ok")
    assert "pg_uuidv7 extension" in expand("how do i enable that extension on rds", context)


def test_cohesion_reads_clauses_not_whole_messages() -> None:
    context = said(
        "Ines runs the backups and Tereza owns the on-call rota",
        "Got it.",
        "Tereza is off until monday",
        "Ok, rota changes wait until she's back.",
    )
    assert "Ines" in expand("ask her to move the backups to 3am", context)


def test_a_she_clause_belongs_to_the_person_named_before_it() -> None:
    context = said(
        "my neighbour Oona has been great since the operation, she waters my plants every day",
        "That's kind.",
        "my nurse Beata says the stitches come out friday",
        "Good news; follow her advice.",
    )
    assert "Oona" in expand("how can i thank her for watering the plants", context)


def test_a_pasted_line_speaks_for_its_label() -> None:
    context = said(
        "house chat:\nMarta: the gas bill is in my name, due monday\nSimi: i'll pay my part tonight",
        "Noted.",
        "Simi also wants to split a cleaner",
        "Could work.",
    )
    assert "Marta" in expand("how much do i owe her for the gas bill", context)


def test_a_named_pet_can_be_she_and_a_capitalised_plural_cannot() -> None:
    context = said(
        "our cat pixel ate a lily leaf an hour ago",
        "Lilies are extremely toxic to cats. Call your vet or an emergency clinic now.",
    )
    rewritten = expand("should i bring her in tonight", context)
    assert "pixel" in rewritten and "Lilies" not in rewritten


def test_a_name_written_only_as_a_place_is_no_one() -> None:
    context = said(
        "my grandfather turns 80 in may",
        "What a milestone! A trip somewhere meaningful to him could be lovely.",
        "he grew up in Valparaíso and hasn't been back in 40 years",
        "A trip back to Valparaíso could mean a lot to him.",
    )
    assert "grandfather" in expand("any nice hotels near his old street there", context)


def test_an_app_named_like_a_person_is_the_app() -> None:
    context = said(
        "my niece loves drawing",
        "Pair a tablet with a free app like Krita and she can start right away.",
    )
    assert "Krita's" not in expand("which tablet would suit her best", context)


def test_a_kin_word_used_as_a_name_is_a_person() -> None:
    context = said(
        "grandpa's 85th is in june and we want to do something special",
        "A family lunch somewhere meaningful to him could be lovely.",
        "he grew up in Cork",
    )
    assert "Grandpa" in expand("would a ferry trip be too much for him", context)
    assert kin_names("Grandma Rosa turns ninety") == []  # a title before her name
    assert kin_names("my mum is coming") == []  # an owned kin word is a phrase


def test_kin_named_apart_do_not_replace_their_group() -> None:
    context = said(
        "my parents both got flu jabs at the pharmacy", "Any side effects?", "dad had a sore arm, mum was fine"
    )
    assert "my parents" in expand("are they due for the covid booster too", context)


def test_a_contraction_without_its_apostrophe_ends_a_phrase() -> None:
    context = said("my landlord still hasnt fixed the shower. he keeps saying next week", "Put it in writing.")
    assert "my landlord" in expand("can you draft an email to him about it", context)


def test_which_of_those_takes_every_item_of_a_list_after_a_colon() -> None:
    context = said(
        "my teacher set three pieces for the exam: Arabesque, Gnossienne and Für Elise",
        "Lovely choices.",
        "i also got a new metronome and some sheet music",
        "Handy.",
    )
    rewritten = expand("which of those has the hardest left hand?", context)
    assert "Arabesque" in rewritten and "Für Elise" in rewritten


def test_a_place_the_chat_later_called_by_name() -> None:
    context = said(
        "we found a tiny taco place near the market, it was called Lupita", "Sounds great.", "going back in may"
    )
    assert "Lupita" in expand("does that place take card", context)


def test_an_ordinal_day_takes_the_month_the_chat_gave_it() -> None:
    context = said(
        "sales dropped on 14 March, finance thinks the import failed",
        "Check the row counts around the 14th against the source.",
    )
    assert "14 March" in expand("and compare with the day before", context)


def test_that_after_a_subordinator_is_a_demonstrative() -> None:
    found = detect("can you grab it thursday since that place closes early friday", "the bakery place")
    assert any(r.kind == "demonstrative" and r.text.startswith("that") for r in found)


def test_a_sentence_adverb_is_no_part_of_a_name() -> None:
    context = said("Ravi: actually Bread Ahead closes at 5 on fridays", "Noted.")
    rewritten = expand("can he get the cake thursday since that place closes early friday", context)
    assert "actually" not in rewritten and "Bread Ahead" in rewritten


def test_a_yesterday_the_chat_also_said_names_its_deed() -> None:
    context = said(
        "yesterday we spent hours tracing the Kafka consumer lag in the orders service",
        "The rebalance storm explained most of it.",
        "ok now the onboarding emails",
    )
    assert "Kafka consumer lag" in expand("what was the fix we found yesterday?", context)


def test_a_state_question_takes_no_remedy() -> None:
    context = said("my fan is loud", "Run `sudo powermetrics --samplers smc` to see the temperatures.")
    assert "powermetrics" not in expand("is that normal for an M1?", context)


def test_a_question_ending_in_or_is_the_choice_for_the_latter() -> None:
    context = said("choosing between Python and Go for the backend", "Both fine.", "and the db, Postgres or MongoDB?")
    assert "MongoDB" in expand("is the latter easier to host?", context)


def test_the_latter_of_two_things_joined_by_and_when_nothing_is_offered_by_or() -> None:
    context = said("the garage says the van needs new tyres now (300) and a clutch soon (900)", "Tyres first.")
    assert "clutch" in expand("can the latter wait until summer?", context)

"""Query rewriting, sixth pass: what a frame names (the part, the old one, a class noun, an instruction),
follow-ups, medicine and time."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.advice import advised
from mnemo.retrieve.rewrite.aged import aged_kind
from mnemo.retrieve.rewrite.classed import class_spans
from mnemo.retrieve.rewrite.dates import times_in
from mnemo.retrieve.rewrite.spares import faulty_part
from mnemo.retrieve.rewrite.temporal import event_in
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("message", "partner"),
    [
        ("yes a call with the bank at 2", "with the bank"),
        ("my performance review with Siddharth on 20 january", "with Siddharth"),
    ],
)
def test_an_event_keeps_whom_it_was_with(message: str, partner: str) -> None:
    found, _ = event_in(message)
    assert found is not None and partner in found


def test_a_partner_stops_before_the_time() -> None:
    found, _ = event_in("a meeting with my landlord at 3 tomorrow")
    assert found == "a meeting with my landlord"


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            ("the printer jams every time", "The pickup roller is probably worn."),
            "how do I order the part?",
            "pickup roller",
        ),
        (
            ("dishwasher shows E24", "Usually a blocked filter, occasionally a failed drain pump."),
            "where do i order the replacement part",
            "replacement drain pump",
        ),
        (
            ("took the car in", "They said it needs a new timing belt."),
            "how much does the part itself cost",
            "the timing belt itself",
        ),
        (
            ("the tap drips", "Then it's probably the ceramic cartridge."),
            "is a replacement expensive",
            "a replacement ceramic cartridge",
        ),
    ],
)
def test_the_part_is_the_component_found_at_fault(turns: tuple[str, str], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns))


@pytest.mark.parametrize(
    "query",
    ["what part of lisbon should we stay in", "i loved the part where she leaves", "is a replacement worth it"],
)
def test_a_part_with_its_own_complement_or_no_fault_stays(query: str) -> None:
    context = said("we watched the film in lisbon last night", "Glad you liked it! The ending divides people.")
    assert expand(query, context) == query


def test_a_part_never_runs_across_a_line() -> None:
    assert faulty_part("it needs a new timing belt\nTiming belts on the Fiesta last 10 years") == "timing belt"


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            ("our new sofa comes thursday and the old one goes to Esme", "Nice."),
            "how do i get the old one down the stairs",
            "the old sofa",
        ),
        (
            ("we bought a new boiler", "Good, the old boiler was 20 years old."),
            "can the new one be serviced yearly",
            "the new boiler",
        ),
    ],
)
def test_the_old_one_is_the_kind_written_beside_new(turns: tuple[str, str], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns))


def test_the_old_one_with_no_kind_beside_an_age_word_stays() -> None:
    query = "whats the best way to get the old one down the stairs"
    assert expand(query, said("we picked a sofa in clay velvet", "Lovely choice.")) == query


def test_an_age_word_before_a_verb_names_one_word() -> None:
    assert aged_kind("the new sofa arrives on friday") == "sofa"
    assert aged_kind("the new composite index makes it redundant") == "composite index"


@pytest.mark.parametrize(
    ("question", "follow_up", "wanted"),
    [
        ("how much paracetamol can an adult take in one day", "and for a 6 year old", "can a 6 year old take"),
        ("how many hours before a blood test do i need to fast", "and for a thyroid one?", "before a thyroid test"),
    ],
)
def test_a_for_fragment_takes_the_questions_one_indefinite_slot(question: str, follow_up: str, wanted: str) -> None:
    assert wanted in expand(follow_up, said(question, "Usually 10 to 12 hours."))


def test_on_it_is_the_medicine_the_conversation_put_someone_on() -> None:
    context = said(
        "the doctor put me on amoxicillin for a sinus infection",
        "Finish the full course.",
        "can i take ibuprofen for the headache",
        "Generally yes, ibuprofen doesn't interact with it.",
    )
    assert "amoxicillin" in expand("can i have a beer while im still on it", context)


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            ("my landlord wants to raise the rent by 18%", "A large increase can be legal there."),
            "can i fight that increase",
            "the rent increase",
        ),
        (
            ("the council will reduce the bins to fortnightly", "That saves money."),
            "when does that reduction start",
            "the bins reduction",
        ),
    ],
)
def test_an_amount_change_is_of_what_the_chat_raised_or_cut(turns: tuple[str, str], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns))


def test_a_diagnosis_with_the_same_head_replaces_the_description() -> None:
    context = said("tiny black flies around the kitchen sink, kind of furry", "Those are almost certainly drain flies.")
    assert "drain flies" in expand("are those dangerous for my cat", context)
    plain = said("tiny black flies around the kitchen sink", "They breed in the film inside drains.")
    assert "drain flies" not in expand("are those dangerous for my cat", plain)


def test_a_version_number_is_no_day_and_a_starting_event_is_dated() -> None:
    assert times_in("code freeze for the 5.0 release starts on the 20th") == ["on the 20th"]
    found, _ = event_in("code freeze for the 5.0 release starts on the 20th")
    assert found == "code freeze for the 5.0 release"
    context = said("code freeze for the 5.0 release starts on the 20th", "Good to plan around.")
    assert "code freeze" in expand("can we still merge bug fixes after that", context)


def test_new_years_day_without_an_apostrophe_is_a_date() -> None:
    assert times_in("quit smoking on new years day, so about 6 weeks now") == ["on new years day"]


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            ("two offers, Zalando in Berlin and a fintech in Tallinn", "The fintech's backend is in Rust."),
            "whats the cost of living in that city compared to berlin",
            "in Tallinn compared",
        ),
        (
            ("my 7yo wants swimming or judo on saturdays", "Both are great."),
            "when do kids get their first belt in the martial art",
            "judo",
        ),
        (
            ("saw a green velvet sofa for 899", "Velvet can be tricky with pets."),
            "is that fabric scratch resistant",
            "elvet fabric",
        ),
    ],
)
def test_a_class_noun_takes_the_member_the_chat_named(turns: tuple[str, str], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns))


def test_a_class_noun_the_chat_wrote_itself_is_left_to_other_rules() -> None:
    assert class_spans("is the city safe at night", "we loved the city of Porto") == []


def test_a_follow_up_swaps_the_word_of_its_own_kind() -> None:
    context = said("can dogs eat grapes", "No, grapes can cause kidney failure in dogs.")
    assert expand("what about cats", context) == "can cats eat grapes"
    assert expand("what about raisins", context) == "can dogs eat raisins"


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            (
                "how do i undo my last commit but keep the changes",
                "Run git reset --soft HEAD~1. It keeps the changes staged.",
            ),
            "does that still work if i already pushed it",
            "git reset --soft HEAD~1 still work",
        ),
        (
            ("whats a good stretch for lower back pain", "Try the knee-to-chest stretch: lie on your back and hold."),
            "how many times a day should i do that",
            "knee-to-chest stretch",
        ),
    ],
)
def test_that_done_after_an_instruction_is_the_instruction(turns: tuple[str, str], query: str, wanted: str) -> None:
    assert wanted in expand(query, said(*turns))


def test_an_instruction_that_answered_no_question_is_no_antecedent() -> None:
    context = said("my back hurts after sitting all day", "Try the knee-to-chest stretch.", "ok")
    assert advised(context) is None


@pytest.mark.parametrize(
    ("turns", "query"),
    [
        (("we use pandas and numpy at work", "Both are solid."), "what time does the library close on sundays"),
        (("my Monzo card is frozen", "Call their support."), "is the bank holiday this monday"),
        (
            ("the washing machine has a failed carbon brush", "Easy to replace."),
            "is the part time job at currys still open",
        ),
        (("the boiler needs a new pump", "A plumber can fit it."), "can the school get a replacement teacher quickly"),
        (("the boiler might have a leaking valve", "Get it checked."), "can i fit a spare key box myself"),
        (("is it worth getting a dashcam?", "Yes, insurers like them."), "and for a learner driver?"),
    ],
)
def test_review_misfires_of_the_sixth_pass_stay_fixed(turns: tuple[str, str], query: str) -> None:
    out = expand(query, said(*turns))
    assert not any(
        w in out for w in ("numpy", "Monzo bank", "brush time", "pump teacher", "valve key", "getting a learner")
    )


def test_a_for_fragment_after_a_question_typed_without_an_apostrophe() -> None:
    context = said("whats the recommended dose of melatonin for jet lag", "For adults, 0.5 to 3 mg.")
    assert expand("and for a 10 year old", context) == "whats the recommended dose of melatonin for a 10 year old"


def test_a_follow_up_one_keeps_the_questions_head() -> None:
    context = said("how long should i roast a 2kg chicken at 200C", "About 1 hour 20 minutes.")
    assert expand("and a 3kg one", context) == "how long should i roast a 3kg chicken at 200C"


def test_a_quoted_new_part_is_the_part() -> None:
    context = said(
        "check engine light again", "What code?", "P0171, they quoted me for a new MAF sensor", "Often a vacuum leak."
    )
    assert "the MAF sensor cost" in expand("how much does the part cost usually", context)


@pytest.mark.parametrize(
    ("turns", "query", "wanted"),
    [
        (
            (
                "terraform wants to replace the RDS instance",
                "Pin engine_version first.",
                "ok done",
                "Then set allow_major_version_upgrade = true on the resource.",
            ),
            "does that setting cover minor upgrades",
            "allow_major_version_upgrade setting",
        ),
        (
            ("i committed .env with api keys", "Run `git filter-repo --path .env --invert-paths`, then force-push."),
            "does that command also rewrite the tags",
            "git filter-repo",
        ),
    ],
)
def test_that_setting_or_command_is_the_identifier_or_command_line(
    turns: tuple[str, str], query: str, wanted: str
) -> None:
    assert wanted in expand(query, said(*turns))


def test_that_part_is_the_replaceable_component() -> None:
    context = said(
        "the kitchen faucet drips, its a single-handle Moen", "Moen faucets use a replaceable cartridge, the 1225."
    )
    assert "the cartridge" in expand("where do i buy that part", context)


def test_a_question_after_a_statement_takes_a_follow_up() -> None:
    context = said(
        "I'm German, do I need a visa for 2 weeks in Vietnam", "German citizens can enter visa-free for 45 days."
    )
    assert "visa for 2 weeks in cambodia" in expand("what about cambodia", context)


def test_that_which_kicks_in_is_the_medicine_given() -> None:
    context = said("she has a fever, i have children's ibuprofen", "Dose by weight: about 5ml.", "just gave it to her")
    assert "ibuprofen kicks in" in expand("how long before that kicks in", context)


def test_a_measured_item_keeps_what_it_measures() -> None:
    context = said(
        "my physio gave me two options: a cortisone shot or six weeks of resistance band exercises", "Both work."
    )
    assert "six weeks of resistance band exercises" in expand("does insurance usually cover the latter", context)


def test_that_one_after_a_verb_before_one_is_the_thing_recommended() -> None:
    context = said(
        "looking for a stroller that folds one-handed",
        "The Babyzen YOYO2 and the GB Pockit+ are the most compact.",
        "our sidewalks are cracked",
        "Then I'd lean toward the YOYO2.",
    )
    assert "YOYO2" in expand("does that one work with a car seat adapter", context)


def test_those_two_are_the_two_code_spans_of_the_reply() -> None:
    context = said(
        "the /reports view runs 400 queries",
        "Add `select_related('customer')` for foreign keys and `prefetch_related('line_items')` for reverse relations.",
    )
    assert expand("whats the difference between those two", context) == (
        "whats the difference between select_related and prefetch_related"
    )

"""Query rewriting: "take it" takes the medicine the conversation named, not the body part or the
symptom mentioned after it."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.health import body_part, medicine_like, taken
from mnemo.retrieve.rewrite.reference import Reference
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


def ref_in(query: str, word: str = "it") -> Reference:
    start = query.index(f" {word} ") + 1
    return Reference(word, "thing", start, start + len(word))


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("should i take it with food", True),
        ("ok to keep taking it in the evening", True),
        ("can it be taken at night", True),
        ("can i take it back without a receipt", False),
        ("should i take it to the repair shop", False),
        ("does it hurt much", False),
    ],
)
def test_taking_it_as_a_medicine(query: str, expected: bool) -> None:
    assert taken(query, ref_in(query)) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("lisinopril", True),
        ("my atorvastatin", True),
        ("Omeprazole", True),
        ("vitamin d", True),
        ("the antibiotics", True),
        ("the stomach", False),
        ("the reason", False),
        ("my ankle", False),
    ],
)
def test_what_looks_like_a_medicine(text: str, expected: bool) -> None:
    assert medicine_like(text) is expected


def test_take_it_is_the_medicine_not_the_later_body_part() -> None:
    context = said(
        "my mum was started on lisinopril on monday for her blood pressure",
        "Lisinopril is commonly started at a low dose; a dry cough is the side effect people notice most.",
        "yeah she mentioned her throat being a bit scratchy",
    )
    assert "Lisinopril" in expand("can it be taken at bedtime instead", context)
    out = expand("can she take it at bedtime instead", context)
    assert "my mum" in out and "Lisinopril" in out  # a drug opening a sentence is no "she"


def test_a_drink_with_it_is_had_with_the_named_medicine() -> None:
    context = said(
        "my grandad has just been put on simvastatin",
        "That's a common statin; it's usually taken in the evening.",
        "he spends all day in the garden",
    )
    out = expand("can he have orange juice with it", context)
    assert "simvastatin" in out and "garden" not in out.split("with")[-1]


def test_take_it_back_is_no_medicine() -> None:
    context = said(
        "bought a toaster at Argos and i've got amoxicillin for a tooth infection",
        "Hope the tooth settles soon. Is the toaster not working?",
        "the toaster burns everything",
    )
    assert "amoxicillin" not in expand("can i take it back without the box", context).lower()


def test_a_drug_named_in_lower_case_is_a_candidate() -> None:
    context = said("the gp put me on lansoprazole for the heartburn", "Take it before breakfast for best effect.")
    assert "lansoprazole" in expand("is there anything cheaper than that drug", context)


def test_icing_it_tends_the_body_part() -> None:
    context = said(
        "my right ankle rolled on a kerb yesterday, a bit swollen",
        "If you can walk on it, it's probably a mild sprain. Keep it moving gently.",
        "i cycle about 80k a week",
    )
    out = expand("should i ice it before riding", context)
    assert "ankle" in out and "80k" not in out


@pytest.mark.parametrize(
    ("text", "part"), [("my left knee clicks", "knee"), ("the parcel", ""), ("sore heels", "heels")]
)
def test_body_part_names_the_part(text: str, part: str) -> None:
    assert body_part(text) == part


def test_the_next_dose_is_of_the_medicine_named() -> None:
    context = said(
        "my son has a temperature of 38.9 and i have some ibuprofen",
        "For a 6-year-old, check the dosing chart on the box; space doses at least 4 hours apart.",
        "gave it to him at 3pm",
    )
    out = expand("when can the next dose be", context)
    assert "the next dose of ibuprofen" in out


def test_the_dose_without_a_named_medicine_is_left_alone() -> None:
    context = said("my cat hates her tablets", "Try hiding them in a pill pocket treat.")
    query = "when can the next dose be"
    assert expand(query, context) == query


def test_this_pill_is_the_medicine_named_not_the_pharmacy() -> None:
    context = said(
        "picked up my citalopram repeat prescription from the pharmacy",
        "Good. Keep taking it at the same time each day.",
        "the pharmacy had changed supplier apparently",
    )
    assert "citalopram" in expand("why does this pill look different", context)


def test_that_level_is_the_measured_thing_not_its_unit() -> None:
    context = said(
        "my ferritin came back at 9",
        "Ferritin under 15 ng/mL usually means low iron stores; your GP may suggest tablets.",
    )
    out = expand("is that level worrying", context)
    assert "ferritin" in out.lower() and "ng/mL" not in out


def test_a_supplement_in_lower_case_is_what_one_takes() -> None:
    context = said(
        "how much ashwagandha should i have",
        "Studies often use 300 to 600 mg a day of root extract; it's the usual range.",
    )
    assert expand("does it matter what time i take it", context) == "does it matter what time i take ashwagandha"


def test_a_drug_ruled_out_is_not_what_it_is() -> None:
    context = said(
        "what can i take for reflux that isn't omeprazole?",
        "Lansoprazole is a common alternative; take it before breakfast.",
    )
    assert "Lansoprazole" in expand("how fast does it start working", context)

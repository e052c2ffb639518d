"""Query rewriting, ninth pass: person nouns, agents, shared heads."""

from __future__ import annotations

import pytest

from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


def test_a_name_called_after_a_person_noun_is_a_person() -> None:
    # "a dog walker called Aisha": Aisha is the walker; the dog's name is not who "she" is
    context = said(
        "We hired a new dog walker called Aisha for Biscuit.", "Nice! How often will she come?", "mon wed fri"
    )
    out = expand("ok and does she have a key yet", context)
    assert "Aisha" in out
    assert "Biscuit" not in out


def test_a_thing_called_by_a_name_is_still_no_person() -> None:
    context = said("My sister told me about a budgeting app called Monzo.", "Nice, how do you like it?")
    assert expand("did she recommend it", context).startswith("did my sister recommend")


def test_they_who_send_are_an_organisation_not_a_counted_group_of_things() -> None:
    context = said(
        "Kestrel Security finished the audit and found three medium-risk issues.",
        "Do you want me to track the three issues as tasks?",
    )
    out = expand("Yes — and when are they sending the final report?", context)
    assert "Kestrel Security" in out
    assert "issues sending" not in out


def test_they_that_keep_are_still_the_things() -> None:
    context = said("I bought two tubs of hummus for the party.", "Nice!")
    assert "tubs" in expand("how long do they keep in the fridge", context)


@pytest.mark.parametrize(
    ("query", "kind"),
    [("is the first one painful", "the rabies vaccine"), ("is the second one painful", "the leptospirosis vaccine")],
)
def test_an_ordinal_picks_from_two_kinds_of_one_plural_noun(query: str, kind: str) -> None:
    context = said("Luna goes to the vet tomorrow", "She's due her rabies and leptospirosis vaccines.", "right")
    assert kind in expand(query, context)


def test_a_counted_noun_alone_is_not_what_a_demonstrative_adds() -> None:
    # "how many changes" names the changes but not whose: the agreement under discussion is
    context = said(
        "Legal sent back the data processing agreement with redlines.",
        "How many changes did they make?",
        "about a dozen, mostly on liability",
    )
    out = expand("Who needs to sign off on those changes?", context)
    assert "data processing agreement" in out
    assert "many changes" not in out
    assert "dozen changes" not in out

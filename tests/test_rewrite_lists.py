"""Query rewriting: picking from a list the conversation gave ("the middle one", "the second one",
"the sso one", "the other"), including inline lists whose items carry asides in brackets."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.lists import find_list, pick
from mnemo.retrieve.rewrite.picks import item_by_word
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


def test_an_aside_in_brackets_does_not_split_an_inline_list() -> None:
    context = said(
        "any ideas for a rainy saturday in Lisbon",
        "Three I like: the Gulbenkian Museum (huge, calm), the Oceanario (book ahead, it sells out) "
        "and LX Factory (shops, cafes).",
    )
    items = find_list(context)
    assert [i.split()[-1] for i in items] == ["Museum", "Oceanario", "Factory"]
    assert "Oceanario" in expand("how long should we allow for the second one", context)


def test_the_middle_one_is_the_centre_of_an_odd_list_only() -> None:
    assert pick(["Aalto", "Bergen", "Cadiz"], "middle") == "Bergen"
    assert pick(["Aalto", "Bergen", "Cadiz", "Dakar"], "middle") is None  # four have no middle
    context = said(
        "which sourdough starter flour should i buy",
        "You could get Shipton Mill, Marriage's or Doves Farm; all are fine for a starter.",
    )
    assert "Marriage's" in expand("where do i get the middle one", context)


def test_the_x_one_names_the_listed_item_that_has_the_word() -> None:
    context = said(
        "lint it",
        "2 problems: unused_import_os (utils.py) and shadowed_builtin_list (parse.py).",
        "the import one is harmless, leave it",
        "Okay, I'll only touch the other.",
    )
    assert item_by_word("import", context) == "unused_import_os"
    assert item_by_word("parse", context) is None  # a word of an aside, not of an item
    out = expand("actually delete that one too", context)
    assert "unused_import_os" in out


def test_the_other_is_the_item_nobody_took_up_by_a_part_of_its_name() -> None:
    context = said(
        "run the smoke tests",
        "2 failed: billing_retry_loop (timeout) and avatar_upload_size (413 from the proxy).",
        "the avatar one is a proxy limit, ignore it",
        "Noted.",
    )
    out = expand("rerun the other", context)
    assert "billing_retry_loop" in out and "avatar_upload_size" not in out


def test_a_name_after_a_preposition_stays_with_its_item() -> None:
    context = said(
        "two free days in Cork, what trips are worth it",
        "Kinsale (an hour by bus), Cobh (20 minutes by train) or a guided day trip to Skellig Michael.",
    )
    assert find_list(context)[-1] == "a guided day trip to Skellig Michael"
    assert "Skellig Michael" in expand("is the last one ok for kids", context)


def test_the_cheaper_car_is_the_one_the_chat_called_cheaper() -> None:
    context = said(
        "renting a car in Crete for a week, looking at a Fiat Panda or a Jeep Renegade",
        "The Renegade handles the mountain roads better; the Panda is cheaper to hire and to fuel.",
        "we'll mostly stay near Chania",
    )
    assert "Panda" in expand("how much would we save with the cheaper car", context)


def test_a_superlative_of_the_world_is_no_choice() -> None:
    context = said("we're going to Lisbon in may", "Lovely; the Alfama is great for wandering.")
    query = "is it true that Lisbon has the oldest bookshop in the world"
    assert expand(query, context) == query


def test_that_first_workflow_is_the_earliest_file_under_a_workflows_directory() -> None:
    context = said(
        "add a github action that builds the docs",
        "Added .github/workflows/docs.yml: it installs mkdocs and runs mkdocs build.",
        "and one that publishes to pypi on tags",
        "Added .github/workflows/release.yml, triggered on v* tags.",
        "nice, whats our test count now",
        "412 tests, 3 skipped.",
    )
    out = expand("make that first workflow also run on pull requests", context)
    assert ".github/workflows/docs.yml" in out and "release" not in out


def test_rerun_them_is_the_listed_identifiers_without_the_closing_remark() -> None:
    context = said(
        "the nightly build is red",
        "Two tests fail: test_invoice_total and test_invoice_tax, both in tests/test_invoices.py.",
        "is mypy happy at least",
        "Yes, mypy reports no errors.",
    )
    out = expand("ok rerun them with -x", context)
    assert "test_invoice_total and test_invoice_tax" in out and "both in" not in out


def test_a_count_then_a_comma_announces_a_list() -> None:
    context = said(
        "my coach recommended two podcasts, Running Smarter by Ana Silva and The Long Run",
        "Both are good; the second is more interview-based.",
    )
    assert "Running Smarter" in expand("is the first one on spotify", context)


def test_a_numbered_item_keeps_up_to_eight_words() -> None:
    context = said(
        "my phone storage is full",
        "Options: 1) delete old WhatsApp videos, 2) move your camera roll to an external drive weekly, "
        "3) pay for more cloud storage.",
    )
    assert "external drive" in expand("how does the second option work with google photos", context)


def test_the_other_one_is_the_one_of_the_pair_the_last_question_left_out() -> None:
    context = said(
        "torn between the Garmin Forerunner and the Coros Pace",
        "The Forerunner has better maps; the Coros syncs routes via Strava and reads GPX natively.",
        "does the coros do offline maps?",
        "Only breadcrumb routes; there are no full maps.",
    )
    assert expand("and the other one, does it track swimming?", context).startswith("and the Garmin Forerunner,")


def test_a_priced_item_is_what_the_amount_is_for() -> None:
    context = said(
        "comparing gyms near work",
        "Monthly it's about £45 for PureGym, £70 for Third Space once the joining fee is spread, "
        "and £30 for the council leisure centre.",
    )
    assert "Third Space" in expand("does the middle option have a pool", context)


def test_a_rate_after_an_item_is_not_the_item() -> None:
    context = said(
        "i owe £3k on a store card at 29% and a £9k personal loan at 6.5%",
        "Clear the store card first; it costs far more in interest.",
    )
    assert "personal loan" in expand("and when do i start on the other one", context)


def test_the_cheaper_one_is_the_lower_price() -> None:
    context = said(
        "broadband options: Vodafone at £32 a month or Community Fibre at £25 a month",
        "Both are full fibre; Community Fibre has no price rise mid-contract.",
    )
    assert "Community Fibre" in expand("does the cheaper one include a router", context)
    assert "Vodafone" in expand("and the pricier one?", context)


def test_a_price_that_leads_names_the_option_after_it() -> None:
    context = said(
        "where should we stay in Porto",
        "That's about €540 at Hotel Infante or €180 at Casa Ribeira for the three nights.",
    )
    assert "Casa Ribeira" in expand("does the cheaper one have parking", context)

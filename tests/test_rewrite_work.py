"""Query rewriting: what the query does to "it" in software work says which thing it is."""

from __future__ import annotations

import pytest

from mnemo.retrieve.rewrite.candidate import Candidate
from mnemo.retrieve.rewrite.work import fitting_work, worked_on
from tests.test_rewrite import expand, said

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("mark it as xfail", True),
        ("quarantine it for a week", True),
        ("restart it then", True),
        ("can you reload that", True),
        ("can you explain it", False),
        ("start the migration", False),
    ],
)
def test_work_done_to_a_test_or_a_service(query: str, expected: bool) -> None:
    assert worked_on(query) is expected


def test_only_a_kind_the_conversation_has_narrows_the_choice() -> None:
    things = [Candidate("billing/utils.py", "thing"), Candidate("the invoice", "thing")]
    assert fitting_work("restart it", things) == things  # nothing there is a service
    things.append(Candidate("the celery worker", "thing"))
    assert [c.text for c in fitting_work("restart it", things)] == ["the celery worker"]


def test_restart_it_takes_the_service_not_the_log_path() -> None:
    context = said(
        "the site is throwing 502s",
        "Check the error log at /var/log/caddy/error.log; Caddy may have lost its upstream.",
        "yep, upstream connect error in the log",
    )
    assert expand("ok restart it", context) == "ok restart Caddy"

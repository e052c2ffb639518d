"""What the query does to "it" says what kind of thing "it" is, in software work.

"mark it as xfail", "quarantine it" and "rerun it" are done to a test; "restart it", "reload it" and
"stop it" to a running service. Among the things a conversation named (a module, a log path, a test,
a server), the one of that kind is meant. Only a kind the conversation has narrows the choice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mnemo.retrieve.rewrite.candidate import Candidate

from . import cached_re

#: What is done to a test: "mark it as xfail", "skip it in CI", "quarantine it", "rerun it".
_TEST_WORK = re.compile(r"\b(?:xfail|quarantine|deflake|re-?run)\b|\bskip\s+(?:it|that|this)\b", re.IGNORECASE)
#: A test by its name or file: "test_refund_partial", "tests/test_api.py", "checkout.spec.ts", "TestRefunds".
_TEST_NAME = re.compile(r"\btest_\w+|\w+_test\b|\btests?/|\.spec\.|\bTest[A-Z]\w*")
#: What is done to a running service: "restart it", "stop it permanently", "reload it".
_SERVICE_WORK = re.compile(r"\b(?:restart|reload|bounce|stop|start|spin\s+up)\s+(?:it|that|this)\b", re.IGNORECASE)
#: A service by its name or kind: "nginx", "postgres", "the redis container", "the worker pod".
_SERVICE = re.compile(
    r"\b(?:nginx|apache|caddy|traefik|postgres(?:ql)?|mysql|mariadb|redis|memcached|mongo(?:db)?|kafka|rabbitmq"
    r"|elasticsearch|opensearch|gunicorn|uvicorn|celery|sidekiq|docker|containers?|servers?|daemons?|pods?|databases?|db)\b",
    re.IGNORECASE,
)


#: What is done to a job: "rerun it", "trigger it manually", "kick that off", "switch it over and rerun".
_RUN_WORK = re.compile(
    r"\b(?:re-?run|run|trigger|kick\s+off|schedule|re-?schedule)\s+(?:it|that|this)\b|\bre-?run\b", re.IGNORECASE
)
#: A job by its kind: "the nightly backup job", "the deploy pipeline", "the cron", "the export script".
_JOB = re.compile(r"\b(?:jobs?|pipelines?|builds?|workflows?|crons?|cronjobs?|scripts?|backfills?|tasks?)\b", re.I)


_IT = r"(?:it|that|this)"
#: Other work and the kind of thing it is done to: (what the query does, the kind's words).
_KIND_WORK: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (cached_re.compile(work, re.IGNORECASE), cached_re.compile(kind, re.IGNORECASE))
    for work, kind in (
        # "can i roll it back", "revert it": a change that shipped
        (
            rf"\broll(?:ing)?\s+{_IT}\s+back\b(?!\s+up)|\b(?:revert|downgrade)\s+{_IT}\b",
            r"\b(?:migrations?|releases?|deploy(?:ment)?s?|upgrades?|commits?|changes?|rollouts?|v\d[\w.]*"
            r"|[0-9a-f]{7,40})\b",
        ),
        # "push it to the registry": an image
        (rf"\b(?:push|pull|tag|scan)\s+{_IT}\b.*\bregistry\b", r"\b(?:images?|containers?)\b"),
        # "block it in my banking app", "freeze it": a card
        (rf"\b(?:block|freeze|unfreeze|unblock)\s+{_IT}\b(?=.*\b(?:bank|banking|app|card|online)\b)", r"\bcards?\b"),
        # "renew it online": a document or a subscription
        (
            rf"\brenew\s+{_IT}\b",
            r"\b(?:passports?|licen[cs]es?|visas?|insurance|polic(?:y|ies)|subscriptions?|memberships?|certs?"
            r"|certificates?|leases?|domains?|contracts?|prescriptions?|permits?|cards?|tickets?)\b",
        ),
        # "to see if it grows", "what if it spreads": damage or a symptom
        (
            rf"\b(?:see|check|tell|know)\s+(?:if|whether)\s+{_IT}\s+(?:grows|spreads|gets\s+(?:worse|bigger|wider|deeper)|widens)\b"
            rf"|\b{_IT}\s+(?:spreads|gets\s+(?:worse|bigger|wider|deeper)|widens)\b",
            r"\b(?:cracks?|leaks?|stains?|mou?ld|damp|rust|rot|rash(?:es)?|bruises?|swelling|lumps?|moles?|spots?"
            r"|blisters?|infections?|cuts?|wounds?|holes?|dents?|chips?|scratch(?:es)?|bumps?)\b",
        ),
        # "how many tickets have we sold for that": an event, not the venue it is at
        (
            rf"\btickets?\b(?:[^.?!]|\.\b)*\bfor\s+{_IT}\b",
            r"\b(?:concerts?|gigs?|shows?|matche?s?|games?|plays?|festivals?|fundraisers?|part(?:y|ies)|screenings?"
            r"|talks?|recitals?|performances?|musicals?|events?|quiz(?:zes)?|raffles?|dinners?|balls?)\b",
        ),
        # "charge it overnight": a device
        (
            rf"\bcharge\s+{_IT}\b",
            r"\b(?:phones?|laptops?|batter(?:y|ies)|cars?|ev|tablets?|watch|headphones|earbuds|scooters?|bikes?)\b",
        ),
    )
)


def _head(text: str) -> str:
    """The noun a phrase is about, before its attachment: "my debit card from Monzo" -> "card"."""
    return cached_re.split(r"\s+(?:from|in|at|of|for|with|on|to)\s+", text, maxsplit=1)[0].split()[-1]


def worked_on(query: str) -> bool:
    """Whether the query does to its reference what is done to a test, a job, a service or a kind
    of the table above."""
    if _TEST_WORK.search(query) or _SERVICE_WORK.search(query) or _RUN_WORK.search(query):
        return True
    return any(work.search(query) for work, _kind in _KIND_WORK)


def fitting_work(query: str, things: Sequence[Candidate], said: str = "") -> list[Candidate]:
    """The things of the kind the query's work needs, or all of them when none is of that kind;
    ``said`` (the conversation) names jobs by their kind ("the nightly job reindex_products")."""
    if _TEST_WORK.search(query) or _RUN_WORK.search(query):
        tests = [c for c in things if _TEST_NAME.search(c.text)] if _TEST_WORK.search(query) else []
        jobs = [c for c in things if _JOB.search(c.text)] if _RUN_WORK.search(query) else []
        named = [c for c in things if cached_re.search(rf"{_JOB.pattern}\s+{re.escape(c.text)}\b", said, re.I)]
        jobs = named or jobs  # "the nightly job reindex_products": the job by its name
        return tests or jobs or list(things)
    for work, kind in _KIND_WORK:
        if work.search(query) and not _SERVICE_WORK.search(query):
            return [c for c in things if kind.search(_head(c.text))] or list(things)  # "the bike helmet": no bike
    # a path names a file ("/var/log/caddy/error.log"), not the service it belongs to
    return [c for c in things if _SERVICE.search(c.text) and not _FILE.search(c.text)] or list(things)


#: A path or a file ("/var/log/caddy/error.log", "postgresql.conf") names a file, not its service.
_FILE = re.compile(r"/|\.[a-z]{2,4}$")

"""Prototype texts of the five categories, embedded with the store's own embedder.

Each category is described by a definition and short, general examples spread over coding, work
and personal life. A memory's embedding is compared with each category's examples; the texts are
deliberately generic (not taken from any evaluation set) so they describe the kind of memory,
not particular topics.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import numpy as np

from mnemo.embed.base import Embedder, normalise_rows
from mnemo.records import CATEGORIES

PROTOTYPES: Mapping[str, tuple[str, ...]] = {
    "facts": (
        "A fact: an objective statement about a person, the world or a system.",
        "My mother is a retired teacher who lives in Madrid.",
        "I was born in 1988 and grew up in Manchester.",
        "I have a peanut allergy.",
        "My wife works as an accountant.",
        "We have two dogs and a cat.",
        "The user service is written in Java and uses MySQL.",
        "The API returns JSON and paginates with a cursor.",
        "The database server has 64 GB of RAM.",
        "Our team has five developers and one designer.",
        "Carlos is the product manager for the checkout flow.",
        "The office is in the city centre, next to the station.",
        "The project was started in 2019 and is open source.",
        "The config file is stored in /etc/app/config.yaml.",
        "Paris is the capital of France.",
        "The contract ends in December.",
    ),
    "preferences": (
        "A preference: what the user likes or dislikes, their taste and style choices.",
        "I prefer dark mode in all my apps.",
        "I really like Python more than Java.",
        "I love Indian food.",
        "I don't like long meetings.",
        "My favourite colour is green.",
        "I'd rather work in the morning than late at night.",
        "I hate cold weather.",
        "I enjoy reading history books.",
        "I'm not a fan of tabs; spaces look cleaner to me.",
        "I like concise answers.",
        "I prefer tea to coffee.",
        "I find functional style easier to read.",
        "Vim keybindings feel more natural to me.",
        "I like watching football on Sundays.",
    ),
    "skills": (
        "A skill: know-how, how to do something, a procedure or a technique.",
        "To install the dependencies, run npm install in the project folder.",
        "To list running processes, use ps aux.",
        "You can speed up the build by enabling the cache.",
        "Use grep -r to search a directory for a string.",
        "To reset your password, open settings and click forgot password.",
        "How to restart the server: stop the service, then start it again.",
        "If the tests hang, kill the stale process and rerun them.",
        "To make pancakes, mix flour, eggs and milk, then fry in a hot pan.",
        "Boil eggs for seven minutes for a soft yolk.",
        "To change a light bulb, switch off the power first.",
        "Check the logs with journalctl -u service to debug a failing unit.",
        "The trick with sourdough is a long cold fermentation.",
        "Profile the code with cProfile to find the slow functions.",
        "Tighten the screws in a cross pattern so the wheel sits evenly.",
    ),
    "rules": (
        "A rule: an instruction or constraint the assistant must follow.",
        "Always reply in English.",
        "Never delete files without asking me first.",
        "Do not use markdown tables in your answers.",
        "Don't commit to the release branch.",
        "You must cite your sources.",
        "Keep every answer short.",
        "Make sure all code compiles before you show it.",
        "Use four spaces for indentation in this project.",
        "Every change needs a changelog entry.",
        "No meetings on Mondays.",
        "Please address me by my first name.",
        "Do not share my personal data with anyone.",
        "Only use approved libraries.",
        "Ask for confirmation before sending any email.",
    ),
    "context": (
        "Context: the current situation, what the user is working on or going through right now.",
        "I'm currently refactoring the payment module.",
        "Right now I'm fixing a bug in the login page.",
        "This week I'm working on the quarterly report.",
        "We are in the middle of a database migration.",
        "Today the production server is down.",
        "I'm waiting for the code review from my colleague.",
        "At the moment I'm on holiday in Spain.",
        "I'm preparing for a job interview next week.",
        "We're launching the new version tomorrow.",
        "I just started a new job and I'm still onboarding.",
        "The build is broken since this morning.",
        "I'm sick at home today.",
        "These days I'm learning to play the guitar.",
        "Currently renovating the kitchen, so everything is a mess.",
    ),
}


def prototype_matrix(embedder: Embedder) -> tuple[np.ndarray, np.ndarray]:
    """(vectors, category index of each row): every prototype text embedded once."""
    texts: list[str] = []
    labels: list[int] = []
    for index, category in enumerate(CATEGORIES):
        texts.extend(PROTOTYPES[category])
        labels.extend([index] * len(PROTOTYPES[category]))
    vectors = normalise_rows(np.asarray(embedder.embed(texts), dtype=np.float32))
    return vectors, np.asarray(labels, dtype=np.int64)


def prototype_digest() -> str:
    """Changes whenever a prototype text does, so stored prototype vectors are never stale."""
    text = "\n".join(f"{c}\t{t}" for c in CATEGORIES for t in PROTOTYPES[c])
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()

"""Readable bullets: "You live in Seattle", "Anna works at Siemens", from a per-relation template map."""

from __future__ import annotations

#: relation → (form after "You", form after a third-person subject); {o} is the object.
TEMPLATES: dict[str, tuple[str, str]] = {
    "lives_in": ("live in {o}", "lives in {o}"),
    "works_at": ("work at {o}", "works at {o}"),
    "born_in": ("were born in {o}", "was born in {o}"),
    "moved_from": ("moved from {o}", "moved from {o}"),
    "went_to": ("went to {o}", "went to {o}"),
    "participated_in": ("took part in {o}", "took part in {o}"),
    "friend_of": ("are friends with {o}", "is a friend of {o}"),
    "name": ("are called {o}", "is called {o}"),
    "age": ("are {o} years old", "is {o} years old"),
    "has": ("have {o}", "has {o}"),
    "owns": ("own {o}", "owns {o}"),
    "is": ("are {o}", "is {o}"),
}
#: Objects of these relations are names of places, people or organisations: capitalised.
PROPER = frozenset({"lives_in", "works_at", "born_in", "moved_from", "went_to", "friend_of", "name", "participated_in"})


def phrase(subject: str, relation: str, obj: str) -> str:
    you = subject == "you"
    shown = "Your friend" if you and relation == "friend_of" else ("You" if you else _title(subject))
    target = _title(obj) if relation in PROPER else obj
    if you and relation == "friend_of":
        return f"{_title(obj)} is your friend"
    if relation.startswith("favorite_"):
        thing = relation[len("favorite_") :].replace("_", " ")
        return f"{'Your' if you else shown + chr(39) + 's'} favorite {thing} is {target}"
    pair = TEMPLATES.get(relation)
    if pair is None:
        return f"{shown} {relation.replace('_', ' ')}: {target}"
    return f"{shown} {(pair[0] if you else pair[1]).format(o=target)}"


def _title(text: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in text.split())

"""What mnemo has distilled from conversations: facts (subject–relation–object) and categories.

Plain functions over Memory returning JSON-ready dicts, sized like every other listing.
"""

from __future__ import annotations

from typing import Any

from mnemo.api import Memory
from mnemo.errors import InputError
from mnemo.mcp.sizing import budget, fit_entries, json_tokens
from mnemo.mcp.tools import compact, set_fields

#: Keywords shown per subcategory when the whole tree does not fit the budget.
FEW_KEYWORDS = 3


def fact_entry(fact: Any) -> dict[str, Any]:
    """A fact without bookkeeping a model does not need (false flags, weights, first-seen times)."""
    record = fact.as_dict()
    record["provenance"] = record["provenance"][:3]  # ids of the memories it came from
    for flag in ("negated", "hedged", "correction"):
        if not record[flag]:
            del record[flag]
    for noise in ("weight", "lang", "first_seen", "valid_from"):
        record.pop(noise, None)
    return compact(record)


def list_facts(
    memory: Memory,
    *,
    subject: str | None = None,
    relation: str | None = None,
    status: str = "active",
    limit: int = 50,
    max_tokens: int | None = None,
    **scope: str | None,
) -> dict[str, Any]:
    """Stored facts, strongest first; ``status="all"`` includes superseded and stale ones."""
    cap = budget(max_tokens)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 500:
        raise InputError(f"limit must be an integer from 1 to 500, got {limit!r}")
    facts = memory.facts(
        subject=subject,
        relation=relation,
        status=None if status == "all" else status,
        limit=limit,
        **set_fields(**scope),
    )
    kept, omitted = fit_entries([fact_entry(f) for f in facts], cap, field="object")
    return {"facts": kept, "returned": len(kept), "omitted": omitted, "max_tokens": cap}


def categories(
    memory: Memory,
    *,
    evolve: bool = False,
    full: bool = False,
    rename: tuple[str, str] | list[str] | None = None,
    merge: tuple[str, str] | list[str] | None = None,
    max_tokens: int | None = None,
    user_id: str | None = None,
    **scope: str | None,
) -> dict[str, Any]:
    """The category tree with counts in scope. First, if asked: ``rename`` = [path, new name],
    ``merge`` = [source path, target path], ``evolve`` re-grows subcategories."""
    cap = budget(max_tokens)
    result: dict[str, Any] = {}
    if rename is not None:
        old, new = _pair(rename, "rename")
        result["renamed"] = memory.rename_category(old, new, user_id=user_id)
    if merge is not None:
        source, target = _pair(merge, "merge")
        result["merged"] = memory.merge_categories(source, target, user_id=user_id)
    if evolve:
        report = memory.evolve_categories(full=full, user_id=user_id).as_dict()
        result["evolved"] = {k: report[k] for k in ("seconds", "backfilled", "categories")}
    tree = memory.categories(**set_fields(user_id=user_id, **scope))
    result.update(fit_tree(tree, cap - json_tokens(result)))
    return result


def _pair(value: Any, name: str) -> tuple[str, str]:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(isinstance(v, str) for v in value):
        raise InputError(f'{name} takes two texts, e.g. ["skills/pytest", "python_testing"]; got {value!r}')
    return value[0], value[1]


def fit_tree(tree: dict[str, Any], max_tokens: int) -> dict[str, Any]:
    """The tree as is when it fits; else fewer keywords, then the smallest subcategories left out
    (counted per category in ``more_subcategories``)."""
    if json_tokens(tree) <= max_tokens:
        return tree
    slim = {"total": tree["total"], "categories": {}}
    for name, node in tree["categories"].items():
        subs = {
            sub: {**info, "keywords": info["keywords"][:FEW_KEYWORDS]} for sub, info in node["subcategories"].items()
        }
        slim["categories"][name] = {**node, "subcategories": subs}
    while json_tokens(slim) > max_tokens:
        largest = max(slim["categories"].values(), key=lambda node: len(node["subcategories"]))
        if not largest["subcategories"]:
            break
        smallest = min(largest["subcategories"], key=lambda sub: largest["subcategories"][sub]["count"])
        del largest["subcategories"][smallest]
        largest["more_subcategories"] = largest.get("more_subcategories", 0) + 1
    return slim

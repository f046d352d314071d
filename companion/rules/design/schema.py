"""The design format's JSON Schema (schema.json beside this file, published as
docs/design.schema.json) and its validator, whose refusals are turned into plain words.

The validator is fastjsonschema's, compiled once, on the first design checked. Its refusal
("data.moves[0].effects[1].amount must be valid exactly by one definition") becomes a
`DesignError` naming the field in the design's own terms ("moves[0].effects[1].amount: must
be a whole number 1-9999 or "ask", not 0").
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Callable

import fastjsonschema

from companion.errors import DesignError

_TYPES = {"integer": "a whole number", "number": "a number", "string": "text",
          "object": "a table of fields", "array": "a list", "boolean": "true or false",
          "null": "left out"}

# The fields whose schema is a choice (oneOf), by the last part of their path: what they take.
_CHOICES = {
    "amount": "a whole number 1-9999 or \"ask\" (typed at play time)",
    "floor": "a whole number -9999 to 9999, or left out",
    "out_at": "a whole number -9999 to 9999, or left out",
    "pot": "a table with a start amount ({start = 0}), or left out",
    "ask": "a table {min, max} of the number typed at play time, or left out",
    "round_score": "a table {tally, min, max}, or left out",
}


def schema() -> dict[str, Any]:
    """The schema, as the dict schema.json holds (read once, from the package's own file)."""
    return json.loads(_text())


@lru_cache(maxsize=1)
def _text() -> str:
    return resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _validator() -> Callable[[Any], Any]:
    return fastjsonschema.compile(schema())


MAX_DEPTH = 8  # the schema's deepest field is moves[i].effects[j].dice[k]: 6 levels


def validate(obj: Any) -> None:
    """Check `obj` against the schema; raise DesignError naming the first field at fault."""
    _whole_numbers(obj, "", 0)
    try:
        _validator()(obj)
    except fastjsonschema.JsonSchemaValueException as e:
        raise DesignError(*_words(e)) from None


def _whole_numbers(obj: Any, path: str, depth: int) -> None:
    """Refuse a number with a decimal point anywhere (the schema's validator, of draft-07,
    takes 2.0 for a whole number; the format never does: a tally counts in whole numbers, as
    a die's face is of its own kind), and nesting deeper than any field of the format."""
    if depth > MAX_DEPTH:
        raise DesignError(path, f"{path}: nested deeper than any field of a design")
    if isinstance(obj, float):
        raise DesignError(path, f"{path or 'the design'}: must be a whole number, not {obj!r}")
    if isinstance(obj, dict):
        for key, value in obj.items():
            _whole_numbers(value, f"{path}.{key}" if path else str(key), depth + 1)
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            _whole_numbers(value, f"{path}[{i}]", depth + 1)


def _path(e: fastjsonschema.JsonSchemaValueException) -> str:
    name = e.name or "data"
    return name.removeprefix("data").removeprefix(".")


def _words(e: fastjsonschema.JsonSchemaValueException) -> tuple[str, str]:
    """(field, words) for one refusal of the validator."""
    path = _path(e)
    where = path or "the design"
    value, rule, limit = e.value, e.rule, e.rule_definition
    shown_value = ("a table" if isinstance(value, dict) else "a list" if isinstance(value, list)
                   else repr(value))
    if rule == "required" and isinstance(value, dict):
        missing = [k for k in (limit or []) if k not in value]
        return path, f"{where}: missing {missing[0]!r}" if missing else f"{where}: incomplete"
    if rule == "additionalProperties" and isinstance(value, dict):
        known = list((e.definition or {}).get("properties", {}))
        extra = sorted(str(k) for k in value if k not in known)
        return path, (f"{where}: unknown field {extra[0] if extra else '?'!r} "
                      f"(known: {', '.join(known)})")
    if rule == "type":
        want = limit if isinstance(limit, list) else [limit]
        words = " or ".join(_TYPES.get(str(t), str(t)) for t in want)
        return path, f"{where}: must be {words}, not {shown_value}"
    if rule == "oneOf":
        last = path.rsplit(".", 1)[-1].split("[", 1)[0]
        return path, f"{where}: must be {_CHOICES.get(last, 'something else')}, not {shown_value}"
    if rule == "enum":
        return path, (f"{where}: must be one of {', '.join(str(x) for x in limit)}, "
                      f"not {shown_value}")
    if rule == "const":
        if path == "format_version":
            return path, f"format_version: must be {limit} (the one format there is), not " \
                         f"{shown_value}"
        return path, f"{where}: must be {limit!r}, not {shown_value}"
    if rule in ("minimum", "maximum"):
        side = "at least" if rule == "minimum" else "at most"
        return path, f"{where}: must be {side} {limit}, not {shown_value}"
    if rule == "minLength":
        return path, f"{where}: must not be empty"
    if rule == "maxLength":
        return path, f"{where}: is longer than {limit} characters"
    if rule == "minItems":
        return path, f"{where}: needs at least {limit}"
    if rule == "maxItems":
        count = len(value) if isinstance(value, list) else "more"
        return path, f"{where}: has {count}, at most {limit}"
    if rule == "uniqueItems":
        return path, f"{where}: lists the same thing twice"
    if rule == "pattern":
        return path, f"{where}: must be a colour like #3366cc, not {shown_value}"
    return path, f"{where}: {shown_value} is not allowed here"

"""A small validator for the part of JSON Schema (2020-12) that letras's own schemas use.

The documents letras reads from strangers (saved games) are checked against a JSON Schema
shipped in the package before any value is used, so a bad document is refused with the place and
the reason, and nothing else sees it. The core cannot depend on ``jsonschema`` (a development
tool here: docs/design.md 2), so this module reads the schema itself. It knows ``type``,
``enum``, ``const``, ``minimum``, ``maximum``, ``minLength``, ``maxLength``, ``minItems``,
``maxItems``, ``properties``, ``required``, ``additionalProperties``, ``items``,
``prefixItems``, ``allOf``, ``anyOf``, ``if``/``then`` and ``$ref`` to ``#/$defs/...``;
annotations (``description``, ``title``, ``$schema``, ``$id``, ``$comment``) are skipped. A
schema with any other keyword is refused, so the schema never says more than is checked.

Two points are stricter than the standard: a ``number`` is finite (JSON has no infinity, but
Python's reader turns ``1e400`` into one), and a message never quotes a value, only its kind (a
value may be huge). ``tests/test_hostile_games.py`` checks that ``jsonschema`` agrees.

>>> schema = {"type": "object", "required": ["n"], "additionalProperties": False,
...           "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 3}}}
>>> problem(schema, {"n": 2}) is None
True
>>> problem(schema, {"n": 1.7})
('n', 'a number where an integer is expected')
>>> problem(schema, {"n": True})
('n', 'a boolean where an integer is expected')
>>> problem(schema, {"m": 1})
('', "'n' is missing")
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

ANNOTATIONS = frozenset({"description", "title", "$schema", "$id", "$comment", "$defs"})
KEYWORDS = frozenset({
    "type", "enum", "const", "minimum", "maximum", "minLength", "maxLength", "minItems",
    "maxItems", "properties", "required", "additionalProperties", "items", "prefixItems",
    "allOf", "anyOf", "if", "then", "$ref",
}) | ANNOTATIONS

Problem = tuple[str, str]
"""Where (a path such as ``moves[3].player``; empty for the document) and why."""


def kind_of(value: object) -> str:
    """The JSON kind of a value, in words (never the value itself)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number" if math.isfinite(value) else "a number that is not finite"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return f"a Python {type(value).__name__}"


def _is(value: object, name: str) -> bool:
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and math.isfinite(value) and value.is_integer())
    if name == "number":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and math.isfinite(value))
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, Mapping) and all(isinstance(k, str) for k in value)
    raise ValueError(f"unknown JSON type {name!r} in a schema")


def _shown(value: object) -> str:
    """A schema's constant in a message (schemas hold short values only)."""
    return repr(value) if isinstance(value, (str, bool, int, float)) or value is None else "..."


def _at(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def problem(schema: Mapping[str, Any], value: object) -> Problem | None:
    """The first place where ``value`` breaks ``schema`` and why, or None when it fits."""
    return _check(schema, value, "", schema)


def _check(schema: Mapping[str, Any], value: object, path: str,
           root: Mapping[str, Any]) -> Problem | None:
    unknown = set(schema) - KEYWORDS
    if unknown:
        raise ValueError(f"schema keywords this validator does not know: {sorted(unknown)}")
    if "$ref" in schema:
        ref = str(schema["$ref"])
        if not ref.startswith("#/$defs/"):
            raise ValueError(f"only local references to #/$defs are known, not {ref!r}")
        found = _check(root["$defs"][ref[len("#/$defs/"):]], value, path, root)
        if found:
            return found
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(value, n) for n in names):
            return path, f"{kind_of(value)} where {_wanted(names)} is expected"
    if "const" in schema and not _same(value, schema["const"]):
        return path, f"must be {_shown(schema['const'])}"
    if "enum" in schema and not any(_same(value, v) for v in schema["enum"]):
        return path, "must be one of " + ", ".join(_shown(v) for v in schema["enum"])
    for check in (_number, _string, _array, _object, _combined):
        found = check(schema, value, path, root)
        if found:
            return found
    return None


def _wanted(names: list[str]) -> str:
    words = {"null": "null", "boolean": "a boolean", "integer": "an integer",
             "number": "a number", "string": "a string", "array": "an array",
             "object": "an object"}
    return " or ".join(words[n] for n in names)


def _same(value: object, constant: object) -> bool:
    """JSON equality: a boolean is never a number, and 1 and 1.0 are the same number."""
    if isinstance(value, bool) or isinstance(constant, bool):
        return isinstance(value, bool) and isinstance(constant, bool) and value == constant
    if _is(value, "number") and _is(constant, "number"):
        return value == constant
    return type(value) is type(constant) and value == constant


def _number(schema: Mapping[str, Any], value: object, path: str,
            root: Mapping[str, Any]) -> Problem | None:
    if not _is(value, "number"):
        return None
    assert isinstance(value, (int, float))
    if "minimum" in schema and value < schema["minimum"]:
        return path, f"must be at least {schema['minimum']}"
    if "maximum" in schema and value > schema["maximum"]:
        return path, f"must be at most {schema['maximum']}"
    return None


def _string(schema: Mapping[str, Any], value: object, path: str,
            root: Mapping[str, Any]) -> Problem | None:
    if not isinstance(value, str):
        return None
    if "minLength" in schema and len(value) < schema["minLength"]:
        return path, f"must have at least {schema['minLength']} characters"
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        return path, f"must have at most {schema['maxLength']} characters"
    return None


def _array(schema: Mapping[str, Any], value: object, path: str,
           root: Mapping[str, Any]) -> Problem | None:
    if not isinstance(value, list):
        return None
    if "minItems" in schema and len(value) < schema["minItems"]:
        return path, f"must have at least {schema['minItems']} items"
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        return path, f"must have at most {schema['maxItems']} items"
    prefix = schema.get("prefixItems", [])
    for i, (item, sub) in enumerate(zip(value, prefix, strict=False)):
        found = _check(sub, item, _at(path, i), root)
        if found:
            return found
    if "items" in schema:
        for i in range(len(prefix), len(value)):
            found = _check(schema["items"], value[i], _at(path, i), root)
            if found:
                return found
    return None


def _object(schema: Mapping[str, Any], value: object, path: str,
            root: Mapping[str, Any]) -> Problem | None:
    if not _is(value, "object"):
        return None
    assert isinstance(value, Mapping)
    for name in schema.get("required", ()):
        if name not in value:
            return path, f"{name!r} is missing"
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        if name in props:
            found = _check(props[name], item, _at(path, name), root)
        elif extra is False:
            return path, f"unknown field {name[:40]!r}"
        elif isinstance(extra, Mapping):
            found = _check(extra, item, _at(path, name), root)
        else:
            found = None
        if found:
            return found
    return None


def _combined(schema: Mapping[str, Any], value: object, path: str,
              root: Mapping[str, Any]) -> Problem | None:
    for sub in schema.get("allOf", ()):
        found = _check(sub, value, path, root)
        if found:
            return found
    if "anyOf" in schema:
        found = None
        for sub in schema["anyOf"]:
            found = _check(sub, value, path, root)
            if found is None:
                break
        if found:
            return found
    if "if" in schema and _check(schema["if"], value, path, root) is None and "then" in schema:
        return _check(schema["then"], value, path, root)
    return None


__all__ = ["Problem", "kind_of", "problem"]

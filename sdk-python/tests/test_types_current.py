# The package's types are written by hand from the OpenAPI document the service serves; these tests compare
# them with that document (/v1/openapi.json) so that they cannot drift: every problem code, every field of
# every answer and event (names, nullability, literal values), and the event types of the feed.
from __future__ import annotations

import json
import types
import typing
import urllib.request
from typing import Any, Literal, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from conftest import Service

from guide_service import PROBLEM_CODES, resources
from guide_service.errors import Problem

Document = dict[str, Any]
JSON_TYPE_OF = {str: "string", bool: "boolean", int: "integer"}


@pytest.fixture(scope="module")
def document(service: Service) -> Document:
    with urllib.request.urlopen(f"{service.base_url}/v1/openapi.json", timeout=10) as response:
        return dict(json.load(response))


def resolve(document: Document, schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        target: Any = document
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        schema = target
    return schema


def differences(document: Document, hint: Any, schema: dict[str, Any], where: str) -> list[str]:
    """How a type hint and a JSON schema disagree, each difference naming the field."""
    schema = resolve(document, schema)
    found: list[str] = []
    alternatives = [resolve(document, alternative) for alternative in schema.get("anyOf", schema.get("oneOf", [schema]))]
    json_types = {kind for alternative in alternatives for kind in ([alternative["type"]] if isinstance(alternative.get("type"), str) else alternative.get("type", []))}
    values = [value for alternative in alternatives for value in alternative.get("enum", [])]
    schema = next((alternative for alternative in alternatives if alternative.get("type") != "null"), schema)

    options = get_args(hint) if get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    if ("null" in json_types) != (type(None) in options):
        found.append(f"{where}: the document says {'nullable' if 'null' in json_types else 'never null'}, the hint {hint}")
    (hint,) = [option for option in options if option is not type(None)] or [type(None)]

    if is_typeddict(hint):
        hints = get_type_hints(hint)
        properties = schema.get("properties", {})
        for name in sorted(set(properties) - set(hints)):
            found.append(f"{where}.{name}: in the document, not in {hint.__name__}")
        for name in sorted(set(hints) - set(properties)):
            found.append(f"{where}.{name}: in {hint.__name__}, not in the document")
        for name in sorted(set(hints) & set(properties)):
            found += differences(document, hints[name], properties[name], f"{where}.{name}")
    elif get_origin(hint) is list:
        found += differences(document, get_args(hint)[0], schema.get("items", {}), f"{where}[]")
    elif get_origin(hint) is Literal:
        written, served = set(get_args(hint)), {value for value in values if value is not None}
        if written != served:
            found.append(f"{where}: the hint lists {sorted(written)}, the document {sorted(served)}")
    elif hint in JSON_TYPE_OF and JSON_TYPE_OF[hint] not in json_types:
        found.append(f"{where}: the hint is {hint.__name__}, the document says {sorted(json_types)}")
    elif hint in JSON_TYPE_OF and [value for value in values if value is not None]:
        found.append(f"{where}: the hint is {hint.__name__}, the document lists {sorted(value for value in values if value is not None)}")
    return found


def test_problem_codes_are_the_served_catalogue(document: Document) -> None:
    served = document["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
    assert sorted(PROBLEM_CODES) == sorted(served), (
        f"missing here: {sorted(set(served) - set(PROBLEM_CODES))}, not served: {sorted(set(PROBLEM_CODES) - set(served))}"
    )
    assert differences(document, Problem, document["components"]["schemas"]["Problem"], "Problem") == []


@pytest.mark.parametrize("name", ["Key", "GuideListItem", "Guide", "Team", "Member"])
def test_each_answer_has_the_served_fields(document: Document, name: str) -> None:
    assert differences(document, getattr(resources, name), document["components"]["schemas"][name], name) == []


def test_each_event_of_the_feed_and_the_ping_has_the_served_fields(document: Document) -> None:
    event_types: list[str] = []
    for alternative in document["components"]["schemas"]["Event"]["anyOf"]:
        alternative = resolve(document, alternative)
        (event_type,) = resolve(document, alternative["properties"]["type"])["enum"]
        event_types.append(event_type)
        (hint,) = [
            option for option in get_args(resources.Event) if event_type in get_args(get_type_hints(option)["type"])
        ]
        # The one variant this type belongs to, with its type narrowed to that one value.
        schema = {**alternative, "properties": {**alternative["properties"], "type": {"enum": get_args(get_type_hints(hint)["type"])}}}
        assert differences(document, hint, schema, event_type) == []
    assert sorted(get_args(resources.EventType)) == sorted(event_types)
    assert sorted(get_args(resources.EventType)) == sorted(set(document["webhooks"]) - {"ping"})

    ping = document["webhooks"]["ping"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    ping = {**ping, "properties": {**ping["properties"], "type": {"enum": ["ping"]}}}
    assert differences(document, resources.PingEvent, ping, "ping") == []

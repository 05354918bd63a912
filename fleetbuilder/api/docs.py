"""The API's docs page and its JSON index, both read from the OpenAPI document.

The page used to be Swagger UI: a script-drawn app without the site's header or a way back,
and seven axe rules failing on it. It is now a page of the site, rendered on the
server from ``api.get_openapi_schema()``: every operation with its parameters, body and answers,
and every schema with its fields. Nothing is written twice, so it cannot fall behind the API.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString

REF = "#/components/schemas/"
PUBLIC_SCHEMES = {"OptionalTokenAuth"}
_CODE = re.compile(r"``(.+?)``|`(.+?)`")


def prose(text: str) -> SafeString:
    """A docstring's text as HTML: escaped, with ``code`` and `code` spans as <code>."""
    text = (text or "").replace("\n", " ")
    parts: list[SafeString] = []
    last = 0
    for match in _CODE.finditer(text):
        parts.append(
            format_html(
                "{}<code>{}</code>", text[last : match.start()], match.group(1) or match.group(2)
            )
        )
        last = match.end()
    parts.append(conditional_escape(text[last:]))
    return SafeString("".join(parts))


def type_text(schema: dict[str, Any]) -> SafeString:
    """A JSON schema's type in a few words, a named schema as a link to its entry."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix(REF)
        return format_html('<a href="#schema-{}">{}</a>', name, name)
    if "anyOf" in schema:
        parts = [type_text(s) for s in schema["anyOf"] if s.get("type") != "null"]
        if any(s.get("type") == "null" for s in schema["anyOf"]):
            parts.append(SafeString("null"))
        return SafeString(" or ".join(parts))
    if "enum" in schema:
        return format_html(
            "one of {}",
            format_html_join(", ", "<code>{}</code>", ((str(v),) for v in schema["enum"])),
        )
    kind = schema.get("type", "any")
    if kind == "array":
        return format_html("list of {}", type_text(schema.get("items", {})))
    return conditional_escape(kind)


@dataclass(frozen=True)
class Field:
    name: str
    where: str  # "path", "query", or "" for a schema's property
    type: SafeString
    required: bool
    description: SafeString


@dataclass(frozen=True)
class Answer:
    status: str
    description: str
    body: SafeString  # "" when the answer has no body


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    anchor: str
    summary: str
    description: SafeString
    public: bool
    parameters: list[Field]
    body: SafeString
    answers: list[Answer]


@dataclass(frozen=True)
class Schema:
    name: str
    description: SafeString
    fields: list[Field]


@dataclass
class Group:
    tag: str
    operations: list[Operation] = field(default_factory=list)


def _public(op: dict[str, Any]) -> bool:
    return all(set(s) <= PUBLIC_SCHEMES for s in op.get("security", []))


def _body(op: dict[str, Any]) -> SafeString:
    content = (op.get("requestBody") or {}).get("content", {}).get("application/json")
    return type_text(content["schema"]) if content else SafeString("")


def _answers(op: dict[str, Any]) -> list[Answer]:
    out = []
    for status, answer in sorted(op.get("responses", {}).items()):
        content = (answer.get("content") or {}).get("application/json")
        out.append(
            Answer(
                str(status),
                answer.get("description", ""),
                type_text(content["schema"]) if content else SafeString(""),
            )
        )
    return out


def operations(doc: dict[str, Any]) -> list[Group]:
    """The operations grouped by their tag, in the document's order."""
    groups: dict[str, Group] = {}
    for path, ops in doc.get("paths", {}).items():
        for method, op in ops.items():
            tag = (op.get("tags") or ["other"])[0]
            params = [
                Field(
                    p["name"],
                    p["in"],
                    type_text(p.get("schema", {})),
                    bool(p.get("required")),
                    prose(p.get("description", "")),
                )
                for p in op.get("parameters", [])
            ]
            groups.setdefault(tag, Group(tag)).operations.append(
                Operation(
                    method=method.upper(),
                    path=path,
                    anchor=op.get("operationId", ""),
                    summary=op.get("summary", ""),
                    description=prose(op.get("description", "")),
                    public=_public(op),
                    parameters=params,
                    body=_body(op),
                    answers=_answers(op),
                )
            )
    return list(groups.values())


def schemas(doc: dict[str, Any]) -> list[Schema]:
    out = []
    for name, schema in doc.get("components", {}).get("schemas", {}).items():
        required = set(schema.get("required", []))
        fields = [
            Field(key, "", type_text(prop), key in required, prose(prop.get("description", "")))
            for key, prop in schema.get("properties", {}).items()
        ]
        out.append(Schema(name, prose(schema.get("description", "")), fields))
    return out


def index(doc: dict[str, Any], docs_url: str, openapi_url: str) -> dict[str, Any]:
    """``GET /api/v1/``: what the API is and every operation, as JSON."""
    return {
        "name": doc["info"]["title"],
        "version": doc["info"]["version"],
        "docs": docs_url,
        "openapi": openapi_url,
        "auth": "Public operations need nothing; the others need a personal API token from "
        "your account page, sent as `Authorization: Bearer vc_…`.",
        "operations": [
            {
                "method": op.method,
                "path": op.path,
                "summary": op.summary,
                "token": "optional" if op.public else "required",
            }
            for group in operations(doc)
            for op in group.operations
        ],
    }

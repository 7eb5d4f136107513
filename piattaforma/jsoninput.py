"""The one defensive reader of JSON a client sends (WebSocket frames, JSON POSTs, the API, forms).

``json.loads`` alone is not safe on untrusted text: a few kilobytes of ``[[[[...`` overflow the
parser's recursion limit (``RecursionError``, not ``ValueError``), ``NaN``/``Infinity`` and
``1e400`` give floats no money field may hold, a 4,000-digit integer costs quadratic time to
convert, ``"\\ud800"`` decodes to a lone surrogate that no database or channel layer can
encode, and ``"\\u0000"`` to a NUL that PostgreSQL text refuses. ``loads`` refuses all of these
with a ``BadJson`` (stable code, Italian message) before anything else sees the value.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext as _

from games.engine import CodedError

MAX_DEPTH = 16  # no message of the platform nests deeper than a few levels
MAX_INT_DIGITS = 18  # any id, version, seat or amount fits; 10**18 is still a cheap int
MAX_BYTES = 64 * 1024  # the default for HTTP bodies; WebSocket frames have their own, smaller cap


class BadJson(CodedError, ValueError):
    """A client's JSON that the platform refuses to read."""

    code = "bad_message"
    default_message = "Messaggio non valido"


class MessageTooLarge(BadJson):
    # the code stays "bad_message", the one clients already know; the message says why
    default_message = "Messaggio troppo lungo."


def _refuse_constant(name: str) -> Any:
    raise BadJson(_("Messaggio non valido: %(name)s non è un numero ammesso.") % {"name": name})


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BadJson(_("Messaggio non valido: numero troppo grande."))
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > 32:
        raise BadJson(_("Messaggio non valido: numero troppo grande."))
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BadJson(_("Messaggio non valido: numero troppo grande."))
    return value


def _nesting(text: str) -> int:
    """Return how deep arrays and objects nest in JSON text (strings skipped), in one pass."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _check_strings(value: Any) -> None:
    """Refuse any string (key or value) that a database or a channel layer cannot store.

    A lone surrogate cannot be encoded as UTF-8; PostgreSQL text cannot hold NUL.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise BadJson(_("Messaggio non valido: testo con caratteri non ammessi.")) from None
            if "\x00" in item:
                raise BadJson(_("Messaggio non valido: testo con caratteri non ammessi."))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def loads(data: str | bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse a client's JSON, refusing (``BadJson``) what ``json.loads`` would choke or crash on."""
    if isinstance(data, bytes):
        if len(data) > max_bytes:
            raise MessageTooLarge(_("Messaggio troppo lungo."))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJson() from None
    else:
        text = data
        if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            raise MessageTooLarge(_("Messaggio troppo lungo."))
    # no deeper than its opening brackets: the scan (a Python loop over every character) only
    # for a text with more of them than the limit
    if text.count("[") + text.count("{") > max_depth and _nesting(text) > max_depth:
        raise BadJson(_("Messaggio non valido: troppi livelli annidati."))
    try:
        value = json.loads(
            text, parse_constant=_refuse_constant, parse_int=_parse_int, parse_float=_parse_float
        )
    except BadJson:
        raise
    except (ValueError, RecursionError):
        raise BadJson() from None
    _check_strings(value)
    return value


def loads_object(data: str | bytes, **limits: int) -> dict[str, Any]:
    """Parse a client's JSON that must be an object (``{...}``); anything else is a ``BadJson``."""
    value = loads(data, **limits)
    if not isinstance(value, dict):
        raise BadJson()
    return value


def loads_request(request: HttpRequest, **limits: int) -> dict[str, Any]:
    """The JSON object an HTTP request carries (``Content-Type: application/json``); a ``BadJson``
    for anything else.

    A body declared as a form is not read as JSON: CSRF and ``NulCharactersMiddleware`` may have
    read it as a form already, and reading the raw body after that raises
    ``RawPostDataException`` (a multipart POST to a JSON endpoint was a 500).
    """
    if request.content_type != "application/json":
        raise BadJson()
    return loads_object(request.body, **limits)


class JSONFormField(forms.JSONField):
    """Django's form ``JSONField`` reading through ``loads``: deep or hostile text is a form error.

    Django's own field calls ``json.loads`` in ``to_python`` and ``bound_data`` and catches only
    ``JSONDecodeError``: 1,500 nested brackets in the back office were a ``RecursionError`` (500).
    """

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and value not in self.empty_values and not self.disabled:
            try:
                loads(value)
            except BadJson:
                raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
        return super().to_python(value)

    def bound_data(self, data: Any, initial: Any) -> Any:
        if isinstance(data, str) and not self.disabled:
            try:
                loads(data)
            except BadJson:
                return forms.fields.InvalidJSONInput(data)
        return super().bound_data(data, initial)

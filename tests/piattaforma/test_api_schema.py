"""The API's schema (drf-spectacular) against what the API does: every documented query parameter
tried at and past its bounds, outside its choices and with the wrong type, signed in and out; every
status answered must be one the schema documents, with a body of the documented shape."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.piattaforma.factories import UserFactory

pytestmark = pytest.mark.django_db


def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    found = []
    for path, item in schema()["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                found.append((path, method, operation))
    return found


def component(ref: str) -> dict[str, Any]:
    return schema()["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def good_and_bad(param: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Values the schema allows and values it does not, for one query parameter (an empty value is
    the parameter not given, as the operations' descriptions say)."""
    spec = param["schema"]
    if "enum" in spec:
        return ["", *(str(v) for v in spec["enum"])], ["nessuno", "1", "x" * 300]
    if spec["type"] == "integer":
        low, high = spec.get("minimum"), spec.get("maximum")
        assert low is not None and high is not None, f"{param['name']}: an integer needs its bounds"
        return ["", str(low), str(high)], [str(low - 1), str(high + 1), "1e3", "1.5", "uno", "9" * 400]
    if spec.get("format") == "date":
        return ["", "2024-02-29"], ["2023-02-29", "ieri", "2024-13-01", "1" * 300]
    raise AssertionError(f"{param['name']}: extend this test to the type {spec}")


def check_body(operation: dict[str, Any], status: int, body: Any) -> None:
    documented = operation["responses"]
    assert str(status) in documented, f"{operation['operationId']}: status {status} not in the schema"
    ref = documented[str(status)]["content"]["application/json"]["schema"]["$ref"]
    shape = component(ref)
    required = set(shape.get("required", ()))
    assert required <= set(body) <= set(shape["properties"]), (operation["operationId"], status, body)


def test_every_operation_documents_its_refusals():
    for _path, _method, operation in operations():
        assert "403" in operation["responses"], operation["operationId"]  # not signed in
        if operation.get("parameters"):
            assert "400" in operation["responses"], operation["operationId"]
            assert "empty value" in operation["description"], operation["operationId"]


@pytest.mark.parametrize("path,method,operation", operations(), ids=lambda x: x if isinstance(x, str) else "")
def test_the_api_answers_as_its_schema_says(client, path, method, operation):
    assert "{" not in path, "extend this test to path parameters"
    call = getattr(client, method)
    response = call(path)
    check_body(operation, response.status_code, response.json())
    assert response.status_code == 403

    client.force_login(UserFactory())
    response = call(path)
    assert response.status_code == 200
    check_body(operation, 200, response.json())
    for param in operation.get("parameters", []):
        assert param["in"] == "query", "extend this test to other parameters"
        good, bad = good_and_bad(param)
        for value in good:
            response = call(path, {param["name"]: value})
            assert response.status_code == 200, (param["name"], value, response.content[:200])
            check_body(operation, 200, response.json())
        for value in bad:
            response = call(path, {param["name"]: value})
            assert response.status_code == 400, (param["name"], value, response.content[:200])
            check_body(operation, 400, response.json())

"""Multi-row inserts of new model instances with less Python per value than ``bulk_create``, and
the update of a stored one with less than ``Model.save``.

``bulk_create`` compiles each value through its field's prepare chain and, on PostgreSQL, binds
one array per column that psycopg escapes element by element: for a turn of 512 tournament tables
(some 47,000 values, most of them in JSON columns) that costs more than the database's own work.
``insert`` writes the same rows: every concrete column with the value the instance holds (the
model's defaults were applied when it was built; ``pre_save`` runs where a field has its own, e.g.
``auto_now``), no signals (as ``bulk_create``), and the generated primary keys set on the
instances. Each value is converted once, by what its column needs:

* JSON columns: ``json.dumps`` of the value, as the field's adapter encodes it (on PostgreSQL the
  value is nested in the document below, which orjson encodes: the same JSON values, integer keys
  as strings, non-ASCII as UTF-8 rather than escaped);
* integer, boolean and text columns: the value as it is (the fields' prepare is the identity for
  values of their type);
* anything else (dates and times): the field's own ``get_db_prep_save`` (None is NULL).

PostgreSQL gets one statement per model, the rows passed as one JSON document that
``json_to_recordset`` reads back into the columns' types; other databases (SQLite) multi-row
``INSERT ... VALUES ... RETURNING`` in the batches ``bulk_create`` would use, in one transaction
when there are several. Outside a transaction a one-statement insert commits by itself (the
journal's group commit: ``lobby.runtime.journal``).

``update`` writes every column of a stored instance by its primary key, as ``save`` does on a row
that exists (``pre_save`` where a field has its own, each value through its field's
``get_db_prep_save``, no signals), in a statement built once per model: for a hot row written at
every hand (a table's runtime row) the ORM's update compiler cost more than the statement.
"""

from __future__ import annotations

import contextlib
import datetime
import decimal
import uuid
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import orjson
from django.conf import settings
from django.db import DatabaseError, connection, models, transaction
from django.db.models.fields import AutoFieldMixin

M = TypeVar("M", bound=models.Model)

_PLAIN = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "SmallAutoField",
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
        "BooleanField",
        "CharField",
        "TextField",
    }
)


def insert(model: type[M], objs: Sequence[M]) -> Sequence[M]:
    """Insert new instances of ``model`` as ``bulk_create`` does (no signals, no conflict handling)
    and set each one's generated primary key. Returns ``objs``."""
    if not objs:
        return objs
    postgresql = connection.vendor == "postgresql"
    fields, rows, auto_pk = _rows(model, objs, postgresql)
    returning = connection.ops.quote_name(auto_pk.column) if auto_pk is not None else None
    pks = (
        _insert_postgresql(model._meta, fields, rows, returning)
        if postgresql
        else _insert_values(model._meta, fields, rows, returning)
    )
    adopt(objs, pks, connection.alias)
    return objs


def postgresql_statement(model: type[M], objs: Sequence[M]) -> tuple[str, list[Any]]:
    """The one PostgreSQL statement ``insert`` would run for these new instances, and its
    parameters, for a connection of its own (the journal's, on the event loop); it returns the
    generated primary keys, one row each, for ``adopt``."""
    fields, rows, auto_pk = _rows(model, objs, postgresql=True)
    returning = connection.ops.quote_name(auto_pk.column) if auto_pk is not None else None
    sql, document = _postgresql(model._meta, fields, rows)
    return (sql if returning is None else f"{sql} RETURNING {returning}"), [document]


def adopt(objs: Sequence[M], pks: Sequence[Any], alias: str) -> None:
    """The instances were stored by one insert: set their generated keys (None: none generated)."""
    for obj, pk in zip(objs, pks, strict=True):
        if pk is not None:
            obj.pk = pk
        obj._state.adding = False
        obj._state.db = alias


def _rows(
    model: type[M], objs: Sequence[M], postgresql: bool
) -> tuple[list[models.Field[Any, Any]], list[list[Any]], Any]:
    """The columns written, each instance's values as the statement takes them, the generated key."""
    meta = model._meta
    auto_pk = meta.pk if isinstance(meta.pk, AutoFieldMixin) else None
    fields = [f for f in meta.concrete_fields if f is not auto_pk]
    for f in fields:
        if f.generated or f.has_db_default() or (isinstance(f, models.JSONField) and f.encoder is not None):
            # columns the database fills, JSON with its own encoder: not needed yet, not done here
            raise ValueError(f"{meta.label}.{f.name}: not supported by lobby.bulkinsert")
    with_pre_save = [f for f in fields if type(f).pre_save is not models.Field.pre_save]
    for obj in objs:
        if auto_pk is not None and obj.pk is not None:
            raise ValueError(f"{meta.label}: only new rows (no primary key yet)")
        for f in with_pre_save:
            setattr(obj, f.attname, f.pre_save(obj, True))
    rows = [[getattr(obj, f.attname) for f in fields] for obj in objs]
    for i, f in enumerate(fields):
        convert = _converter(f, postgresql)
        if convert is not None:
            for row in rows:
                row[i] = convert(row[i])
    return fields, rows, auto_pk


def _converter(field: models.Field[Any, Any], postgresql: bool) -> Callable[[Any], Any] | None:
    """How one column's values reach the statement (None: as they are)."""
    column = field.target_field if field.is_relation else field  # type: ignore[attr-defined]  # a relation's column
    if isinstance(column, models.JSONField):
        return (
            None if postgresql else lambda v: None if v is None else connection.ops.adapt_json_value(v, None)
        )
    if column.get_internal_type() in _PLAIN:
        return None
    if not postgresql:
        return lambda v: None if v is None else field.get_db_prep_save(v, connection)

    def prepared(v: Any) -> Any:
        return None if v is None else _json_scalar(field.get_db_prep_save(v, connection))

    if column.get_internal_type() == "DateTimeField" and settings.USE_TZ:
        # an aware datetime is its own prepared value (the field's prepare chain, taken for every
        # step's times, only warns about and converts a naive one): its text at once
        aware = lambda v: type(v) is datetime.datetime and v.tzinfo is not None  # noqa: E731
        return lambda v: v.isoformat() if aware(v) else prepared(v)
    return prepared


def _json_scalar(value: Any) -> Any:
    """A value psycopg would adapt, as text PostgreSQL reads back into its column's type."""
    if isinstance(value, datetime.date | datetime.time | uuid.UUID | decimal.Decimal):
        return value.isoformat() if isinstance(value, datetime.date | datetime.time) else str(value)
    return value


_statements: dict[tuple[str, tuple[str, ...]], str] = {}  # PostgreSQL's INSERT of a table's columns


def _postgresql(meta: Any, fields: list[models.Field[Any, Any]], rows: list[list[Any]]) -> tuple[str, str]:
    """PostgreSQL's INSERT of these rows (without RETURNING) and its one parameter, the rows as JSON."""
    names = [f.column for f in fields]
    rows_as_json = [dict(zip(names, row, strict=True)) for row in rows]
    document = orjson.dumps(rows_as_json, option=orjson.OPT_NON_STR_KEYS).decode()
    key = (meta.db_table, tuple(names))
    sql = _statements.get(key)
    if sql is None:  # the same for every batch of these columns (the journal's: every step)
        quote = connection.ops.quote_name
        # The types without parameters (varchar, not varchar(60)), as bulk_create's arrays: the
        # INSERT's own assignment checks the length.
        types = [str(f.db_type(connection)).split("(")[0] for f in fields]
        columns = ", ".join(quote(n) for n in names)
        record = ", ".join(f"{quote(n)} {t}" for n, t in zip(names, types, strict=True))
        sql = _statements[key] = (
            f"INSERT INTO {quote(meta.db_table)} ({columns}) "  # noqa: S608  # names from the model, values in one parameter
            f"SELECT {columns} FROM json_to_recordset(%s::json) AS r({record})"
        )
    return sql, document


def _insert_postgresql(
    meta: Any, fields: list[models.Field[Any, Any]], rows: list[list[Any]], returning: str | None
) -> list[Any]:
    sql, document = _postgresql(meta, fields, rows)
    with connection.cursor() as cursor:
        if returning is None:
            cursor.execute(sql, [document])
            return [None] * len(rows)
        cursor.execute(f"{sql} RETURNING {returning}", [document])
        return [pk for (pk,) in cursor.fetchall()]


def _insert_values(
    meta: Any, fields: list[models.Field[Any, Any]], rows: list[list[Any]], returning: str | None
) -> list[Any]:
    quote = connection.ops.quote_name
    head = f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) VALUES "  # noqa: S608  # names from the model
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    batch = max(1, connection.ops.bulk_batch_size(fields, rows))
    pks: list[Any] = []
    # more rows than one statement takes: all of them or none, as bulk_create's batches
    whole = transaction.atomic() if len(rows) > batch else contextlib.nullcontext()
    with whole, connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            sql = head + ", ".join([one] * len(chunk))
            cursor.execute(
                sql if returning is None else f"{sql} RETURNING {returning}",
                [v for row in chunk for v in row],
            )
            pks += [pk for (pk,) in cursor.fetchall()] if returning is not None else [None] * len(chunk)
    return pks


_updates: dict[tuple[str, str], tuple[str, list[models.Field[Any, Any]]]] = {}


def update(obj: models.Model) -> None:
    """Write every concrete column of the stored ``obj`` by its primary key (one UPDATE), as
    ``obj.save()`` does on a row that exists; raises ``DatabaseError`` if no row was updated."""
    meta = obj._meta
    key = (meta.label, connection.vendor)
    built = _updates.get(key)
    if built is None:
        quote = connection.ops.quote_name
        fields = [f for f in meta.concrete_fields if not f.primary_key]
        columns = ", ".join(f"{quote(f.column)} = %s" for f in fields)
        sql = f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {quote(meta.pk.column)} = %s"  # noqa: S608  # names from the model
        built = _updates[key] = (sql, fields)
    sql, fields = built
    params = []
    for f in fields:
        value = f.pre_save(obj, False)
        if hasattr(value, "resolve_expression"):
            raise ValueError(f"{meta.label}.{f.name}: an expression, not supported by lobby.bulkinsert")
        params.append(f.get_db_prep_save(value, connection))
    params.append(meta.pk.get_db_prep_value(obj.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"{meta.label} {obj.pk}: no row to update")

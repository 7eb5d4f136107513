"""Hot ORM reads compiled to SQL once per database, then run with new parameters.

Django compiles a queryset to SQL on every evaluation. For the few reads the live tables run on
every row action (the runtime row locked with its table, the seats with their players) the
compilation (``SQLCompiler.as_sql``) costs the Daphne processes far more CPU than the round trip
to PostgreSQL does.

``CompiledQuery(build, params)``: ``build(*args)`` returns the queryset, whose shape (tables,
joins, columns, order, locks) must not depend on the arguments, and ``params(*args)`` the SQL
parameters it takes, in the order of the compiled SQL (checked against Django's own compilation
the first time, per database); ``shape(*args)``, if given, is what of the arguments does change
the SQL (the length of an ``IN`` list): one compilation for each. The queryset is built once per
shape too (building one, its filters and joins resolved, costs about as much as the compilation;
a clone of it a small fraction of that): each call evaluates a clone of it the usual way (the
same model instances, ``select_related`` objects and annotations), its compiler reusing the SQL
and the column map of the first compilation, with this call's parameters. It returns the list
of rows: the queryset itself never leaves (a clone of it, ``.first()``, would carry the compiled
SQL along).

``along(carrier, reads)``: reads known in advance go to PostgreSQL with the carrier's next
evaluation in this thread, in the same round trip (one query string of several statements, run in
order: after a ``FOR UPDATE`` carrier, they see what its lock guards). Each of them, called
afterwards inside the block with the same SQL and parameters, takes its rows without a query; a
call with other arguments reads as usual, and so does every call on another database.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.db.transaction import TransactionManagementError

FOR_UPDATE_OUTSIDE = "select_for_update cannot be used outside of a transaction."


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    select: Any
    klass_info: Any
    annotation_col_map: Any
    col_count: int
    has_extra_select: bool
    for_update: bool

    def chunk(self, rows: list[Any]) -> list[Any]:
        """Rows fetched as Django's ``execute_sql`` gives them (without the extra select's columns)."""
        return [row[: self.col_count] for row in rows] if self.has_extra_select else rows


@dataclass(frozen=True, slots=True)
class Read:
    """A call of a compiled query known before it is made (``along``)."""

    query: CompiledQuery
    args: tuple[Any, ...]


class _Along(threading.local):
    def __init__(self) -> None:
        self.carrier: CompiledQuery | None = None
        self.reads: list[Read] = []
        self.rows: dict[tuple[int, str, Any, tuple[Any, ...]], list[Any]] = {}


_along = _Along()


@contextmanager
def along(carrier: CompiledQuery, reads: Sequence[Read]) -> Iterator[None]:
    """Inside the block, ``reads`` go with ``carrier``'s first evaluation (see the module's docstring)."""
    before = (_along.carrier, _along.reads, _along.rows)
    _along.carrier, _along.reads, _along.rows = carrier, list(reads), {}
    try:
        yield
    finally:
        _along.carrier, _along.reads, _along.rows = before


def one_query_string(connection: Any) -> bool:
    """Whether several statements may go in one query string: PostgreSQL's client-side binding."""
    options = connection.settings_dict.get("OPTIONS") or {}
    return connection.vendor == "postgresql" and not options.get("server_side_binding")


class CompiledQuery:
    """A queryset shape compiled once per database (see the module's docstring)."""

    def __init__(
        self,
        build: Callable[..., QuerySet[Any]],
        params: Callable[..., tuple[Any, ...]],
        shape: Callable[..., Any] | None = None,
    ) -> None:
        self.build = build
        self.params = params
        self.shape = shape  # what of the arguments changes the SQL (the length of an IN list): one each
        self.compiled: dict[tuple[str, str, Any, Any], _Compiled] = {}
        self.compilations = 0  # how many times Django compiled it (the tests)
        self.built: dict[Any, QuerySet[Any]] = {}  # shape -> the queryset built once, cloned at each call

    def __call__(self, *args: Any) -> list[Any]:
        """The rows (model instances) for these arguments, read without compiling the query again."""
        qs, done, params = self._prepared(args)
        alias = qs.db
        key = (id(self), alias, self.shape(*args) if self.shape is not None else None, params)
        rows = _along.rows.pop(key, None)  # read ahead with a carrier (``along``)
        batch: list[tuple[Read, QuerySet[Any], _Compiled, tuple[Any, ...]]] = []
        if rows is None and _along.carrier is self and _along.reads and one_query_string(connections[alias]):
            reads, _along.reads = _along.reads, []
            for read in reads:
                read_qs, read_done, read_params = read.query._prepared(read.args)
                if read_qs.db == alias:
                    batch.append((read, read_qs, read_done, read_params))
        query = qs.query
        make_compiler = query.get_compiler

        def get_compiler(using: str | None = None, connection: Any = None, elide_empty: bool = True) -> Any:
            compiler = make_compiler(using=using, connection=connection, elide_empty=elide_empty)
            compiler.select, compiler.klass_info = done.select, done.klass_info
            compiler.annotation_col_map, compiler.col_count = done.annotation_col_map, done.col_count
            compiler.has_extra_select = done.has_extra_select
            # The functions set on the compiler refer to its connection, never to the compiler: a
            # compiler that held itself in a cycle would keep its query (the clone, its where
            # nodes...) alive until the collector's next pass, instead of freeing it on return.
            db = compiler.connection

            def as_sql(with_limits: bool = True, with_col_aliases: bool = False) -> tuple[str, Any]:
                if done.for_update and db.get_autocommit():  # as Django's own check
                    raise TransactionManagementError(FOR_UPDATE_OUTSIDE)
                return done.sql, params

            compiler.as_sql = as_sql
            if rows is not None:
                compiler.execute_sql = lambda *a, **k: [done.chunk(rows)]
            elif batch:
                compiler.execute_sql = lambda *a, **k: [done.chunk(self._with_reads(db, as_sql(), batch))]
            return compiler

        query.get_compiler = get_compiler  # type: ignore[method-assign]  # this query, this evaluation only
        try:
            return list(qs)
        finally:
            del query.get_compiler  # (a clone would copy it: the queryset never leaves here)

    @staticmethod
    def _with_reads(
        db: Any, carrier: tuple[str, Any], batch: list[tuple[Read, QuerySet[Any], _Compiled, tuple[Any, ...]]]
    ) -> list[Any]:
        """Run the carrier's statement and the reads' in one query string; keep the reads' rows."""
        sql, params = carrier
        sqls, values = [sql], list(params)
        for _, _, read_done, read_params in batch:
            sqls.append(read_done.sql)
            values.extend(read_params)
        with db.cursor() as cursor:
            cursor.execute(";\n".join(sqls), values)
            rows: list[Any] = cursor.fetchall()
            for read, read_qs, _, read_params in batch:
                cursor.nextset()
                shape = read.query.shape(*read.args) if read.query.shape is not None else None
                _along.rows[(id(read.query), read_qs.db, shape, read_params)] = cursor.fetchall()
        return rows

    def _prepared(self, args: tuple[Any, ...]) -> tuple[QuerySet[Any], _Compiled, tuple[Any, ...]]:
        """A clone of the queryset built for these arguments' shape, its compiled SQL, its parameters."""
        params = tuple(self.params(*args))
        shape = self.shape(*args) if self.shape is not None else None
        built = self.built.get(shape)
        fresh = built is None  # built now, from these arguments
        if built is None:  # (two threads may both build it: the same queryset either way)
            built = self.built[shape] = self.build(*args)
        qs = built.all()  # a clone, its own query: this evaluation's compiler goes on it, not the one built
        alias = qs.db
        connection = connections[alias]
        key = (alias, connection.vendor, connection.settings_dict.get("NAME"), shape)
        done = self.compiled.get(key)
        if done is None:
            if not fresh:  # compiled from these arguments: its parameters are checked below
                qs = self.build(*args)
            compiler = qs.query.get_compiler(using=alias)
            sql, compiled_params = compiler.as_sql()
            if tuple(compiled_params) != params:
                taken = tuple(compiled_params)
                raise ValueError(f"CompiledQuery: parameters {params!r}, the SQL takes {taken!r}")
            self.compilations += 1
            done = self.compiled[key] = _Compiled(
                sql=sql,
                select=compiler.select,
                klass_info=compiler.klass_info,
                annotation_col_map=compiler.annotation_col_map,
                col_count=compiler.col_count,
                has_extra_select=compiler.has_extra_select,
                for_update=bool(qs.query.select_for_update and connection.features.has_select_for_update),
            )
        return qs, done, params

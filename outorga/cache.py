"""Django's database cache with an atomic `incr`, so counters shared by several server processes add up.

Django's DatabaseCache inherits `incr` from BaseCache: a get followed by a set. Two workers counting the same
client at the same moment both read 5 and both write 6, so a limit of 30 a minute lets more through the more
workers there are. Here the read and the write happen in one transaction that holds the row: `SELECT … FOR
UPDATE` on PostgreSQL; on SQLite the project's IMMEDIATE transactions take the write lock at BEGIN. The
row's expiry is kept (BaseCache's set would reset it to the default timeout).
"""

from __future__ import annotations

import base64
import pickle
from typing import Any

from django.core.cache.backends.db import DatabaseCache
from django.db import connections, router, transaction
from django.utils import timezone


class AtomicDatabaseCache(DatabaseCache):
    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote = connection.ops.quote_name
        table = quote(self._table)  # type: ignore[attr-defined]  # set by DatabaseCache.__init__, not in the stubs
        cache_key, value_column = quote("cache_key"), quote("value")
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        now = connection.ops.adapt_datetimefield_value(timezone.now().replace(microsecond=0))
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {value_column} FROM {table} WHERE {cache_key} = %s AND {quote('expires')} > %s{lock}",
                [key, now],
            )
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            stored = connection.ops.process_clob(row[0])
            new_value = pickle.loads(base64.b64decode(stored.encode())) + delta
            encoded = base64.b64encode(pickle.dumps(new_value, self.pickle_protocol)).decode("latin1")
            cursor.execute(f"UPDATE {table} SET {value_column} = %s WHERE {cache_key} = %s", [encoded, key])
        return new_value

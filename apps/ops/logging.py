"""Structured logs: one JSON object per line, with the request id of the request being served.

Selected by LOG_FORMAT=json (the default with DEBUG off). Log collectors (journald, Loki, Elasticsearch) read
the fields without parsing text; the request id is the one the response carries in X-Request-ID, so a user's
complaint ("erro às 14h, código …") leads to the lines of that request.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

from apps.audit.context import current_request_id

# Attributes every LogRecord has; anything else was passed in `extra=` and becomes a field of its own.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, tz=dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = current_request_id()
        if request_id:
            data["request_id"] = request_id
        data.update({key: value for key, value in vars(record).items() if key not in _STANDARD})
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)

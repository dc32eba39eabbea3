"""The HMAC keys of the audit chain and its checkpoints, kept outside the database.

Whoever can write the audit table (a DBA, a stolen database backup restored elsewhere) must not be able to
recompute the chain: the hashes are HMAC-SHA256 with a key that lives only in the application's
environment (or a key file next to it). Keys carry an id so they can be rotated: new events use the
current id, old events verify with the id they recorded.

The settings module loads the keys through `load_audit_keys` at start-up, so this module imports nothing
from Django's app registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

# Public, so it must never protect a real chain: DEBUG=0 refuses it like the development SECRET_KEY.
DEVELOPMENT_KEY_ID = "dev"
DEVELOPMENT_KEY = "outorga-development-audit-key-public-do-not-use-in-production"
MIN_KEY_LENGTH = 32
KEY_HINT = (
    "generate one with: python3 -c 'import secrets; print(secrets.token_urlsafe(48))' and set "
    "AUDIT_HMAC_KEYS=<id>:<key> (or AUDIT_HMAC_KEYS_FILE=<file with one id:key per line>)"
)


@dataclass(frozen=True)
class AuditKeys:
    keys: Mapping[str, str]
    current_id: str

    def secret(self, key_id: str) -> bytes:
        try:
            return self.keys[key_id].encode("utf-8")
        except KeyError:
            raise UnknownAuditKeyError(key_id) from None

    @property
    def current_secret(self) -> bytes:
        return self.secret(self.current_id)


class UnknownAuditKeyError(LookupError):
    """An event or checkpoint names a key id the configuration no longer (or never) had."""


def parse_key_spec(spec: str, *, source: str) -> dict[str, str]:
    """`id:key` pairs separated by commas or new lines; blank lines and `#` comments are ignored."""
    keys: dict[str, str] = {}
    for raw in spec.replace(",", "\n").splitlines():
        item = raw.strip()
        if not item or item.startswith("#"):
            continue
        key_id, sep, secret = item.partition(":")
        key_id, secret = key_id.strip(), secret.strip()
        if not sep or not key_id or not secret:
            raise ImproperlyConfigured(f"{source}: each entry must be <id>:<key>, got {item[:12]!r}...")
        if key_id in keys:
            raise ImproperlyConfigured(f"{source}: key id {key_id!r} appears twice")
        if len(secret) < MIN_KEY_LENGTH:
            raise ImproperlyConfigured(
                f"{source}: key {key_id!r} is shorter than {MIN_KEY_LENGTH} characters; {KEY_HINT}"
            )
        keys[key_id] = secret
    return keys


def load_audit_keys(environ: Mapping[str, str], *, debug: bool) -> AuditKeys:
    """Read AUDIT_HMAC_KEYS / AUDIT_HMAC_KEYS_FILE and AUDIT_HMAC_KEY_ID; refuse a half-configured production."""
    spec, source = environ.get("AUDIT_HMAC_KEYS", ""), "AUDIT_HMAC_KEYS"
    key_file = environ.get("AUDIT_HMAC_KEYS_FILE", "")
    if key_file:
        if spec:
            raise ImproperlyConfigured("Set AUDIT_HMAC_KEYS or AUDIT_HMAC_KEYS_FILE, not both.")
        spec, source = _read_key_file(Path(key_file)), f"AUDIT_HMAC_KEYS_FILE ({key_file})"
    keys = parse_key_spec(spec, source=source)
    if not keys:
        if not debug:
            raise ImproperlyConfigured(
                f"AUDIT_HMAC_KEYS is not set. Production (DEBUG=0) needs a secret audit key kept outside "
                f"the database; {KEY_HINT}"
            )
        keys = {DEVELOPMENT_KEY_ID: DEVELOPMENT_KEY}
    if not debug and DEVELOPMENT_KEY in keys.values():
        raise ImproperlyConfigured(f"AUDIT_HMAC_KEYS holds the public development key; {KEY_HINT}")
    # Without an explicit id the last key listed is the current one: rotating means appending a key.
    current_id = environ.get("AUDIT_HMAC_KEY_ID", "") or list(keys)[-1]
    if current_id not in keys:
        raise ImproperlyConfigured(f"AUDIT_HMAC_KEY_ID {current_id!r} is not among the configured audit keys")
    return AuditKeys(keys=keys, current_id=current_id)


def _read_key_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ImproperlyConfigured(f"AUDIT_HMAC_KEYS_FILE cannot be read: {exc}") from exc


def configured_keys() -> AuditKeys:
    """The keys settings loaded (tests override settings.AUDIT_KEYS to rotate)."""
    from django.conf import settings

    keys: AuditKeys = settings.AUDIT_KEYS
    return keys

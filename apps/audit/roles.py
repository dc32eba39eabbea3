"""The PostgreSQL privileges of the application's role: it appends to the audit table and nothing more.

The owner role (which runs `migrate`) owns every table; the app role may read and write the other tables, but
on audit_auditevent only SELECT and INSERT. Not being the owner, it can neither ALTER the table nor DISABLE its
triggers, and without UPDATE/DELETE/TRUNCATE privileges it is refused even before the triggers fire.
`manage.py audit_grants` prints these statements for the DBA (docs/security.md, "Database roles").
"""

from __future__ import annotations

from apps.audit.triggers import TABLE


def _ident(name: str) -> str:
    if not name.replace("_", "").isalnum():
        raise ValueError(f"Not a plain PostgreSQL role name: {name!r}")
    return name


def app_role_grants(app_role: str, *, owner_role: str, schema: str = "public") -> list[str]:
    app, owner, schema = _ident(app_role), _ident(owner_role), _ident(schema)
    return [
        f"GRANT USAGE ON SCHEMA {schema} TO {app}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {app}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {app}",
        f"REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {schema}.{TABLE} FROM {app}",
        # Tables that future migrations create get the same privileges (the audit table already exists).
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA {schema} "
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {app}",
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA {schema} GRANT USAGE, SELECT ON SEQUENCES TO {app}",
    ]

"""Shared fixtures and personas (healthchecks-style), available to every test in the repository.

Municipalities: olimpia (SP), votuporanga (SP), patrocinio (MG), created through the services.
Personas:
  analyst_olimpia      analyst in Olímpia only
  agent_votuporanga    enforcement agent in Votuporanga only
  auditor_olimpia      auditor/DPO in Olímpia only
  admin_olimpia        administrator in Olímpia only
  outsider             staff account with no membership anywhere
  admin_user           pytest-django's superuser (sees everything by design)
Each persona has a `<persona>_client` logged in as it (pytest-django's `admin_client` for the superuser).

Staff must pass a second factor (apps/accounts): every staff persona has an authenticator holding
PERSONA_TOTP_KEY, and `Client.force_login` here also completes the second factor, as typing the code would.
A test of the second factor itself logs in through the login form instead.
"""

from __future__ import annotations

import socket
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client

from apps.accounts.models import User
from apps.accounts.services import user_create
from apps.accounts.testing import PERSONA_TOTP_KEY, complete_second_factor, give_authenticator
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from apps.tenancy.services import membership_grant, municipality_create
from lawcode.tests.hypothesis_profiles import load_profile

load_profile()

# Each process writes its request-metric sums every OPS_COUNTER_FLUSH_SECONDS. A request made where the database is
# blocked (Schemathesis loads the OpenAPI schema at collection) must not try: in tests the sums wait for /metricas/
# or for a test of the flush, which sets its own interval.
django_settings.OPS_COUNTER_FLUSH_SECONDS = 24 * 3600

PERSONA_PASSWORD = "senha-de-teste-123"


@pytest.fixture(autouse=True)
def _no_municipality_kept_from_another_test() -> Iterator[None]:
    # The public lookup keeps each town's row in process memory (apps.public.verification.municipality_of); each
    # test's database is rolled back, so a row kept by one test would name a town the next one never created.
    from apps.public.verification import _KNOWN_MUNICIPALITIES

    _KNOWN_MUNICIPALITIES.clear()
    yield
    _KNOWN_MUNICIPALITIES.clear()


@pytest.fixture(autouse=True)
def _checkpoints_in_tmp(settings: Any, tmp_path: Path) -> Path:
    """Audit checkpoints of test databases never land in (or are checked against) the developer's var/."""
    settings.AUDIT_CHECKPOINT_DIR = tmp_path / "audit-checkpoints"
    settings.AUDIT_CHECKPOINT_RECIPIENTS = []
    return Path(settings.AUDIT_CHECKPOINT_DIR)


@pytest.fixture(autouse=True)
def _public_lookup_counts_written_at_once(settings: Any) -> None:
    # In production each process batches its lookup counts and writes them at exit; in tests the test
    # database is gone by then, so counts are written through inside the test (tests of batching opt in).
    settings.PUBLIC_COUNT_FLUSH_SECONDS = 0


@pytest.fixture(autouse=True)
def _request_counters_kept_in_memory(settings: Any) -> Iterator[None]:
    # In production each process writes its request counters every OPS_COUNTER_FLUSH_SECONDS and at exit; in
    # tests that write could land in a test without database access or after the test database is dropped. So
    # they stay in memory (/metricas/ still writes them when scraped) and are dropped after each test.
    from apps.ops.counters import counters_discard

    settings.OPS_COUNTER_FLUSH_SECONDS = 10**9
    yield
    counters_discard()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # PBKDF2's deliberate slowness (~0.4 s a hash) would dominate the suite; tests do not need it.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _force_login_passes_the_second_factor(monkeypatch: pytest.MonkeyPatch) -> None:
    # force_login skips the password; it skips the second factor too, or every staff test would land on
    # the verification page. Tests of the second factor use the real login form.
    original = Client.force_login

    def force_login(self: Client, user: Any, backend: str | None = None) -> None:
        original(self, user, backend)
        complete_second_factor(self, user)

    monkeypatch.setattr(Client, "force_login", force_login)


@pytest.fixture
def make_municipality(db: None) -> Callable[..., Municipality]:
    def make(ibge_code: str, name: str, uf: str, regimes: list[str]) -> Municipality:
        return municipality_create(actor=None, ibge_code=ibge_code, name=name, uf=uf, regimes=regimes)

    return make


@pytest.fixture
def olimpia(make_municipality: Callable[..., Municipality]) -> Municipality:
    return make_municipality("3533908", "Olímpia", "SP", ["olimpia_sp_escolar"])


@pytest.fixture
def votuporanga(make_municipality: Callable[..., Municipality]) -> Municipality:
    return make_municipality("3557105", "Votuporanga", "SP", ["votuporanga_sp_escolar"])


@pytest.fixture
def patrocinio(make_municipality: Callable[..., Municipality]) -> Municipality:
    return make_municipality("3148103", "Patrocínio", "MG", ["patrocinio_mg_aplicativo"])


@pytest.fixture
def make_staff(db: None) -> Callable[..., User]:
    """make_staff("name", (municipality, role), ...) creates a user holding those roles."""

    def make(username: str, *grants: tuple[Municipality, str], **fields: Any) -> User:
        user = user_create(
            actor=None,
            username=username,
            password=PERSONA_PASSWORD,
            full_name=fields.pop("full_name", username.replace(".", " ").title()),
            **fields,
        )
        give_authenticator(user, PERSONA_TOTP_KEY)
        for municipality, role in grants:
            membership_grant(actor=None, user=user, municipality=municipality, role=role)
        return user

    return make


@pytest.fixture
def analyst_olimpia(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    return make_staff("ana.analista", (olimpia, Role.ANALYST), full_name="Ana Analista")


@pytest.fixture
def agent_votuporanga(make_staff: Callable[..., User], votuporanga: Municipality) -> User:
    return make_staff("vitor.agente", (votuporanga, Role.ENFORCEMENT_AGENT), full_name="Vitor Agente")


@pytest.fixture
def auditor_olimpia(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    return make_staff("dora.dpo", (olimpia, Role.AUDITOR_DPO), full_name="Dora Auditora")


@pytest.fixture
def admin_olimpia(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    return make_staff(
        "otto.admin",
        (olimpia, Role.ADMINISTRATOR),
        full_name="Otto Administrador",
        cpf="52998224725",
        phone="17991234567",
    )


@pytest.fixture
def outsider(make_staff: Callable[..., User]) -> User:
    return make_staff("carlos.sem.vinculo", full_name="Carlos Sem Vínculo")


def _client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def analyst_olimpia_client(analyst_olimpia: User) -> Client:
    return _client_for(analyst_olimpia)


@pytest.fixture
def agent_votuporanga_client(agent_votuporanga: User) -> Client:
    return _client_for(agent_votuporanga)


@pytest.fixture
def auditor_olimpia_client(auditor_olimpia: User) -> Client:
    return _client_for(auditor_olimpia)


@pytest.fixture
def admin_olimpia_client(admin_olimpia: User) -> Client:
    return _client_for(admin_olimpia)


@pytest.fixture
def outsider_client(outsider: User) -> Client:
    return _client_for(outsider)


# --- S3 storage against a real S3 API: moto in server mode on a free localhost port (apps.ops.storage) ------


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    from moto.server import ThreadedMotoServer

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


@pytest.fixture
def s3_storage(settings: Any, s3_endpoint: str) -> Any:
    """The default storage switched to a fresh, empty bucket on the moto server (same options as production)."""
    import boto3
    from django.core.files.storage import default_storage

    from outorga.settings import s3_storage as s3_storage_entry

    bucket = f"outorga-{uuid.uuid4().hex[:16]}"
    entry = s3_storage_entry(
        bucket=bucket,
        endpoint_url=s3_endpoint,
        region="us-east-1",
        access_key="testing",
        secret_key="testing",
    )
    client = boto3.client(
        "s3",
        endpoint_url=s3_endpoint,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    client.create_bucket(Bucket=bucket)
    settings.STORAGES = {**settings.STORAGES, "default": entry}
    return default_storage

"""Property: whatever autos, judgments, renewals and regularizations happen, every permit's stored status is the
one the engine's sanctions give as of that day.

Hypothesis generates a few weeks of history in every regime — autos de infração (some recorded days after the
infraction), defences and appeals judged upheld or granted, permits renewed or substituted while suspended,
irregularities regularized (Olímpia art. 24 sole §), penalty notices sent or not (Patrocínio art. 19 § 1º) —
runs the same services the screens call and the daily sweep for each day, and checks every day against an
independent model fed by the engine's ``sanction`` decisions, asked afresh as of the day each was due:

- the suspensions a case's penalties impose run one after the other on the permit *and on the permits that
  replace it*; a penalty aimed at the operator reaches every permit of the operator; Olímpia's art. 24
  suspension starts at the auto, and the cassação follows only if the irregularity was not regularized by its
  end; a cancelled case (appeal granted, nullity) lifts what it imposed;
- every penalty of the engine's decision has its Effect row: applied, queued (with the dates the queue gives)
  or «não aplicado» with the reason on the case — never dropped;
- a case whose penalty notice limit passed without one is void the next day, with its article.

Expiring documents and the document-driven status are test_legal_state's histories (same world, conftest.py).

The model is the law as the product reads it, written without the apps' effect code: a fix removed from
apps/dueprocess (or the sweep) makes the stored state part from it. ``ci`` runs a few derandomized histories;
``thorough`` many more.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from apps.accounts.models import User
from apps.dueprocess import lawbridge
from apps.dueprocess.choices import EffectState, Instance, Verdict
from apps.dueprocess.models import Appeal, CaseNullity, Effect, Regularization
from apps.dueprocess.procedure import proceeding
from apps.dueprocess.services import appeal_file, appeal_judge, case_regularize
from apps.dueprocess.tests.helpers import at, evidence_pdf, notify, open_case
from apps.enforcement.choices import CaseState, EventKind, NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.enforcement.services import AutoDetails, case_open
from apps.lawconfig.config import config_for
from apps.licensing.casebook import Case, extra_vehicle, pj_case
from apps.licensing.choices import PermitState
from apps.licensing.models import Permit
from apps.licensing.sweep import run_sweep
from apps.licensing.tests.conftest import issue_permit
from apps.replay.compare import replay
from apps.tenancy.choices import Role
from lawcode.penalties import PenaltyKind
from lawcode.registry import get_regime
from tests.property.conftest import ISSUED, REGIMES

START = dt.date(2026, 6, 1)
HORIZON = 10
EXAMPLES = 150 if (settings.default is not None and settings.default.max_examples >= 1000) else 3
# Infractions whose penalties touch the permit (suspension at the auto or at finality, cassação) and some that
# do not (fine, warning, apreensão), per regime in REGIMES' order.
CODES = (
    ("OLI-24-III", "OLI-25-IV", "OLI-25-III", "OLI-23-I"),
    ("VOT-15-II", "VOT-9-I"),
    ("PAT-3",),
    ("SJC-24-2", "SJC-23-I"),
)
# Paths a case may take after its auto, by the instances of its regime: nothing yet, condemned (and final at the
# last instance), acquitted at the first or at the second instance.
PATHS = ("none", "upheld", "upheld", "granted_first", "granted_second")
# The operator-wide law variant: the cassação aims at every permit of the operator (penalties.yaml
# ``target: operator``), as a law that sanctions the operator rather than one vehicle would declare it.
OPERATOR_WIDE = ("votuporanga_sp_escolar", ("cassation",))


@dataclass(frozen=True)
class Auto:
    """An auto recorded ``on`` days into the history, the infraction ``late`` days before; then its defence,
    judgments and appeal ``gaps`` days apart along ``path``, and a regularization ``regularized`` days after the
    auto (None: never)."""

    regime: int
    code: int
    on: int
    late: int
    path: str
    gaps: tuple[int, int, int, int]
    regularized: int | None


@dataclass(frozen=True)
class Act:
    """Something else on day ``on``: a permit renewed or substituted (``pick`` chooses which), or the penalty
    notice of the world's Patrocínio auto sent."""

    regime: int
    action: str
    on: int
    pick: int


GAP = st.integers(0, 3)
AUTOS = st.builds(
    Auto,
    st.integers(0, len(REGIMES) - 1),
    st.integers(0, 3),
    st.integers(0, HORIZON - 2),
    st.integers(0, 31),
    st.sampled_from(PATHS),
    st.tuples(GAP, GAP, GAP, GAP),
    st.none() | st.integers(0, 8),
)
ACTS = st.builds(
    Act,
    st.integers(0, len(REGIMES) - 1),
    st.sampled_from(("renewal", "renewal", "substitution", "penalty_notice")),
    st.integers(0, HORIZON),
    st.integers(0, 3),
)
HISTORIES = st.tuples(st.lists(AUTOS, min_size=1, max_size=4), st.lists(ACTS, max_size=3))


# --- the world ------------------------------------------------------------------------------------------------


@dataclass
class World:
    cases: list[Case]
    staff: list[User]
    pending: InfractionCase
    vehicles: Iterator[int] = field(default_factory=lambda: itertools.count(70))


@pytest.fixture
def world(licensed: list[Case], make_staff: Any) -> World:
    """The licensed cases (in Votuporanga, a company with two permitted vehicles instead, so an operator-wide
    penalty has two permits to reach), one staff member per municipality holding the enforcement and judging
    roles, and a clandestine Patrocínio auto notified 88 days before START (its penalty-notice limit falls
    inside the history)."""
    staff = []
    for number, case in enumerate(licensed):
        municipality = case.operator.municipality
        roles = (Role.ENFORCEMENT_AGENT, Role.JUDGING_AUTHORITY, Role.APPEAL_BOARD, Role.ADMINISTRATOR)
        staff.append(make_staff(f"servidor.{number}", *((municipality, role) for role in roles)))
    cases = list(licensed)
    for number, (*_, regime_id) in enumerate(REGIMES):
        if regime_id == OPERATOR_WIDE[0]:  # a company with two permitted vehicles acts in this regime
            municipality = licensed[number].operator.municipality
            company = pj_case(municipality, 12, "Escolar Vila Ltda", "Marcos", as_of=ISSUED)
            issue_permit(company, as_of=ISSUED)
            issue_permit(company, vehicle=extra_vehicle(company, 62, as_of=ISSUED), as_of=ISSUED)
            cases[number] = company
    pending = open_case(
        licensed[2].operator.municipality,
        staff[2],
        code="PAT-3",
        plate="PAT1A23",
        on=START - dt.timedelta(days=89),
        offender_name="Motorista Sem Cadastro",
        offender_document="52998224725",
    )
    notify(pending, staff[2], START - dt.timedelta(days=88))
    return World(cases, staff, pending)


# --- what happens ---------------------------------------------------------------------------------------------

Step = Callable[[dt.date], None]
CaseStep = Callable[[InfractionCase, dt.date], None]


def _in_force(world: World, regime: int) -> list[Permit]:
    operator = world.cases[regime].operator
    states = (PermitState.ACTIVE, PermitState.SUSPENDED)
    return list(Permit.objects.filter(operator=operator, state__in=states).order_by("pk"))


def _open(auto: Auto, world: World, day: dt.date) -> InfractionCase:
    """The auto recorded today on one of the operator's vehicles, the infraction ``late`` days before."""
    operator = world.cases[auto.regime].operator
    permits = _in_force(world, auto.regime) or list(Permit.objects.filter(operator=operator).order_by("pk"))
    codes = CODES[auto.regime]
    details = AutoDetails(
        infraction_code=codes[auto.code % len(codes)],
        plate=str(permits[auto.code % len(permits)].vehicle.plate),
        occurred_at=at(day - dt.timedelta(days=auto.late), 7),
        place="Av. Central, 10",
        description="Constatado pelo agente.",
        agent_registration="F-1",
    )
    actor = world.staff[auto.regime]
    return case_open(municipality=operator.municipality, actor=actor, details=details, recorded_at=at(day, 9))


def _appeal(case: InfractionCase, day: dt.date, *, actor: User) -> None:
    case.refresh_from_db()
    instance = Instance.SECOND if case.state == CaseState.JUDGED_FIRST else Instance.FIRST
    appeal_file(case=case, instance=instance, filed_on=day, text="Razões.", actor=actor, as_of=day)


def _judge(case: InfractionCase, day: dt.date, *, actor: User, verdict: str) -> None:
    appeal = Appeal.objects.filter(case=case, judgment__isnull=True).first()
    if appeal is not None:
        appeal_judge(
            appeal=appeal, verdict=verdict, reasoning="Julgado.", decided_on=day, actor=actor, as_of=day
        )


def _regularize(case: InfractionCase, day: dt.date, *, actor: User) -> None:
    case_regularize(
        case=case,
        regularized_on=day,
        description="Tacógrafo instalado.",
        evidence=evidence_pdf(),
        actor=actor,
        as_of=day,
    )


def _case_steps(auto: Auto, world: World) -> list[tuple[int, CaseStep]]:
    """(day offset, step on the case) for the auto's path: defence and judgment, then appeal and judgment."""
    actor = world.staff[auto.regime]
    instances = len(proceeding(REGIMES[auto.regime][3]).instances)
    verdicts = {
        "upheld": (Verdict.UPHELD,) * instances,
        "granted_first": (Verdict.GRANTED,),
        "granted_second": (Verdict.UPHELD, Verdict.GRANTED)[:instances],
    }.get(auto.path, ())
    steps: list[tuple[int, CaseStep]] = []
    on = auto.on
    for number, verdict in enumerate(verdicts):
        on += auto.gaps[2 * number]
        steps.append((on, partial(_appeal, actor=actor)))
        on += auto.gaps[2 * number + 1]
        steps.append((on, partial(_judge, actor=actor, verdict=verdict)))
    if auto.regularized is not None:
        steps.append((auto.on + auto.regularized, partial(_regularize, actor=actor)))
    return steps


def _schedule(autos: list[Auto], acts: list[Act], world: World) -> dict[int, list[Step]]:
    """Every generated happening as a step on its day, in the order generated."""
    days: dict[int, list[Step]] = defaultdict(list)
    for auto in autos:
        handle: list[InfractionCase] = []
        days[auto.on].append(partial(_open_into, handle, auto, world))
        for on, step in _case_steps(auto, world):
            days[on].append(partial(_on_case, handle, step))
    for act in acts:
        days[act.on].append(partial(_act, act, world))
    return days


def _open_into(handle: list[InfractionCase], auto: Auto, world: World, day: dt.date) -> None:
    handle.append(_open(auto, world, day))


def _on_case(handle: list[InfractionCase], step: CaseStep, day: dt.date) -> None:
    if handle:  # the auto was drawn up (a refused auto has no path)
        step(handle[0], day)


def _act(act: Act, world: World, day: dt.date) -> None:
    case = world.cases[act.regime]
    if act.action == "penalty_notice":
        notify(world.pending, world.staff[2], day, NoticePurpose.FINAL_DECISION)
    elif permits := _in_force(world, act.regime):
        permit = permits[act.pick % len(permits)]
        vehicle = (
            extra_vehicle(case, next(world.vehicles), as_of=day) if act.action == "substitution" else None
        )
        issue_permit(case, act.action, permit=permit, as_of=day, **({"vehicle": vehicle} if vehicle else {}))


def _happen(step: Step, day: dt.date) -> None:
    """Run the service the screen would; a refusal (a regularization after its limit, a renewal the law does not
    grant yet, a notice on a cancelled case…) is the service doing its job and changes nothing."""
    try:
        with transaction.atomic():
            step(day)
    except ValidationError:
        pass


@dataclass
class Seen:
    """The day each case became final or was cancelled (by a judgment, or by the sweep)."""

    final_on: dict[int, dt.date] = field(default_factory=dict)
    cancelled_on: dict[int, dt.date] = field(default_factory=dict)
    # The engine's sanction for a case at its auto and at its finality, asked on the day it happened (the facts
    # of that day: a later regularization does not rewrite what was decided).
    decisions: dict[tuple[int, str], Any] = field(default_factory=dict)

    def sanction(self, case: InfractionCase, moment: str, final_on: dt.date | None, as_of: dt.date) -> Any:
        if (case.pk, moment) not in self.decisions:
            self.decisions[(case.pk, moment)] = lawbridge.sanction(case, final_on, as_of)
        return self.decisions[(case.pk, moment)]

    def observe(self, day: dt.date) -> None:
        for pk, state in InfractionCase.objects.values_list("pk", "state"):
            if state == CaseState.FINAL:
                self.final_on.setdefault(pk, day)
            elif state == CaseState.CANCELLED:
                self.cancelled_on.setdefault(pk, day)


# --- the model: the law as the product reads it, from fresh engine decisions ---------------------------------


@dataclass
class Served:
    """A suspension the model expects on a line of permits: applied on ``applied`` for [start, end]."""

    case: int
    key: str
    applied: dt.date
    start: dt.date
    end: dt.date
    lifted: dt.date | None = None

    @property
    def last_day(self) -> dt.date:
        return self.end if self.lifted is None else min(self.end, self.lifted - dt.timedelta(days=1))


@dataclass
class Line:
    """A permit and the permits that replaced it (renewals, substitutions): the authorization a suspension or
    a cassação acts on, whatever sheet of paper is current."""

    operator: int
    suspensions: list[Served] = field(default_factory=list)
    revoked: dt.date | None = None

    def in_force(self, on: dt.date) -> bool:
        return self.revoked is None or self.revoked > on

    def running_until(self, on: dt.date) -> dt.date | None:
        """The last day of the suspensions imposed by ``on`` and not lifted by then (served or still to
        serve): a new one that overlaps them runs after them, however long ago they were applied."""
        ends = [
            served.end
            for served in self.suspensions
            if served.applied <= on and (served.lifted is None or served.lifted > on)
        ]
        return max(ends) if ends else None


@dataclass(frozen=True)
class Claim:
    """A penalty the engine imposes, applied on a day: at the auto (phase 0), at finality (1), or the cassação
    for not regularizing (2)."""

    applied: dt.date
    phase: int
    case: InfractionCase
    kind: PenaltyKind
    item: dict[str, Any]


@dataclass
class Expected:
    lines: dict[int, Line]
    line_of: dict[int, int]
    effects: dict[tuple[int, str, int | None], tuple[str, dt.date | None, dt.date | None]] = field(
        default_factory=dict
    )
    present: set[tuple[int, str]] = field(default_factory=set)


MODELLED = ("suspension", "precautionary_suspension", "cassation")


def _declared(case: InfractionCase, items: list[dict[str, Any]]) -> list[tuple[dict[str, Any], PenaltyKind]]:
    penalties = get_regime(case.regime_id).penalties
    assert penalties is not None
    return [(item, penalties.get(str(item["kind"]))) for item in items]


def _penalties(decision: Any) -> list[dict[str, Any]]:
    return list(decision.to_dict()["result"].get("penalties") or []) if decision.outcome == "penalty" else []


def _case_claims(case: InfractionCase, seen: Seen, day: dt.date) -> tuple[list[Claim], dict[str, dt.date]]:
    """The case's claims up to ``day`` and, by penalty key, the day each applied one is lifted."""
    penalties = get_regime(case.regime_id).penalties
    if penalties is None:
        return [], {}
    claims: list[Claim] = []
    lifts: dict[str, dt.date] = {}
    if any(kind.immediate for kind in penalties.kinds.values()):
        at_auto = seen.sanction(case, "auto", None, case.drawn_on)
        claims += [
            Claim(case.drawn_on, 0, case, kind, item)
            for item, kind in _declared(case, _penalties(at_auto))
            if kind.immediate
        ]
    final = seen.final_on.get(case.pk)
    if final is not None:
        claims += _final_claims(case, final, seen, claims, lifts, day)
    cancelled = seen.cancelled_on.get(case.pk)
    if cancelled is not None:
        lifts.update({claim.kind.key: cancelled for claim in claims})
    return claims, lifts


def _final_claims(
    case: InfractionCase,
    final: dt.date,
    seen: Seen,
    at_auto: list[Claim],
    lifts: dict[str, dt.date],
    day: dt.date,
) -> list[Claim]:
    """What the final decision adds (the engine asked afresh, as of the day it became final), what it drops
    from the auto, and the cassação if the irregularity was not regularized by the last day."""
    sanction = case.sanction
    first = (case.pk, "final") not in seen.decisions
    fresh = seen.sanction(case, "final", sanction.decided_final_on, final)
    if first:  # the stored sanction is the engine's, and replays as such
        assert sanction.penalties == _penalties(fresh), case
        assert replay(sanction.decision, config_for(case.municipality)).differences == (), case
    items = _declared(case, _penalties(fresh))
    keys = {kind.key for _, kind in items}
    lifts.update({claim.kind.key: final for claim in at_auto if claim.kind.key not in keys})
    done = {claim.kind.key for claim in at_auto}
    claims = [Claim(final, 1, case, kind, item) for item, kind in items if kind.key not in done]
    limit = fresh.result.get("cassation_if_not_regularized_by")
    regularized = Regularization.objects.filter(case=case).first()
    if isinstance(limit, dt.date) and (regularized is None or regularized.regularized_on > limit):
        on = max(limit + dt.timedelta(days=1), final)
        penalties = get_regime(case.regime_id).penalties
        assert penalties is not None
        conditional = next(k for k in penalties.kinds.values() if k.regularization)
        assert conditional.regularization is not None
        then = penalties.get(conditional.regularization.then)
        if on <= day:
            claims.append(Claim(on, 2, case, then, {}))
    return claims


def _lines(day: dt.date) -> tuple[dict[int, Line], dict[int, int]]:
    permits = {p.pk: p for p in Permit.objects.all()}
    line_of: dict[int, int] = {}
    for pk, permit in permits.items():
        root = permit
        while root.replaces_id is not None:
            root = permits[root.replaces_id]
        line_of[pk] = root.pk
    return {root: Line(permits[root].operator_id) for root in set(line_of.values())}, line_of


def _model(seen: Seen, day: dt.date) -> Expected:
    lines, line_of = _lines(day)
    expected = Expected(lines, line_of)
    claims, lifts = [], {}
    for case in InfractionCase.objects.order_by("pk"):
        found, lifted = _case_claims(case, seen, day)
        claims += found
        lifts.update({(case.pk, key): on for key, on in lifted.items()})
    for claim in sorted(claims, key=lambda c: (c.applied, c.phase, c.case.pk)):
        if claim.kind.mechanism not in MODELLED:
            expected.present.add((claim.case.pk, claim.kind.key))
            continue
        _apply_claim(claim, expected, lifts.get((claim.case.pk, claim.kind.key)))
    return expected


def _targets(claim: Claim, expected: Expected) -> list[int]:
    case = claim.case
    if claim.kind.target == "operator" and case.operator_id is not None:
        roots = [root for root, line in expected.lines.items() if line.operator == case.operator_id]
        return sorted(root for root in roots if expected.lines[root].in_force(claim.applied))
    return [expected.line_of[case.permit_id]] if case.permit_id is not None else []


def _apply_claim(claim: Claim, expected: Expected, lifted: dt.date | None) -> None:
    key = (claim.case.pk, claim.kind.key)
    if claim.kind.mechanism == "cassation":
        roots: list[int | None] = [*_targets(claim, expected)] or [None]
        for root in roots:
            line = expected.lines.get(root) if root is not None else None
            if line is None or not line.in_force(claim.applied):
                expected.effects[(*key, root)] = (EffectState.NOT_APPLIED, None, None)
                continue
            line.revoked = claim.applied
            expected.effects[(*key, root)] = (EffectState.APPLIED, claim.applied, None)
        return
    item = claim.item
    start = dt.date.fromisoformat(str(item["start"])) if item.get("start") else None
    end = dt.date.fromisoformat(str(item["end"])) if item.get("end") else None
    targets = _targets(claim, expected)
    if start is None or end is None or end < claim.applied or not targets:
        expected.effects[(*key, None)] = (EffectState.NOT_APPLIED, start, end)
        return
    for root in targets:
        line = expected.lines[root]
        if not line.in_force(claim.applied):
            expected.effects[(*key, root)] = (EffectState.NOT_APPLIED, start, end)
            continue
        running = line.running_until(claim.applied)
        first, last, state = start, end, EffectState.APPLIED
        if running is not None and running >= start:  # consecutive suspensions add up
            first, state = running + dt.timedelta(days=1), EffectState.QUEUED
            last = first + (end - start)
        line.suspensions.append(Served(claim.case.pk, claim.kind.key, claim.applied, first, last, lifted))
        expected.effects[(*key, root)] = (EffectState.LIFTED if lifted else state, first, last)


# --- the checks -----------------------------------------------------------------------------------------------


def _check_permits(expected: Expected, day: dt.date) -> None:
    """Each permit's state and last suspended day are the model's: a replaced permit is closed, the current one
    of its line carries the line's suspensions and cassação."""
    replaced = set(Permit.objects.filter(replaces__isnull=False).values_list("replaces_id", flat=True))
    for permit in Permit.objects.all():
        if permit.pk in replaced:
            assert permit.state in (PermitState.EXPIRED, PermitState.CANCELLED), (permit, day)
            continue
        line = expected.lines[expected.line_of[permit.pk]]
        covering = [s.last_day for s in line.suspensions if s.applied <= day <= s.last_day]
        if not line.in_force(day):
            want: tuple[str, dt.date | None] = (PermitState.REVOKED, None)
        elif covering:
            want = (PermitState.SUSPENDED, max(covering))
        else:
            want = (PermitState.ACTIVE, None)
        got = (permit.state, permit.suspended_until if permit.state == PermitState.SUSPENDED else None)
        assert got == want, (permit, day, line)


def _check_effects(expected: Expected, day: dt.date) -> None:
    """Every penalty the engine imposed has its row, with the model's state and dates; a row «não aplicado»
    says why on the case's timeline."""
    stored = {}
    for row in Effect.objects.select_related("case"):
        root = expected.line_of[row.permit_id] if row.permit_id is not None else None
        stored[(row.case_id, row.penalty_key, root)] = (row.state, row.starts_on, row.ends_on)
        if row.state == EffectState.NOT_APPLIED:
            notes = row.case.events.filter(kind=EventKind.NOTE, note__startswith="Efeito não aplicado")
            assert notes.filter(note__contains=row.label).exists(), (row, day)
            assert row.note, row
    for key, want in expected.effects.items():
        got = stored.get(key)
        state, start, end = want
        if (
            state == EffectState.NOT_APPLIED
            or state == EffectState.APPLIED
            and start is not None
            and end is None
        ):
            assert got is not None and got[0] == state, (key, got, want, day)
        else:
            assert got == want, (key, got, want, day)
    for case_pk, penalty in expected.present:
        assert any(key[:2] == (case_pk, penalty) for key in stored), (case_pk, penalty, day)


def _check_nullity(day: dt.date) -> None:
    """A case whose penalty-notice limit passed without one is void from the next day, citing its article;
    one notified in time (or already cancelled by a judgment) is not."""
    for case in InfractionCase.objects.filter(notice_limit__isnull=False):
        assert case.notice_limit is not None
        assert replay(case.notice_limit_decision, config_for(case.municipality)).differences == ()
        in_time = case.notices.filter(purpose=NoticePurpose.FINAL_DECISION, sent_on__lte=case.notice_limit)
        granted = Appeal.objects.filter(case=case, judgment__verdict__in=(Verdict.GRANTED,)).exists()
        void = day > case.notice_limit and not in_time.exists() and not granted
        nullity = CaseNullity.objects.filter(case=case).first()
        assert (nullity is not None) == void, (case, day)
        if nullity is not None:
            assert case.state == CaseState.CANCELLED and nullity.limit_day == case.notice_limit
            assert "art. 19" in nullity.basis


def _check(seen: Seen, day: dt.date) -> None:
    expected = _model(seen, day)
    _check_permits(expected, day)
    _check_effects(expected, day)
    _check_nullity(day)


@contextmanager
def _law(operator_wide: bool) -> Iterator[None]:
    """The regime as enacted, or with its suspensions aimed at the operator (every permit of the operator)."""
    if not operator_wide:
        yield
        return
    regime_id, keys = OPERATOR_WIDE
    regime = get_regime(regime_id)
    catalog = regime.penalties
    assert catalog is not None
    kinds = dict(catalog.kinds)
    kinds.update({key: replace(kinds[key], target="operator") for key in keys})
    with mock.patch.object(regime, "penalties", replace(catalog, kinds=kinds)):
        yield


# Two histories every profile runs, so each fix is exercised even in the few derandomized CI examples (the
# Patrocínio auto of the world loses its penalty-notice limit in every history: nullity, fix g).
OLIMPIA, VOTUPORANGA = 0, 1
SUSPENDED_TWICE_AND_RENEWED = [
    # art. 24 sole § (immediate, the infraction 25 days old), final on day 1, never regularized: cassação on day 5
    Auto(OLIMPIA, 0, 0, 25, "upheld", (0, 0, 1, 0), None),
    # a 30-day suspension final on day 1, while the first runs: queued after it
    Auto(OLIMPIA, 1, 0, 0, "upheld", (0, 0, 1, 0), None),
]
RENEWED = [Act(OLIMPIA, "renewal", 2, 0)]
SERVED_THEN_OVERLAPPED = [
    # an art. 24 suspension served and over (the sweep reactivates the permit on day 5) ...
    Auto(OLIMPIA, 0, 0, 25, "none", (0, 0, 0, 0), None),
    # ... then a second auto whose period, counted from its infraction, overlaps it: it runs after it
    Auto(OLIMPIA, 0, 6, 20, "none", (0, 0, 0, 0), None),
]
REGULARIZED_AND_OPERATOR_WIDE = [
    # regularized on day 2, before the suspension ends: no cassação
    Auto(OLIMPIA, 0, 0, 27, "upheld", (0, 0, 0, 0), 2),
    # recorded after its suspension period ended: «não aplicado», said on the case
    Auto(OLIMPIA, 0, 1, 31, "none", (0, 0, 0, 0), None),
    # a cassação aimed at the operator: both permits of the company
    Auto(VOTUPORANGA, 0, 0, 0, "upheld", (0, 1, 0, 1), None),
]


@pytest.mark.django_db(transaction=False)
@settings(
    max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(history=HISTORIES, operator_wide=st.booleans())
@example(history=(SUSPENDED_TWICE_AND_RENEWED, RENEWED), operator_wide=False).via(
    "fixes a, b, d, e (not regularized)"
)
@example(history=(SERVED_THEN_OVERLAPPED, []), operator_wide=False).via("fix a, after the sweep reactivated")
@example(history=(REGULARIZED_AND_OPERATOR_WIDE, []), operator_wide=True).via("fixes c, e (regularized), f")
def test_every_permit_status_follows_the_sanctions_as_of_that_day(
    world: World, history: tuple[list[Auto], list[Act]], operator_wide: bool
) -> None:
    with transaction.atomic(), _law(operator_wide):
        seen = Seen()
        schedule = _schedule(*history, world)
        for offset in range(HORIZON + 1):
            day = START + dt.timedelta(days=offset)
            for step in schedule.get(offset, []):
                _happen(step, day)
            seen.observe(day)
            run_sweep(day)
            seen.observe(day)
            _check(seen, day)
        transaction.set_rollback(True)  # the next history starts from the same world

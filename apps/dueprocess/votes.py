"""The votes of a collegiate instance: who sat, from which origin, and how each voted — checked against the body
the regime declares (labels.yaml: members by origin, quorum, decision by vote or by rapporteur).

A single authority records no votes. A collegiate body whose law gives its members records one vote per member
present (one whose law is silent on them may record its votes, checked for their majority only): the members present
reach the quorum, no origin sends more members than the law gives it, and the majority of the votes is the
verdict recorded (a tie decides nothing: the body must break it as its rules say, and the judgment is not
recorded). A body deciding by rapporteur names him among the members present.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from apps.dueprocess.choices import CONDEMNING
from apps.dueprocess.procedure import body_of, cite_pt
from apps.web.refusals import refuse
from lawcode.labels import Body

CONDEMN, ACQUIT, ABSTAIN = "condemn", "acquit", "abstain"
VOTE_CHOICES = (CONDEMN, ACQUIT, ABSTAIN)


@dataclass(frozen=True)
class Vote:
    member: str
    origin: str
    vote: str
    rapporteur: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "member": self.member,
            "origin": self.origin,
            "vote": self.vote,
            "rapporteur": self.rapporteur,
        }


def vote_labels(condemn: str, acquit: str) -> dict[str, str]:
    """What each vote means in the regime's own verdict words."""
    return {
        CONDEMN: f"Pela condenação ({condemn})",
        ACQUIT: f"Pela absolvição ({acquit})",
        ABSTAIN: "Abstenção",
    }


def checked_votes(
    body: Body, verdict: str, votes: Sequence[Mapping[str, Any]], *, where: str
) -> list[dict[str, Any]]:
    """The votes as stored on the judgment, or a refusal naming the field, the body and (``where``) its
    article."""
    rows = [_vote(item) for item in votes if str(item.get("member") or "").strip()]
    if not body.collegiate:
        if rows:
            raise refuse("votes", f"Votos: {where} decide sozinho; não há votos a registrar.")
        return []
    if not rows:
        if not body.members:
            return []  # the law gives no composition: the votes are the body's own record, not Outorga's check
        raise refuse("votes", f"Votos: {where} é órgão colegiado; registre o voto de cada membro presente.")
    names = [row.member.casefold() for row in rows]
    if len(set(names)) != len(names):
        raise refuse("votes", "Votos: o mesmo membro aparece duas vezes.")
    _check_composition(body, rows, where)
    if body.decision == "rapporteur" and sum(row.rapporteur for row in rows) != 1:
        raise refuse(
            "votes", f"Votos: {where} decide pelo relator; indique um (e só um) relator entre os presentes."
        )
    tally = Counter(row.vote for row in rows if row.vote != ABSTAIN)
    if tally[CONDEMN] == tally[ACQUIT]:
        raise refuse(
            "votes",
            f"Votos: empate ({tally[CONDEMN]} a {tally[ACQUIT]}); o julgamento só se registra com maioria.",
        )
    majority = CONDEMN if tally[CONDEMN] > tally[ACQUIT] else ACQUIT
    expected = CONDEMN if verdict in CONDEMNING else ACQUIT
    if majority != expected:
        raise refuse(
            "verdict",
            f"Decisão: a maioria dos votos ({tally[majority]} a {tally[expected]}) não corresponde à decisão "
            "escolhida.",
        )
    return [row.to_dict() for row in rows]


def _vote(item: Mapping[str, Any]) -> Vote:
    vote = str(item.get("vote") or "")
    member = str(item.get("member") or "").strip()
    if vote not in VOTE_CHOICES:
        raise refuse("votes", f"Votos: indique o voto de {member}.")
    return Vote(member, str(item.get("origin") or "").strip(), vote, bool(item.get("rapporteur")))


def _check_composition(body: Body, rows: list[Vote], where: str) -> None:
    if body.quorum is not None and len(rows) < body.quorum:
        raise refuse(
            "votes",
            f"Votos: {len(rows)} membro(s) presente(s); o quórum de {where} é {body.quorum}.",
        )
    if not body.members:
        return
    seats = {member.origin: member.count for member in body.members}
    present = Counter(row.origin for row in rows)
    for origin, count in present.items():
        if origin not in seats:
            raise refuse("votes", f"Votos: origem «{origin}» não faz parte de {where}.")
        if count > seats[origin]:
            raise refuse(
                "votes", f"Votos: {count} membros de «{origin}»; {where} tem {seats[origin]} dessa origem."
            )


def judgment_votes(
    regime_id: str, instance: str, verdict: str, votes: Sequence[Mapping[str, Any]], on: dt.date
) -> list[dict[str, Any]]:
    """The votes to store for a judgment of ``instance``, checked against the body the regime declares."""
    body = body_of(regime_id, instance)
    return checked_votes(body, verdict, votes, where=f"{body.name} ({cite_pt(regime_id, body.cite, on)})")

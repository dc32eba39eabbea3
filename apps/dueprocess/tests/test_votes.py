"""A collegiate instance records who voted what (labels.yaml bodies): the quorum, the seats of each origin and the
majority are checked, a tie records nothing, a single authority records no votes; the votes show on the case."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from apps.dueprocess.choices import Instance, Verdict
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.dueprocess.votes import ABSTAIN, ACQUIT, CONDEMN, checked_votes
from apps.enforcement.choices import NoticePurpose
from lawcode.labels import Body, Member

from .helpers import notify, open_case

D = dt.date
BOARD = Body(
    instance="first",
    name="Junta Mista",
    kind="collegiate",
    decision="vote",
    cite="art1",
    members=(Member("Prefeitura", 3), Member("Motoristas", 2)),
    quorum=3,
)
ALONE = Body(instance="first", name="Secretário", kind="single", decision="single", cite="art1")


def vote(member: str, origin: str, how: str, *, rapporteur: bool = False) -> dict[str, Any]:
    return {"member": member, "origin": origin, "vote": how, "rapporteur": rapporteur}


def refused(body: Body, verdict: str, votes: list[dict[str, Any]]) -> str:
    with pytest.raises(ValidationError) as wrong:
        checked_votes(body, verdict, votes, where=body.name)
    return " ".join(wrong.value.messages)


def test_the_majority_of_the_members_present_is_the_verdict() -> None:
    votes = [
        vote("Ana", "Prefeitura", CONDEMN),
        vote("Bia", "Prefeitura", CONDEMN),
        vote("Caio", "Motoristas", ACQUIT),
    ]
    stored = checked_votes(BOARD, Verdict.UPHELD, votes, where="Junta Mista")
    assert [(row["member"], row["vote"]) for row in stored] == [
        ("Ana", CONDEMN),
        ("Bia", CONDEMN),
        ("Caio", ACQUIT),
    ]
    assert "não corresponde à decisão" in refused(BOARD, Verdict.GRANTED, votes)


def test_below_the_quorum_a_tie_or_too_many_of_one_origin_is_refused() -> None:
    assert "o quórum de Junta Mista é 3" in refused(
        BOARD, Verdict.UPHELD, [vote("Ana", "Prefeitura", CONDEMN), vote("Bia", "Prefeitura", CONDEMN)]
    )
    tie = [
        vote("Ana", "Prefeitura", CONDEMN),
        vote("Caio", "Motoristas", ACQUIT),
        vote("Dora", "Prefeitura", ABSTAIN),
    ]
    assert "empate (1 a 1)" in refused(BOARD, Verdict.UPHELD, tie)
    crowded = [vote(name, "Motoristas", CONDEMN) for name in ("Caio", "Davi", "Eva")]
    assert "3 membros de «Motoristas»; Junta Mista tem 2" in refused(BOARD, Verdict.UPHELD, crowded)
    assert "não faz parte" in refused(BOARD, Verdict.UPHELD, [vote(n, "Câmara", CONDEMN) for n in "ABC"])
    assert "registre o voto de cada membro" in refused(BOARD, Verdict.UPHELD, [])


def test_a_rapporteur_body_names_one_rapporteur() -> None:
    body = Body(**{**BOARD.__dict__, "decision": "rapporteur"})
    votes = [vote(n, "Prefeitura", CONDEMN) for n in ("Ana", "Bia", "Dora")]
    assert "indique um (e só um) relator" in refused(body, Verdict.UPHELD, votes)
    votes[0]["rapporteur"] = True
    assert checked_votes(body, Verdict.UPHELD, votes, where="x")[0]["rapporteur"] is True


def test_a_single_authority_records_no_votes() -> None:
    assert checked_votes(ALONE, Verdict.UPHELD, [], where="Secretário") == []
    assert "decide sozinho" in refused(ALONE, Verdict.UPHELD, [vote("Ana", "", CONDEMN)])


@pytest.mark.django_db
def test_the_jari_records_its_votes_and_the_case_page_shows_them(
    votuporanga: Any,
    agent_votuporanga_: Any,
    judge_votuporanga: Any,
    jari_votuporanga: Any,
    votuporanga_licensed: Any,
    client: Any,
) -> None:
    case = open_case(
        votuporanga,
        agent_votuporanga_,
        code="VOT-9-I",
        plate=votuporanga_licensed[0].vehicle.plate,
        on=D(2026, 3, 12),
    )
    notify(case, agent_votuporanga_, D(2026, 3, 12))
    first = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 20),
        text="Defesa.",
        actor=judge_votuporanga,
        as_of=D(2026, 3, 20),
    )
    appeal_judge(
        appeal=first,
        verdict=Verdict.UPHELD,
        reasoning="Mantido.",
        decided_on=D(2026, 3, 25),
        actor=judge_votuporanga,
        as_of=D(2026, 3, 25),
    )
    notify(case, agent_votuporanga_, D(2026, 3, 26), NoticePurpose.FIRST_DECISION)
    second = appeal_file(
        case=case,
        instance=Instance.SECOND,
        filed_on=D(2026, 3, 30),
        text="Recurso.",
        actor=judge_votuporanga,
        as_of=D(2026, 3, 30),
    )
    votes = [
        vote("Ana Lima", "Poder Executivo", CONDEMN),
        vote("Rui Alves", "Sociedade civil", ACQUIT),
        vote("Lia Reis", "Poder Executivo", CONDEMN),
    ]
    judgment = appeal_judge(
        appeal=second,
        verdict=Verdict.UPHELD,
        reasoning="Mantém.",
        decided_on=D(2026, 4, 2),
        actor=jari_votuporanga,
        as_of=D(2026, 4, 2),
        votes=votes,
    )
    assert [row["member"] for row in judgment.votes] == ["Ana Lima", "Rui Alves", "Lia Reis"]
    client.force_login(jari_votuporanga)
    page = client.get(reverse("dueprocess:case", args=[votuporanga.ibge_code, case.pk])).content.decode()
    assert "Rui Alves (Sociedade civil): Pela absolvição (Recurso procedente — auto cancelado)" in page
    assert "Recurso improcedente — penalidade mantida" in page
    assert "Junta Administrativa de Recurso de Infratores (JARI)" in page

"""The parser on generated laws in the three shapes we know: one line per dispositivo, blank-line separated
blocks, and PDF-like hard-wrapped lines. Whatever the shape, the ids and texts must come out the same."""

from __future__ import annotations

import datetime as dt
import textwrap
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from lawcode.texts import int_to_roman, parse_law_text

WORDS = (
    "transporte",
    "escolar",
    "veículo",
    "condutor",
    "prazo",
    "dias",
    "alvará",
    "município",
    "vistoria",
    "autorização",
    "serviço",
    "documento",
    "requisito",
    "multa",
    "secretaria",
)


@dataclass
class Node:
    id: str
    marker: str
    text: str
    children: list[Node] = field(default_factory=list)


sentences = st.lists(st.sampled_from(WORDS), min_size=2, max_size=18).map(lambda w: " ".join(w) + ";")


@st.composite
def incisos(draw: st.DrawFn, parent: str, with_alineas: bool) -> list[Node]:
    out = []
    for number in range(1, draw(st.integers(0, 4)) + 1):
        roman = int_to_roman(number)
        node = Node(f"{parent}_inc{roman}", f"{roman} –", draw(sentences))
        if with_alineas:
            node.children = [
                Node(f"{node.id}_{letter}", f"{letter})", draw(sentences))
                for letter in "abc"[: draw(st.integers(0, 3))]
            ]
        out.append(node)
    return out


@st.composite
def articles(draw: st.DrawFn) -> list[Node]:
    out = []
    for number in range(1, draw(st.integers(1, 6)) + 1):
        art = Node(f"art{number}", "", draw(sentences))
        art.children = draw(incisos(art.id, True))
        paragraphs = draw(st.integers(0, 3))
        if paragraphs == 1 and draw(st.booleans()):
            art.children.append(Node(f"{art.id}_parun", "Parágrafo único.", draw(sentences)))
        else:
            for p in range(1, paragraphs + 1):
                par = Node(f"{art.id}_par{p}", "", draw(sentences))
                par.children = draw(incisos(par.id, False))
                art.children.append(par)
        out.append(art)
    return out


def flatten(nodes: list[Node]) -> list[Node]:
    out = []
    for node in nodes:
        out.append(node)
        out.extend(flatten(node.children))
    return out


def marker(node: Node, style: str) -> str:
    last = node.id.rsplit("_", 1)[-1]
    number = "".join(c for c in last if c.isdigit())
    if last.startswith("art"):
        return {
            "olimpia": f"Art. {number}.º",
            "votuporanga": f"Art. {number}º",
            "patrocinio": f"Art. {number}",
        }[style]
    if last.startswith("par") and last != "parun":
        return {"olimpia": f"§ {number}.º", "votuporanga": f"§ {number}º", "patrocinio": f"§{number}º."}[
            style
        ]
    if style == "patrocinio" and last == "parun":
        return "Parágrafo Único:"
    return node.marker


def render(nodes: list[Node], style: str) -> str:
    lines = [
        "PREFEITURA MUNICIPAL DE EXEMPLO",
        "LEI Nº 1, DE 2 DE JANEIRO DE 2020",
        "CAPÍTULO I",
        "Disposições Preliminares" if style == "patrocinio" else "DAS DISPOSIÇÕES GERAIS",
    ]
    for node in flatten(nodes):
        line = f"{marker(node, style)} {node.text}"
        if style == "patrocinio":
            lines.extend(textwrap.wrap(line, width=38))
        else:
            lines.append(line)
    lines += [
        "Prefeitura Municipal de Exemplo, em 2 de janeiro de 2020.",
        "FULANO DE TAL",
        "Prefeito Municipal",
    ]
    return ("\n\n" if style == "votuporanga" else "\n").join(lines) + "\n"


@settings(max_examples=120, deadline=None)
@given(law=articles(), style=st.sampled_from(["olimpia", "votuporanga", "patrocinio"]))
def test_ids_and_texts_survive_every_layout(law: list[Node], style: str) -> None:
    parsed = parse_law_text(render(law, style), source="gerada.txt", in_force=dt.date(2020, 1, 2))
    expected = flatten(law)
    assert parsed.ids() == [node.id for node in expected]
    for node in expected:
        assert parsed.get(node.id).text == node.text, (style, node.id)

"""What every screen must pass, checked in the browser (tests/e2e/test_ux_crawl.py): Portuguese only — no
engine or developer text (snake_case codes, regime ids, «codes», English engine phrases, Python values), no ISO
date outside a <time datetime> element —, no server error, no JavaScript error, and axe-core's WCAG 2.1 A/AA
rules with no violation."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# What leaks when an engine message, a code or a Python value reaches a screen untranslated.
LEAKS: dict[str, re.Pattern[str]] = {
    "código interno (snake_case)": re.compile(r"(?<![\w@./-])[a-z]+(?:_[a-z0-9]+)+(?![\w@.-])"),
    "código entre «»": re.compile(r"«[a-z0-9_.]+»"),
    "texto do motor em inglês": re.compile(
        r"\b(?:does not ask|it asks for|does not|is not|must be|not found|engine|invalid value|"
        r"missing fact|required field|unknown)\b",
        re.IGNORECASE,
    ),
    "valor Python": re.compile(r"\{'[^']+': |\bNone\b|\bTrue\b|\bFalse\b"),
    "data ISO fora de <time>": re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    "ação de auditoria crua": re.compile(
        r"\b[a-z_]+\.(?:read|create|update|delete|issue|judge|file|send|add|save|approve|submit|final|annul)\b"
    ),
}

# The page's words as a person reads them: hidden parts included (an opened <details> shows them); the
# machine-readable <time datetime>, scripts, and names a page shows on purpose as data ([data-ux-code]: the
# open-data column names) excluded.
VISIBLE_TEXT = """() => {
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll('script, style, noscript, time, template, [data-ux-code]').forEach(e => e.remove());
  return copy.textContent.replace(/\\s+/g, ' ');
}"""

LINKS = (
    """() => [...document.querySelectorAll('main a[href], nav a[href]')].map(a => a.getAttribute('href'))"""
)

SKIP = re.compile(
    r"/sair/|/logout|\.pdf|/pdf/|/qr|/arquivo|\.csv|\.json|\.xlsx|formato=|/static/|/media/|/api/|download|/anexos/|/provas/"
)


@dataclass
class PageReport:
    url: str
    problems: list[str] = field(default_factory=list)


def text_problems(text: str) -> list[str]:
    found = []
    for label, pattern in LEAKS.items():
        for match in pattern.finditer(text):
            start = max(match.start() - 40, 0)
            found.append(f"{label}: …{text[start : match.end() + 40].strip()}…")
            break
    return found


def watch_console(page: Any, sink: list[str]) -> None:
    page.on("console", lambda m: sink.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: sink.append(f"JavaScript: {e}"))


def check_page(page: Any, url: str, errors: list[str]) -> PageReport:
    """Open the page and report every problem a person would see on it."""
    report = PageReport(url)
    errors.clear()
    response = page.goto(url)
    if response is None or response.status >= 500:
        report.problems.append(f"HTTP {response.status if response else 'sem resposta'}")
        return report
    page.wait_for_load_state("load")
    report.problems += text_problems(page.evaluate(VISIBLE_TEXT))
    report.problems += list(errors)
    return report


def same_site_links(page: Any, base_url: str) -> list[str]:
    out = []
    for href in page.evaluate(LINKS):
        if not href or href.startswith(("#", "mailto:", "tel:", "javascript:")):
            continue
        url = urljoin(page.url, href).split("#")[0]
        if urlsplit(url).netloc != urlsplit(base_url).netloc or SKIP.search(url):
            continue
        out.append(url)
    return list(dict.fromkeys(out))


def axe_violations(page: Any) -> list[str]:
    """axe-core's WCAG 2.1 A/AA violations of the open page. The script is evaluated (the CSP forbids an
    injected <script>; Playwright's evaluate runs outside the page's policy)."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}})).violations"
        ".map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))",
        WCAG_21_AA,
    )
    return list(result)


COUNT_LINK = re.compile(r'<a href="([^"]+)" data-count-link aria-label="([^"]*)">(\d+)</a>')
LIST_COUNT = re.compile(r"<caption>\s*(\d+)\s")


def dashboard_count_problems(client: Any) -> tuple[int, list[str]]:
    """Every figure of the signed-in user's home page that links to a list must equal the number of rows that
    list shows (its caption): "Autorizatários ativos 0" next to active permits is the bug this guards.
    Returns how many figures were compared, and the disagreements."""
    home = client.get("/", follow=True)
    problems = []
    figures = COUNT_LINK.findall(home.content.decode())
    for url, label, value in figures:
        url = url.replace("&amp;", "&")
        listing = client.get(url)
        found = LIST_COUNT.search(listing.content.decode()) if listing.status_code == 200 else None
        if found is None:
            problems.append(
                f"painel «{label}» leva a {url}, que não mostra a contagem ({listing.status_code})"
            )
        elif found.group(1) != value:
            problems.append(f"painel «{label}» diz {value}, a lista {url} mostra {found.group(1)}")
    return len(figures), problems

"""The AVeriTeC reader (Schlichtkrull et al. 2023): real claims, each with the questions a
fact-checker asked and the answers they found on the web, every answer with its source URL.

The offline web: every answer becomes (part of) a page at its source's original URL, the
Wayback Machine prefix removed and its capture time used as the page's date. A page holds only
what a real page would: the answer text, a paragraph for each of its lines (a yes / no answer's
explanation, without the bare "Yes" or "No" that is the annotator's verdict), and a title made
from the URL's last path segment, or none. The annotator's question, which restates the claim,
appears nowhere. Answers from one URL share one page. The fact-checking article that labelled a
claim (the answer key) is never a page, nor is any other claim's. The claim date ends the
claim's timeframe.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from claims.models import Outcome
from evaluation.dataset import (
    Dataset,
    DatasetError,
    LabelledClaim,
    WebPage,
    WebSection,
)
from integrations.http.canonical import canonicalize_url
from registry.domain_rows import DomainError, normalize_domain_name

LABELS = {
    "Supported": Outcome.TRUE.value,
    "Refuted": Outcome.FALSE.value,
    "Not Enough Evidence": Outcome.INVALID.value,
    "Conflicting Evidence/Cherrypicking": Outcome.INVALID.value,
}
LABEL_NAMES = {
    Outcome.TRUE.value: "True",
    Outcome.FALSE.value: "False",
    Outcome.INVALID.value: "Invalid",
}
MISINFO_LIST = "misinfo_list.txt"
ANSWER_TYPES = ("extractive", "abstractive", "boolean")

_WAYBACK = re.compile(
    r"^https?://(?:www\.)?web\.archive\.org/web/(?P<stamp>\d{4,14})(?:[a-z]{2}_)?/(?P<url>.+)$",
    re.IGNORECASE,
)
_HOST_LIKE = re.compile(r"^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:/|$)", re.IGNORECASE)


def unarchive(url: str) -> tuple[str, datetime | None]:
    """The original URL behind a Wayback Machine link and the capture time, or the URL as it
    is with no time. A bare `host/path` gets https://, as a browser would give it."""
    url = url.strip()
    stamp: datetime | None = None
    if match := _WAYBACK.match(url):
        url = match["url"]
        digits = match["stamp"].ljust(14, "0")
        try:
            stamp = datetime.strptime(digits[:8], "%Y%m%d").replace(tzinfo=UTC)
            stamp = datetime.strptime(digits, "%Y%m%d%H%M%S").replace(tzinfo=UTC)
        except ValueError:
            pass  # a malformed time part: the day (if it parsed) is still the capture date
        if not re.match(r"^https?://", url, re.IGNORECASE):
            url = "http://" + url.lstrip("/")
    elif not re.match(r"^https?://", url, re.IGNORECASE) and _HOST_LIKE.match(url):
        url = "https://" + url
    return url, stamp


def _canonical(url: str) -> str | None:
    if not re.match(r"^https?://", url, re.IGNORECASE):
        return None
    try:
        return canonicalize_url(url)
    except ValueError:
        return None


def _claim_date(raw: Any) -> datetime | None:
    """AVeriTeC writes DD-MM-YYYY; the timeframe ends with the whole of that day."""
    if not raw:
        return None
    try:
        day = datetime.strptime(str(raw), "%d-%m-%Y").date()
    except ValueError as exc:
        raise DatasetError(f"claim_date {raw!r} is not DD-MM-YYYY") from exc
    return datetime.combine(day, time.max, tzinfo=UTC)


_BARE = re.compile(r"^(?:yes|no)\W*$", re.IGNORECASE)
_SLUG_WORD = re.compile(r"[a-z]{2,}", re.IGNORECASE)


def answer_paragraphs(answer: dict[str, Any]) -> list[str]:
    """What a page would say of an answer, one paragraph a line as the annotator copied it from
    the page (a heading, a label and the sentence under them stay apart, as on the page): a
    yes / no answer's explanation alone (the bare "Yes" / "No" is the annotator's verdict, not
    page text); otherwise the answer itself. An answer that is nothing but "Yes" or "No" says
    nothing a page would: no paragraph."""
    explanation = str(answer.get("boolean_explanation") or "")
    return _lines(explanation if explanation.strip() else str(answer.get("answer") or ""))


def _lines(text: str) -> list[str]:
    """The text's lines, each with its white space collapsed; blank ones and a bare "Yes" or
    "No" left out."""
    lines = (" ".join(part.split()) for part in text.splitlines())
    return [line for line in lines if line and not _BARE.match(line)]


def title_from_url(url: str) -> str:
    """A title as many sites make one from the article's slug: the last path segment's words
    (`/2020/11/fed-raises-rates.html` → "Fed raises rates"), or "" when it has none (an id, a
    date, a bare domain)."""
    path = urlsplit(url).path.rstrip("/")
    segment = path.rsplit("/", 1)[-1] if path else ""
    segment = re.sub(r"\.(?:s?html?|php|aspx?|jsp|cms)$", "", segment, flags=re.IGNORECASE)
    words = [w for w in re.split(r"[-_+.]+", segment) if w]
    if len(words) < 2 or len(_SLUG_WORD.findall(segment)) < 2:
        return ""
    title = " ".join(words)
    return title[:1].upper() + title[1:]


def read_denied(path: Path) -> tuple[list[str], int]:
    """Domain names from the authors' misinformation list, and how many lines were not one."""
    names: list[str] = []
    bad = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        raw = line.strip()
        if not raw or raw.startswith("#"):
            continue
        host = re.sub(r"^https?://", "", raw, flags=re.IGNORECASE).split("/")[0]
        try:
            name = normalize_domain_name(host.removeprefix("www."))
        except DomainError:
            bad += 1
            continue
        if name not in names:
            names.append(name)
    return names, bad


def read_averitec(path: Path) -> Dataset:
    """Read an AVeriTeC JSON file (a list of claims). `misinfo_list.txt` beside it, when
    there, lists domains the run treats as denied."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DatasetError(f"cannot read {path}: {exc}") from exc
    if not isinstance(raw, list):
        raise DatasetError(f"{path} is not a list of AVeriTeC claims")

    answer_keys = set()
    for item in raw:
        article = str(item.get("fact_checking_article") or "") if isinstance(item, dict) else ""
        canonical = _canonical(unarchive(article)[0]) if article else None
        if canonical:
            answer_keys.add(canonical)

    left_out: dict[str, int] = {}

    def skip(why: str) -> None:
        left_out[why] = left_out.get(why, 0) + 1

    pages: dict[str, WebPage] = {}
    claims: list[LabelledClaim] = []
    for index, item in enumerate(raw):
        if not isinstance(item, dict) or not str(item.get("claim") or "").strip():
            raise DatasetError(f"item {index} has no claim text")
        label = str(item.get("label") or "")
        if label not in LABELS:
            raise DatasetError(f"item {index}: label {label!r} is not one of {sorted(LABELS)}")
        urls: list[str] = []
        types: list[str] = []
        for question in item.get("questions") or []:
            for answer in question.get("answers") or []:
                kind = str(answer.get("answer_type") or "").strip().lower()
                if kind in ANSWER_TYPES and kind not in types:
                    types.append(kind)
                paragraphs = answer_paragraphs(answer)
                source, stamp = unarchive(str(answer.get("source_url") or ""))
                canonical = _canonical(source)
                if canonical is None:
                    skip("answers with no source URL (unanswerable, or 'Metadata')")
                    continue
                if canonical in answer_keys:
                    skip("answers whose source is a fact-checking article")
                    continue
                if not paragraphs:
                    skip("answers with no text a page would hold (empty, or a bare Yes / No)")
                    continue
                page = pages.get(canonical)
                if page is None:
                    page = pages[canonical] = WebPage(
                        url=source, title=title_from_url(source), published=stamp
                    )
                    page.sections.append(WebSection("", []))
                elif stamp is not None and (page.published is None or stamp < page.published):
                    page.published = stamp
                for paragraph in paragraphs:
                    if paragraph not in page.sections[0].paragraphs:
                        page.sections[0].paragraphs.append(paragraph)
                if canonical not in urls:
                    urls.append(canonical)
        claims.append(
            LabelledClaim(
                key=str(index),
                text=" ".join(str(item["claim"]).split()),
                gold=LABELS[label],
                gold_label=label,
                timeframe_end=_claim_date(item.get("claim_date")),
                page_urls=tuple(urls),
                tags=tuple(types),
            )
        )

    denied: list[str] = []
    notes = [
        "Label mapping: Supported → True, Refuted → False, Not Enough Evidence and "
        "Conflicting Evidence/Cherrypicking → Invalid.",
        "Each claim's timeframe ends with its claim date (no start).",
        "Pages hold the answer text only (a yes / no answer's explanation without the bare "
        "Yes / No); titles come from the URL's slug or are empty; questions appear nowhere.",
    ]
    misinfo = path.with_name(MISINFO_LIST)
    if misinfo.is_file():
        denied, bad = read_denied(misinfo)
        notes.append(f"{len(denied)} domains from {MISINFO_LIST} are denied for the run.")
        if bad:
            left_out[f"lines of {MISINFO_LIST} that are not domain names"] = bad
    return Dataset(
        name="averitec",
        label_names=LABEL_NAMES,
        claims=claims,
        pages=pages,
        denied_domains=denied,
        left_out=left_out,
        notes=notes,
    )

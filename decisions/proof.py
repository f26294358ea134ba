"""The proof: a short markdown account of a verdict, and its safe HTML rendering.

By default a template writes it from the evidence. With an LLM configured, the gateway writes it
from the same sources and may cite only them; a reply that cites anything else is an error, not a
proof. A failed LLM proof (no answer in time, a dead server, a reply cut off or citing what it was
not given) is replaced by the template's, and `WrittenProof.llm_error` says why, for the timeline.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import markdown as md
import nh3

from claimcheck.config import get_config
from claims.models import Outcome
from decisions.models import VerdictReason
from decisions.publishers import surest
from decisions.uncounted import conflict_words, left_out, why_words
from integrations import llm

if TYPE_CHECKING:
    from decisions.models import Override
    from decisions.types import AgentResult, ClaimQuestion, Source, Totals, Weighing

logger = logging.getLogger(__name__)

_REASON_TEXT = {
    VerdictReason.SUFFICIENT: "enough independent, weighted sources agree",
    VerdictReason.INSUFFICIENT: "the sources found do not reach the agreement threshold",
    VerdictReason.CONFLICTING: "weighty sources contradict each other",
    VerdictReason.WEIGHED: (
        "the weighed evidence makes it likely, short of the counting bar: a proposal for the "
        "editor to review"
    ),
    VerdictReason.NO_SOURCES: "no usable source was found",
    # Verdicts stored before leaning became a hint keep their reason.
    VerdictReason.LEANING: (
        "the search is over and the sources found lean this way, though they do not reach the "
        "agreement threshold: treat it as provisional until an editor has reviewed it"
    ),
}


def _escape(text: str) -> str:
    """Keep source text from being read as markdown or HTML structure."""
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", " ".join(text.split()))


def _timeframe(question: ClaimQuestion) -> str:
    start = question.timeframe_start.date().isoformat() if question.timeframe_start else None
    end = question.timeframe_end.date().isoformat() if question.timeframe_end else None
    if start and end:
        return f" (timeframe {start} to {end})"
    if start:
        return f" (timeframe from {start})"
    if end:
        return f" (timeframe until {end})"
    return ""


def _not_counted(weighing: Weighing | None) -> dict[tuple[str, str], str]:
    """Why each address's reading of a side did not count, for the sources listed: an
    address counts for a side when any of its readings of that side counted. Where a page and
    its snippet read the same side and neither counted, the page's reason is the one told."""
    if weighing is None:
        return {}
    counted = {(c.hit.url, c.hit.stance) for c in weighing.counts if c.counted}
    notes: dict[tuple[str, str], str] = {}
    for count in sorted(weighing.counts, key=lambda c: surest(c.hit), reverse=True):
        key = (count.hit.url, count.hit.stance)
        if key not in counted and key not in notes:
            notes[key] = why_words(count, min_confidence=weighing.min_confidence)
    return notes


def _source_line(number: int, source: Source, note: str = "") -> str:
    dates = []
    if source.event_date:
        dates.append(f"event {source.event_date}")
    if source.pub_date:
        dates.append(f"published {source.pub_date}")
    when = f", {', '.join(dates)}" if dates else ""
    publisher = source.publisher or ""
    if source.syndicated_from:
        publisher = f"{publisher}, syndicated from {source.syndicated_from}"
    who = f"{_escape(publisher)}, " if publisher else ""
    quote = f': "{_escape(source.excerpt[:280])}"' if source.excerpt else ""
    title = _escape(source.title)
    # A weight is shown where it counted; a row that did not count says why instead.
    weight = "" if note else f" weight {source.weight:.1f},"
    uncounted = f"; not counted: {_escape(note)}" if note else ""
    return (
        f"{number}. [{title}]({source.url}) ({who}{source.tier},{weight}"
        f" {source.stance}{when}{uncounted}){quote}"
    )


def _source_lines(
    sources: list[Source], notes: dict[tuple[str, str], str], first: int
) -> list[str]:
    return [
        _source_line(i, s, notes.get((s.url, s.stance), ""))
        for i, s in enumerate(sources, start=first)
    ]


def _sources_heading(result: AgentResult) -> str:
    if result.outcome == Outcome.TRUE:
        return "**Sources that support the claim**"
    if result.outcome == Outcome.FALSE:
        return "**Sources that refute the claim**"
    return "**Sources weighed**"


def _totals_line(totals: Totals, weighing: Weighing | None) -> str:
    """Each side's counted weight and, when readings that took a side count toward neither,
    how many and why: the numbers the decision line and the evidence table show."""
    line = (
        f"Support {totals.support.total:.1f} from {len(totals.support.domains)} publisher(s), "
        f"refute {totals.refute.total:.1f} from {len(totals.refute.domains)} publisher(s); "
        f"a side needs {totals.threshold:.1f} from at least two independent publishers."
    )
    missing = left_out(weighing) if weighing is not None else ""
    return f"{line} Not counted toward either total: {missing}." if missing else line


def _proposal_lines(proposal: dict[str, Any] | None) -> list[str]:
    """The weighed proposal: what it proposes (or where it leans), the chance of each outcome,
    and the sources that weighed most in it."""
    if not proposal:
        return []
    p = proposal["probabilities"]
    lines = [
        "",
        f"**Weighed together:** {_escape(proposal['text'])}. The chance it is True is "
        f"{p['true']:.2f}, False {p['false']:.2f}, not decidable {p['invalid']:.2f}.",
    ]
    if proposal.get("movers"):
        lines += ["", "**The sources that weighed most**", ""]
        lines += [f"- {_escape(m['text'])}" for m in proposal["movers"]]
    return lines


def template_proof(
    *,
    question: ClaimQuestion,
    result: AgentResult,
    totals: Totals,
    weighing: Weighing | None = None,
) -> str:
    outcome = Outcome(result.outcome).label
    reason = VerdictReason(result.reason)
    lines = [
        f"**Claim:** {_escape(question.text)}{_timeframe(question)}",
        "",
        f"**Verdict: {outcome}**, because {_REASON_TEXT[reason]}.",
        "",
        _totals_line(totals, weighing),
    ]
    conflict = conflict_words(weighing) if weighing is not None else ""
    if reason == VerdictReason.CONFLICTING and conflict:
        lines += ["", f"**Why they conflict:** {_escape(conflict)}"]
    if result.lean is not None:
        lines += [
            "",
            f"The evidence {_escape(result.lean.text)}: a hint for the editor, not a verdict.",
        ]
    lines += _proposal_lines(result.proposal)
    if totals.outside_window:
        lines += [
            "",
            f"{len(totals.outside_window)} supporting source(s) dated outside the timeframe "
            "were not counted.",
        ]
    notes = _not_counted(weighing)
    if result.sources:
        lines += ["", _sources_heading(result), ""]
        lines += _source_lines(result.sources, notes, 1)
    if result.unsided:
        lines += ["", "**Also read, not counted**", ""]
        lines += _source_lines(result.unsided, notes, len(result.sources) + 1)
    if not result.sources and not result.unsided:
        lines += ["", "No sources found."]
    return "\n".join(lines)


def llm_proof(
    *,
    question: ClaimQuestion,
    result: AgentResult,
    totals: Totals,
    weighing: Weighing | None = None,
) -> str:
    prompt, _ = llm.load_prompt("proof")
    numbered = "\n".join(
        _source_lines([*result.sources, *result.unsided], _not_counted(weighing), 1)
    )
    conflict = conflict_words(weighing) if weighing is not None else ""
    user = (
        f"Claim: {question.text}{_timeframe(question)}\n"
        f"Verdict: {Outcome(result.outcome).label} ({_REASON_TEXT[VerdictReason(result.reason)]})\n"
        f"{_totals_line(totals, weighing)}\n"
        + (f"Why they conflict: {conflict}\n" if conflict else "")
        + f"\nSources:\n{numbered or '(none)'}"
    )
    reply = llm.complete_text(system=prompt, user=user, purpose="proof").value
    check_citations(reply, sources=[*result.sources, *result.unsided])
    return reply


def check_citations(text: str, *, sources: list[Source]) -> None:
    """An LLM proof may cite only the numbered sources and link only their URLs."""
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", text)}
    unknown = sorted(n for n in cited if not 1 <= n <= len(sources))
    allowed = {s.url for s in sources}
    links = set(re.findall(r"https?://[^\s)\]>\"']+", text))
    foreign = sorted(link for link in links if link.rstrip(".,;") not in allowed)
    if unknown or foreign:
        raise llm.LLMError(
            kind="bad_output",
            details=f"the proof cites sources it was not given: {unknown or foreign}",
        )


TEMPLATE_WRITER = "this machine's template"


@dataclass(frozen=True)
class WrittenProof:
    markdown: str
    # "timeout: ..." when the LLM was asked and failed, and the template wrote the proof instead.
    llm_error: str | None = None
    # What wrote it: the model on the model server (its configured name), or the template.
    written_by: str = TEMPLATE_WRITER


def write_proof(
    *,
    question: ClaimQuestion,
    result: AgentResult,
    totals: Totals,
    weighing: Weighing | None = None,
) -> WrittenProof:
    """The verdict's proof. With the decision's `weighing` it says why each listed reading
    that did not count was left out, and why the sides conflict. The LLM is asked once: a
    failed call is not sent again (it would be paid twice), the template writes the proof."""
    if llm.is_enabled():
        try:
            return WrittenProof(
                llm_proof(question=question, result=result, totals=totals, weighing=weighing),
                written_by=f"{get_config().llm.model} (model server)",
            )
        except llm.LLMError as exc:
            logger.warning("llm proof failed; the template wrote it", extra={"kind": exc.kind})
            plain = template_proof(
                question=question, result=result, totals=totals, weighing=weighing
            )
            return WrittenProof(plain, llm_error=str(exc))
    return WrittenProof(
        template_proof(question=question, result=result, totals=totals, weighing=weighing)
    )


_ALLOWED_TAGS = {"p", "strong", "em", "a", "ol", "ul", "li", "blockquote", "code", "br", "h3", "h4"}


def render_proof(markdown_text: str) -> str:
    """Markdown to HTML that is safe to show: raw HTML in the source is escaped first, then the
    result is sanitized (only a few tags, http(s) links, rel=noopener)."""
    html = md.markdown(markdown_text.replace("<", "&lt;"), output_format="html")
    return nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes={"a": {"href", "title"}},
        url_schemes={"http", "https"},
        link_rel="noopener noreferrer nofollow",
    )


_VERDICT_LINE = re.compile(r"^\*\*Verdict: (?P<outcome>[^*]+)\*\*", re.MULTILINE)


def proof_as_shown(*, markdown_text: str, override: Override | None) -> str:
    """The proof as readers see it: once an editor has changed the outcome, its lead says so
    ("Editor verdict: Invalid, was False") and the pipeline's own verdict line follows as
    what it was. The stored proof is never edited."""
    if override is None or override.to_outcome == override.verdict.outcome:
        return markdown_text
    pipeline = Outcome(override.verdict.outcome).label
    lead = (
        f"**Editor verdict: {Outcome(override.to_outcome).label}**, was {pipeline}. "
        f"{_escape(override.editor.get_username())} wrote: {_escape(override.reason)}"
    )
    body = _VERDICT_LINE.sub(f"Pipeline verdict: {pipeline}", markdown_text, count=1)
    return f"{lead}\n\n{body}"

"""Findings: what a page (or a search snippet) says about the claim, with a quote to show it.

With an LLM configured, one JSON call per page reads the kept chunks (reader.py); without one,
the page is read on this machine by the fine-tuned model and the lexical rules (local.py).
assess.py chooses between them. Either way every quote is text that occurs in the page, and the
event date it gives is kept apart from the page's own date. The types are in types.py.
"""

from evidence.stance.assess import assess_page
from evidence.stance.combine import model_confidence
from evidence.stance.local import assess_snippet, judge_sentences
from evidence.stance.types import ClaimContext, Finding

__all__ = [
    "ClaimContext",
    "Finding",
    "assess_page",
    "assess_snippet",
    "judge_sentences",
    "model_confidence",
]

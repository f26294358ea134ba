"""Two comparisons of a sentence's details with the claim's, for the readers' readings to be
checked against.

A sentence that *states part of the claim* ("The Union Medicines Agency authorised Nasoflu"
against "... authorised the nasal flu vaccine Nasoflu in October 2024") says nothing the claim
does not: every word it has is the claim's, and it negates nothing the claim asserts. It may
support the claim or say too little to, but it cannot contradict it, whatever a reader makes of
the words it leaves out (`states_part`).

A sentence that *swaps one name* of the claim ("... authorised the nasal flu vaccine Flumist")
names every other name of the claim, so it is about the claim's own actors, and in place of the
one it leaves out names another: the contradiction a reader sees there is one a rule can point
at too (`swapped_name`).
"""

from __future__ import annotations

import re
from typing import Protocol

from claimcheck.words import tokens
from evidence.stance.clauses import governing_negation, is_negator
from evidence.stance.signals import claim_names


class ClaimSignals(Protocol):
    """What these comparisons read of the claim (`scorer.ClaimSignals` has it)."""

    @property
    def text(self) -> str: ...
    @property
    def words(self) -> frozenset[str]: ...
    @property
    def negated(self) -> bool: ...
    @property
    def names(self) -> frozenset[str]: ...


# Words a sentence may add to the claim's without saying anything else of the event: that it
# was said, and by whom in general.
_REPORTING_WORDS = frozenset(
    "said says say told reported reports announced announces according to confirmed confirms "
    "statement also it they he she".split()
)
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?")


def _words(text: str) -> list[str]:
    return [w.lower().replace("\u2019", "'") for w in _WORD.findall(text)]


def states_part(claim: ClaimSignals, passage: str) -> bool:
    """Whether the passage's words are all the claim's, in the claim's order (reporting words
    aside), and it leaves out none of the claim's negations and adds none. The words are
    compared as written, small ones too: "across the Ukrainian capital" is not part of "across
    the Nobel Prize capital, Ukrainian authorities said", nor "Some of the universities" of
    "Pokrovsk of the universities", nor "is so committed" of "is not so committed"."""
    words = [w for w in _words(passage) if w not in _REPORTING_WORDS]
    within = _words(claim.text)
    if not words or not _in_order(words, within):
        return False
    if sum(map(is_negator, within)) != sum(map(is_negator, words)):
        return False
    return governing_negation(passage, claim.words) == claim.negated


def swapped_name(claim: ClaimSignals, passage: str) -> str:
    """The claim's name the passage leaves out where it names every other one of at least two
    and, in its place, one name of its own ("the nasal flu vaccine Flumist" for "the nasal flu
    vaccine Nasoflu": the same word before it or after it), or "" where it does not."""
    if len(claim.names) < 2:
        return ""
    named = claim_names(passage)
    missing = claim.names - named
    own = named - claim.names
    if len(missing) != 1 or len(own) != 1:
        return ""
    (left_out,), (instead,) = missing, own
    in_claim, in_passage = tokens(claim.text), tokens(passage)
    if left_out not in in_claim or instead not in in_passage:
        return ""
    before, after = _neighbours(in_claim, in_claim.index(left_out))
    there = _neighbours(in_passage, in_passage.index(instead))
    same_place = (before and before == there[0]) or (after and after == there[1])
    return left_out if same_place else ""


def _neighbours(words: list[str], at: int) -> tuple[str, str]:
    return (words[at - 1] if at > 0 else "", words[at + 1] if at + 1 < len(words) else "")


def _in_order(words: list[str], within: list[str]) -> bool:
    """Whether `words` is a subsequence of `within`."""
    rest = iter(within)
    return all(word in rest for word in words)

"""The claim page with its live timeline, a quote in context, and the editor's actions on one
claim: override, review, take, release, comment, re-run."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from claimcheck.errors import form_error
from claimcheck.roles import (
    AuthenticatedHttpRequest,
    editor_required,
    require_viewer_request,
    viewer_required,
)
from claims.models import Claim
from claims.services import claim_state
from decisions.errors import ClaimError
from decisions.services import (
    claim_mark_reviewed,
    claim_release,
    claim_rerun,
    claim_take,
    claims_mark_same,
    comment_add,
    verdict_override,
)
from desk import selectors
from desk.forms import (
    CommentForm,
    OverrideForm,
)
from desk.views.common import seen_version, wants_partial


def _claim_context(
    request: AuthenticatedHttpRequest,
    claim: Claim,
    *,
    override_form: OverrideForm | None = None,
    comment_form: CommentForm | None = None,
) -> dict[str, Any]:
    page = selectors.claim_page(claim=claim)
    review = selectors.claim_review_document(
        claim=claim,
        card=page.card,
        reported=page.also_reported_by,
        links=selectors.review_links(request=request, claim_id=claim.pk),
    )
    return {
        "nav": "claims",
        "claim": claim,
        "page": page,
        "override_form": override_form or OverrideForm(initial={"outcome": claim.outcome}),
        "comment_form": comment_form or CommentForm(),
        # Shown as text in the page (escaped like any other) and copied from there.
        "claim_review": None
        if review is None
        else json.dumps(review, indent=2, ensure_ascii=False),
        "claim_review_rating": None if review is None else review["reviewRating"]["alternateName"],
    }


@viewer_required
@require_GET
def claim_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    claim = selectors.claim_for_viewer(user=request.user, claim_id=pk, with_people=True)
    return render(request, "desk/claim_detail.html", _claim_context(request, claim))


@require_GET
def claim_live(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The claim page's poll, while the claim is checked and after: nothing new since the step
    the page shows (`since`) and no change of the claim's state since the version it shows (`v`),
    204 and htmx keeps what it shows; otherwise the live part again, with every step, override,
    keep, take, comment or re-run by anyone since. The version matters on its own: a poll can
    read the claim a moment before the worker decides it and its steps a moment after, so the
    page shows the last step with the verdict still pending; without `v` every later poll would
    find nothing new and the page would wait for a verdict that has come.

    With `check`, asked while the editor is typing (a refresh would swap the form away): 204
    when nothing changed, else one plain sentence of what did, which the page shows above the
    form before it is sent."""
    require_viewer_request(request)
    claim = selectors.claim_get(claim_id=pk, with_people=True)
    if not wants_partial(request) and "check" not in request.GET:
        return redirect("claim_detail", pk=claim.pk)
    try:
        since = int(request.GET.get("since", "-1"))
    except ValueError:
        since = -1
    seen = request.GET.get("v", "")
    same_version = not seen.isdigit() or int(seen) == claim.version
    if since == selectors.last_event_sequence(claim=claim) and same_version:
        return HttpResponse(status=204)
    if "check" in request.GET:
        return HttpResponse(
            _change_words(claim, request.GET.get("v", "")), content_type="text/plain"
        )
    if claim.is_terminal:
        context = _claim_context(request, claim)
    else:
        context = {
            "nav": "claims",
            "claim": claim,
            "page": selectors.claim_page(claim=claim, full=False),
        }
    # The final render also clears "Claim queued" and the like from the message box.
    context["live_update"] = True
    return render(request, "desk/claim_detail.html#live", context)


def _change_words(claim: Claim, seen: str) -> str:
    """What changed since the version the page shows, for an editor about to send a form."""
    if seen.isdigit() and int(seen) != claim.version:
        return f"This claim changed since you opened it: {claim_state(claim_id=claim.pk).words()}."
    return "New on this claim since you opened it: a comment or a step. Look before you send."


@viewer_required
@require_GET
def evidence_context(request: AuthenticatedHttpRequest, pk: int, evidence_id: int) -> HttpResponse:
    """One evidence quote inside the page text it was read from, with a link to the original."""
    claim = selectors.claim_for_viewer(user=request.user, claim_id=pk)
    context = selectors.evidence_in_context(claim=claim, evidence_id=evidence_id)
    if context is None:
        raise Http404("No stored page for this evidence.")
    return render(
        request,
        "desk/evidence_context.html",
        {"nav": "claims", "claim": claim, "ctx": context},
    )


def _after_action(request: AuthenticatedHttpRequest, claim: Claim, note: str) -> HttpResponse:
    if wants_partial(request):
        claim.refresh_from_db()
        context = _claim_context(request, claim)
        context["notice"] = note
        return render(request, "desk/claim_detail.html#live", context)
    messages.success(request, note)
    return redirect("claim_detail", pk=claim.pk)


@editor_required
@require_POST
def claim_override(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    claim = selectors.claim_for_editor(user=request.user, claim_id=pk)
    form = OverrideForm(request.POST)
    if form.is_valid():
        try:
            verdict_override(
                claim=claim,
                editor=request.user,
                to_outcome=form.cleaned_data["outcome"],
                reason=form.cleaned_data["reason"],
                expected_version=seen_version(request),
            )
        except ClaimError as exc:
            form_error(form, exc)
        else:
            return _after_action(request, claim, "Outcome changed. The override is in the history.")
    # Drawn again from the claim as it is now: a stale form comes back ready to send on what
    # the editor now sees, with what changed said above it.
    claim.refresh_from_db()
    context = _claim_context(request, claim, override_form=form)
    if form.non_field_errors():
        context["problem"] = " ".join(str(error) for error in form.non_field_errors())
    template = "desk/claim_detail.html"
    if wants_partial(request):
        template += "#live"
    return render(request, template, context, status=422)


def _claim_action(
    request: AuthenticatedHttpRequest,
    pk: int,
    act: Callable[[Claim, int | None], object],
    refused: str,
    done: str,
) -> HttpResponse:
    """One editor action on a claim, made on the version the editor's form was drawn from:
    done, or refused with the service's reason (what changed, when the claim had)."""
    claim = selectors.claim_for_editor(user=request.user, claim_id=pk)
    try:
        act(claim, seen_version(request))
    except ClaimError as exc:
        claim.refresh_from_db()
        return _refused(request, claim, f"{refused}: {exc.message}.")
    return _after_action(request, claim, done)


@editor_required
@require_POST
def claim_take_view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _claim_action(
        request,
        pk,
        lambda claim, version: claim_take(
            claim=claim, editor=request.user, expected_version=version
        ),
        refused="Cannot take it",
        done="The claim is yours to review.",
    )


@editor_required
@require_POST
def claim_release_view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _claim_action(
        request,
        pk,
        lambda claim, version: claim_release(
            claim=claim, editor=request.user, expected_version=version
        ),
        refused="Cannot release it",
        done="Released: another editor can take it.",
    )


@editor_required
@require_POST
def claim_comment(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    claim = selectors.claim_for_editor(user=request.user, claim_id=pk)
    form = CommentForm(request.POST)
    if form.is_valid():
        try:
            comment_add(claim=claim, author=request.user, text=form.cleaned_data["text"])
        except ClaimError as exc:
            form.add_error("text", exc.message)
        else:
            return _after_action(request, claim, "Comment added.")
    context = _claim_context(request, claim, comment_form=form)
    template = "desk/claim_detail.html"
    if wants_partial(request):
        template += "#live"
    return render(request, template, context, status=422)


def _refused(request: AuthenticatedHttpRequest, claim: Claim, problem: str) -> HttpResponse:
    if wants_partial(request):
        context = _claim_context(request, claim)
        context["problem"] = problem
        return render(request, "desk/claim_detail.html#live", context, status=409)
    messages.error(request, problem)
    return redirect("claim_detail", pk=claim.pk)


@editor_required
@require_POST
def claim_review(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _claim_action(
        request,
        pk,
        lambda claim, version: claim_mark_reviewed(
            claim=claim, editor=request.user, expected_version=version
        ),
        refused="Cannot mark it reviewed",
        done="Marked reviewed: the verdict stands.",
    )


@editor_required
@require_POST
def claim_rerun_view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    claim = selectors.claim_for_editor(user=request.user, claim_id=pk)
    try:
        claim_rerun(claim=claim, user=request.user, expected_version=seen_version(request))
    except ClaimError as exc:
        messages.error(request, f"Cannot re-run it: {exc.message}.")
    else:
        messages.success(request, "Re-run queued. The earlier verdict stays in the history.")
    return redirect(reverse("claim_detail", kwargs={"pk": claim.pk}))


@editor_required
@require_POST
def claim_mark_same_view(request: AuthenticatedHttpRequest, pk: int, other: int) -> HttpResponse:
    """An editor says whether claim `other` is the same claim as this one; the matcher follows
    the word from then on."""
    claim = selectors.claim_for_editor(user=request.user, claim_id=pk)
    answer = request.POST.get("same", "")
    if answer not in ("yes", "no"):
        return _refused(request, claim, 'Say "yes" or "no": is it the same claim?')
    try:
        claims_mark_same(claim=claim, other_id=other, same=answer == "yes", editor=request.user)
    except ClaimError as exc:
        return _refused(request, claim, exc.message)
    words = "the same claim" if answer == "yes" else "not the same claim"
    return _after_action(request, claim, f"Marked claim #{other} as {words}.")

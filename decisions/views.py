"""The review desk: the claim queue, submitting claims, the claim page with its live timeline,
verdict review and override, and the dashboard.

Each view looks the claim up, checks the role, validates, calls one action from
decisions.services and renders the page, or only the partial HTMX asked for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HTMX_STOP_POLLING

from claimcheck.errors import form_error
from claimcheck.models import Claim, ClaimStatus
from claimcheck.roles import AuthenticatedHttpRequest, editor_required, require_editor_request
from decisions import charts, selectors
from decisions.errors import BatchError, ClaimError, QueueUnavailableError
from decisions.forms import (
    BatchSubmitForm,
    ClaimSubmitForm,
    CommentForm,
    OverrideForm,
    QueueFilterForm,
    day_end,
    day_start,
)
from decisions.services import (
    claim_mark_reviewed,
    claim_release,
    claim_rerun,
    claim_submit,
    claim_take,
    claims_rerun_many,
    claims_review_many,
    claims_submit_batch,
    comment_add,
    verdict_override,
)

QUEUE_PAGE_SIZE = 50


def _wants_partial(request: HttpRequest) -> bool:
    """HTMX asked for a fragment (a history restore needs the whole page)."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


@editor_required
@require_GET
def claim_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _queue(request, partial=_wants_partial(request))


def _queue(request: AuthenticatedHttpRequest, *, partial: bool, state: Any = None) -> HttpResponse:
    form = QueueFilterForm(request.GET or None)
    if form.is_bound:
        form.is_valid()
    filters = form.filters()
    mine = filters.pop("mine")
    assigned_to = request.user.pk if mine else None
    page = Paginator(
        selectors.claim_queue(**filters, assigned_to=assigned_to), QUEUE_PAGE_SIZE
    ).get_page(request.GET.get("page"))
    claims = list(page.object_list)
    sources = selectors.claim_source_counts(claims=claims)
    state = state or selectors.queue_state()
    live = request.GET.copy()
    live["since"] = state.token
    context = {
        "nav": "claims",
        "form": form,
        "page": page,
        "rows": [(claim, sources.get(claim.pk, 0)) for claim in claims],
        "filtered": mine or any(filters.values()),
        "queue": state,
        "live_url": f"{reverse('claim_queue_live')}?{live.urlencode()}",
    }
    template = "decisions/claim_list.html"
    if partial:
        template += "#results"
    else:
        context["channels"] = selectors.claim_channels()
    # A filter that did not validate is left out of the query and answered 422 with its error.
    status = 422 if form.is_bound and form.errors else 200
    return render(request, template, context, status=status)


@require_GET
def claim_queue_live(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The queue's poll: 204 while nothing changed (three queries: session, user, queue state),
    else the results as they are now. The results drop their poll once nothing runs."""
    require_editor_request(request)
    if not _wants_partial(request):
        query = request.GET.copy()
        query.pop("since", None)
        return redirect(f"{reverse('home')}?{query.urlencode()}")
    state = selectors.queue_state()
    if request.GET.get("since") == state.token:
        return HttpResponse(status=204)
    return _queue(request, partial=True, state=state)


@editor_required
@require_http_methods(["GET", "POST"])
def claim_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """One claim with an optional timeframe and channel."""
    form = ClaimSubmitForm(request.POST or None)
    queue_down = False
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            claim, created = claim_submit(
                text=data["text"],
                timeframe_start=day_start(data["timeframe_start"]),
                timeframe_end=day_end(data["timeframe_end"]),
                source_channel=data["source_channel"],
                user=request.user,
            )
        except ClaimError as exc:
            form_error(form, exc)
            queue_down = isinstance(exc, QueueUnavailableError)
        else:
            if created:
                messages.success(request, "Claim queued. The timeline fills in as it is checked.")
            else:
                messages.info(request, "This claim was checked recently; here is that check.")
            return redirect("claim_detail", pk=claim.pk)
    status = 422 if form.is_bound and form.errors else 200
    if queue_down:
        status = 503
    return render(
        request,
        "decisions/claim_new.html",
        {"nav": "claims", "form": form, "batch_form": BatchSubmitForm(), "problems": []},
        status=status,
    )


@editor_required
@require_POST
def claim_new_batch(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A pasted batch, all or nothing: a bad line is reported and nothing is saved."""
    form = BatchSubmitForm(request.POST)
    problems: list[Any] = []
    status = 422
    if form.is_valid():
        try:
            results = claims_submit_batch(
                lines=form.cleaned_data["lines"],
                source_channel=form.cleaned_data["source_channel"],
                user=request.user,
            )
        except BatchError as exc:
            problems = exc.problems
        except ClaimError as exc:
            form.add_error(None, exc.message)
            status = 503 if isinstance(exc, QueueUnavailableError) else 422
        else:
            new = sum(1 for _, created in results if created)
            again = len(results) - new
            text = f"{new} claim{'s' if new != 1 else ''} queued"
            if again:
                text += f"; {again} checked recently and not queued again"
            messages.success(request, text + ".")
            return redirect("home")
    return render(
        request,
        "decisions/claim_new.html",
        {
            "nav": "claims",
            "form": ClaimSubmitForm(),
            "batch_form": form,
            "problems": problems,
            "batch_open": True,
        },
        status=status,
    )


def _claim_context(
    claim: Claim,
    *,
    override_form: OverrideForm | None = None,
    comment_form: CommentForm | None = None,
) -> dict[str, Any]:
    return {
        "nav": "claims",
        "claim": claim,
        "page": selectors.claim_page(claim=claim),
        "override_form": override_form or OverrideForm(initial={"outcome": claim.outcome}),
        "comment_form": comment_form or CommentForm(),
    }


@editor_required
@require_GET
def claim_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    claim = selectors.claim_for_editor(user=request.user, claim_id=pk, with_people=True)
    return render(request, "decisions/claim_detail.html", _claim_context(claim))


@require_GET
def claim_live(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The timeline poll. Nothing new: 204 (htmx keeps what it shows). Decided or failed: the
    final render with 286, which stops the polling."""
    require_editor_request(request)
    claim = selectors.claim_get(claim_id=pk, with_people=True)
    if not _wants_partial(request):
        return redirect("claim_detail", pk=claim.pk)
    try:
        since = int(request.GET.get("since", "-1"))
    except ValueError:
        since = -1
    if not claim.is_terminal and since == selectors.last_event_sequence(claim=claim):
        return HttpResponse(status=204)
    if claim.is_terminal:
        context = _claim_context(claim)
    else:
        context = {
            "nav": "claims",
            "claim": claim,
            "page": selectors.claim_page(claim=claim, full=False),
        }
    # The final render also clears "Claim queued" and the like from the message box.
    context["live_update"] = True
    return render(
        request,
        "decisions/claim_detail.html#live",
        context,
        status=HTMX_STOP_POLLING if claim.is_terminal else 200,
    )


@editor_required
@require_GET
def evidence_context(request: AuthenticatedHttpRequest, pk: int, evidence_id: int) -> HttpResponse:
    """One evidence quote inside the page text it was read from, with a link to the original."""
    claim = selectors.claim_for_editor(user=request.user, claim_id=pk)
    context = selectors.evidence_in_context(claim=claim, evidence_id=evidence_id)
    if context is None:
        raise Http404("No stored page for this evidence.")
    return render(
        request,
        "decisions/evidence_context.html",
        {"nav": "claims", "claim": claim, "ctx": context},
    )


@editor_required
@require_GET
def claim_review_next(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Go to the next claim that needs review (`?after=ID`), or the previous (`?before=ID`)."""
    forward = "before" not in request.GET
    raw = request.GET.get("after" if forward else "before", "")
    current = int(raw) if raw.isdigit() else None
    found = selectors.review_neighbour(claim_id=current, forward=forward)
    if found is None:
        messages.info(request, "Nothing left to review: every decided claim has been reviewed.")
        return redirect("home")
    return redirect("claim_detail", pk=found.pk)


def _after_action(request: AuthenticatedHttpRequest, claim: Claim, note: str) -> HttpResponse:
    if _wants_partial(request):
        claim.refresh_from_db()
        context = _claim_context(claim)
        context["notice"] = note
        return render(request, "decisions/claim_detail.html#live", context)
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
            )
        except ClaimError as exc:
            form_error(form, exc)
        else:
            return _after_action(request, claim, "Outcome changed. The override is in the history.")
    context = _claim_context(claim, override_form=form)
    if form.non_field_errors():
        context["problem"] = " ".join(str(error) for error in form.non_field_errors())
    template = "decisions/claim_detail.html"
    if _wants_partial(request):
        template += "#live"
    return render(request, template, context, status=422)


def _claim_action(
    request: AuthenticatedHttpRequest,
    pk: int,
    act: Callable[[Claim], object],
    refused: str,
    done: str,
) -> HttpResponse:
    """One editor action on a claim: done, or refused with the service's reason."""
    claim = selectors.claim_for_editor(user=request.user, claim_id=pk)
    try:
        act(claim)
    except ClaimError as exc:
        return _refused(request, claim, f"{refused}: {exc.message}.")
    return _after_action(request, claim, done)


@editor_required
@require_POST
def claim_take_view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _claim_action(
        request,
        pk,
        lambda claim: claim_take(claim=claim, editor=request.user),
        refused="Cannot take it",
        done="The claim is yours to review.",
    )


@editor_required
@require_POST
def claim_release_view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _claim_action(
        request,
        pk,
        lambda claim: claim_release(claim=claim, editor=request.user),
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
    context = _claim_context(claim, comment_form=form)
    template = "decisions/claim_detail.html"
    if _wants_partial(request):
        template += "#live"
    return render(request, template, context, status=422)


@editor_required
@require_POST
def claims_bulk(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Mark reviewed or re-run the claims ticked in the queue (the page asked to confirm)."""
    ids = [int(raw) for raw in request.POST.getlist("ids") if raw.isdigit()]
    action = request.POST.get("action", "")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts=None) or not back.startswith("/"):
        back = reverse("home")
    if not ids:
        messages.error(request, "Tick at least one claim first.")
        return redirect(back)
    if action == "review":
        result = claims_review_many(claim_ids=ids, editor=request.user)
        text = f"{result.done} claim{pluralize(result.done)} marked reviewed"
        why = "not decided yet, or reviewed already"
    elif action == "rerun":
        result = claims_rerun_many(claim_ids=ids, user=request.user)
        text = f"{result.done} claim{pluralize(result.done)} queued again"
        why = "being checked already"
    else:
        messages.error(request, "Choose an action: mark reviewed, or re-run.")
        return redirect(back)
    if result.skipped:
        text += f"; {result.skipped} skipped ({why})"
    messages.success(request, text + ".")
    return redirect(back)


def _refused(request: AuthenticatedHttpRequest, claim: Claim, problem: str) -> HttpResponse:
    if _wants_partial(request):
        context = _claim_context(claim)
        context["problem"] = problem
        return render(request, "decisions/claim_detail.html#live", context, status=409)
    messages.error(request, problem)
    return redirect("claim_detail", pk=claim.pk)


@editor_required
@require_POST
def claim_review(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    claim = selectors.claim_for_editor(user=request.user, claim_id=pk)
    try:
        claim_mark_reviewed(claim=claim, editor=request.user)
    except ClaimError as exc:
        messages.error(request, f"Cannot mark it reviewed: {exc.message}.")
        return redirect("claim_detail", pk=claim.pk)
    return _after_action(request, claim, "Marked reviewed: the verdict stands.")


@editor_required
@require_POST
def claim_rerun_view(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    claim = selectors.claim_for_editor(user=request.user, claim_id=pk)
    try:
        claim_rerun(claim=claim, user=request.user)
    except ClaimError as exc:
        messages.error(request, f"Cannot re-run it: {exc.message}.")
    else:
        messages.success(request, "Re-run queued. The earlier verdict stays in the history.")
    return redirect(reverse("claim_detail", kwargs={"pk": claim.pk}))


@editor_required
@require_GET
def dashboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    totals = selectors.dashboard_totals()
    data = selectors.dashboard_data()
    return render(
        request,
        "decisions/dashboard.html",
        {
            "nav": "dashboard",
            "totals": totals,
            "in_progress": totals[f"status_{ClaimStatus.QUEUED}"]
            + totals[f"status_{ClaimStatus.RUNNING}"],
            "needs_review": selectors.needs_review_count(),
            "data": data,
            "charts": charts.dashboard_charts(data),
        },
    )

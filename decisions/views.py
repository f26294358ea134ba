"""The review desk: the claim queue, submitting claims, the claim page with its live timeline,
verdict review and override, and the dashboard.

Each view looks the claim up, checks the role, validates, calls one action from
decisions.claims and renders the page, or only the partial HTMX asked for."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HTMX_STOP_POLLING

from claimcheck.models import Claim, ClaimStatus
from claimcheck.roles import editor_required
from decisions import charts, selectors
from decisions.claims import (
    BatchError,
    ClaimError,
    claim_mark_reviewed,
    claim_rerun,
    claim_submit,
    claims_submit_batch,
    verdict_override,
)
from decisions.forms import (
    BatchSubmitForm,
    ClaimSubmitForm,
    OverrideForm,
    QueueFilterForm,
    day_end,
    day_start,
)

QUEUE_PAGE_SIZE = 50


def _wants_partial(request: HttpRequest) -> bool:
    """HTMX asked for a fragment (a history restore needs the whole page)."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


@editor_required
@require_GET
def claim_list(request: HttpRequest) -> HttpResponse:
    form = QueueFilterForm(request.GET or None)
    if form.is_bound:
        form.is_valid()
    filters = form.filters()
    page = Paginator(selectors.claim_queue(**filters), QUEUE_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    claims = list(page.object_list)
    sources = selectors.claim_source_counts(claims=claims)
    context = {
        "nav": "claims",
        "form": form,
        "page": page,
        "rows": [(claim, sources.get(claim.pk, 0)) for claim in claims],
        "filtered": any(filters.values()),
        "channels": selectors.claim_channels(),
    }
    template = "decisions/claim_list.html"
    if _wants_partial(request):
        template += "#results"
    return render(request, template, context)


@editor_required
@require_http_methods(["GET", "POST"])
def claim_new(request: HttpRequest) -> HttpResponse:
    """One claim with an optional timeframe and channel."""
    form = ClaimSubmitForm(request.POST or None)
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
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            if created:
                messages.success(request, "Claim queued. The timeline fills in as it is checked.")
            else:
                messages.info(request, "This claim was checked recently; here is that check.")
            return redirect("claim_detail", pk=claim.pk)
    status = 422 if form.is_bound and form.errors else 200
    return render(
        request,
        "decisions/claim_new.html",
        {"nav": "claims", "form": form, "batch_form": BatchSubmitForm(), "problems": []},
        status=status,
    )


@editor_required
@require_POST
def claim_new_batch(request: HttpRequest) -> HttpResponse:
    """A pasted batch, all or nothing: a bad line is reported and nothing is saved."""
    form = BatchSubmitForm(request.POST)
    problems: list[Any] = []
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
        status=422,
    )


def _claim_context(claim: Claim, *, override_form: OverrideForm | None = None) -> dict[str, Any]:
    return {
        "nav": "claims",
        "claim": claim,
        "page": selectors.claim_page(claim=claim),
        "override_form": override_form or OverrideForm(initial={"outcome": claim.outcome}),
    }


@editor_required
@require_GET
def claim_detail(request: HttpRequest, pk: int) -> HttpResponse:
    claim = get_object_or_404(Claim.objects.select_related("created_by"), pk=pk)
    return render(request, "decisions/claim_detail.html", _claim_context(claim))


@editor_required
@require_GET
def claim_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The timeline poll. Nothing new: 204 (htmx keeps what it shows). Decided or failed: the
    final render with 286, which stops the polling."""
    claim = get_object_or_404(Claim.objects.select_related("created_by"), pk=pk)
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
    return render(
        request,
        "decisions/claim_detail.html#live",
        context,
        status=HTMX_STOP_POLLING if claim.is_terminal else 200,
    )


def _after_action(request: HttpRequest, claim: Claim, note: str) -> HttpResponse:
    if _wants_partial(request):
        claim.refresh_from_db()
        context = _claim_context(claim)
        context["notice"] = note
        return render(request, "decisions/claim_detail.html#live", context)
    messages.success(request, note)
    return redirect("claim_detail", pk=claim.pk)


@editor_required
@require_POST
def claim_override(request: HttpRequest, pk: int) -> HttpResponse:
    claim = get_object_or_404(Claim, pk=pk)
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
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            return _after_action(request, claim, "Outcome changed. The override is in the history.")
    context = _claim_context(claim, override_form=form)
    if form.non_field_errors():
        context["problem"] = " ".join(str(error) for error in form.non_field_errors())
    template = "decisions/claim_detail.html"
    if _wants_partial(request):
        template += "#live"
    return render(request, template, context, status=422)


@editor_required
@require_POST
def claim_review(request: HttpRequest, pk: int) -> HttpResponse:
    claim = get_object_or_404(Claim, pk=pk)
    try:
        claim_mark_reviewed(claim=claim, editor=request.user)
    except ClaimError as exc:
        messages.error(request, f"Cannot mark it reviewed: {exc.message}.")
        return redirect("claim_detail", pk=claim.pk)
    return _after_action(request, claim, "Marked reviewed: the verdict stands.")


@editor_required
@require_POST
def claim_rerun_view(request: HttpRequest, pk: int) -> HttpResponse:
    claim = get_object_or_404(Claim, pk=pk)
    try:
        claim_rerun(claim=claim, user=request.user)
    except ClaimError as exc:
        messages.error(request, f"Cannot re-run it: {exc.message}.")
    else:
        messages.success(request, "Re-run queued. The earlier verdict stays in the history.")
    return redirect(reverse("claim_detail", kwargs={"pk": claim.pk}))


@editor_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
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

"""Submitting claims: one with a timeframe and channel, or a pasted batch."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from claimcheck.errors import form_error
from claimcheck.roles import AuthenticatedHttpRequest, editor_required
from decisions.errors import BatchError, ClaimError, QueueUnavailableError
from decisions.services import (
    claim_submit,
    claims_submit_batch,
)
from desk.forms import (
    BatchSubmitForm,
    ClaimSubmitForm,
    day_end,
    day_start,
)


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
        "desk/claim_new.html",
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
        "desk/claim_new.html",
        {
            "nav": "claims",
            "form": ClaimSubmitForm(),
            "batch_form": form,
            "problems": problems,
            "batch_open": True,
        },
        status=status,
    )

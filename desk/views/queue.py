"""The claim queue, its live poll, the review order and the actions on ticked claims."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from claimcheck.roles import (
    AuthenticatedHttpRequest,
    editor_required,
    require_viewer_request,
    viewer_required,
)
from claims.models import Outcome
from decisions.errors import ClaimError
from decisions.services import (
    claims_rerun_many,
    claims_review_many,
    queue_query,
    saved_queue_set,
    verdicts_override_many,
)
from desk import selectors
from desk.forms import QueueFilterForm
from desk.views.common import seen_versions, wants_partial

QUEUE_PAGE_SIZE = 50
# How often an open queue asks whether anything changed: every second while claims are being
# checked (each step shows), every three seconds otherwise (a new claim or an override).
QUEUE_POLL_MS_ACTIVE = 1000
QUEUE_POLL_MS_IDLE = 3000


@viewer_required
@require_GET
def claim_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _queue(request, partial=wants_partial(request))


@dataclass(frozen=True)
class SortHeader:
    """A sortable column's header: where a click leads, and how the column is sorted now."""

    href: str
    aria_sort: str


# Each column's first click: numbers and the newest first, words A to Z.
_FIRST_WAY = {
    "created": "-",
    "support": "-",
    "refute": "-",
    "confidence": "-",
    "outcome": "",
    "channel": "",
}


# What the page's subtitle says of each order (`selectors.QUEUE_SORTS`).
SORT_WORDS = {
    "-created": "newest first",
    "created": "oldest first",
    "-support": "by support, the most first",
    "support": "by support, the least first",
    "-refute": "by refutation, the most first",
    "refute": "by refutation, the least first",
    "-confidence": "by confidence, the highest first",
    "confidence": "by confidence, the lowest first",
    "outcome": "by outcome: False, Invalid, True",
    "-outcome": "by outcome: True, Invalid, False",
    "channel": "by channel, A to Z",
    "-channel": "by channel, Z to A",
}


def sort_headers(request: HttpRequest, *, current: str) -> dict[str, SortHeader]:
    """A click on the sorted column turns its order round; on another, sorts by it. The filters
    stay; the page goes back to the first."""
    headers = {}
    for column, first in _FIRST_WAY.items():
        descending = current == f"-{column}"
        if current.lstrip("-") == column:
            key = column if descending else f"-{column}"
            aria = "descending" if descending else "ascending"
            if column == "created":  # the column shows age: the newest first is the youngest
                aria = "ascending" if descending else "descending"
        else:
            key, aria = f"{first}{column}", "none"
        query = request.GET.copy()
        query["sort"] = key
        query.pop("page", None)
        headers[column] = SortHeader(href=f"?{query.urlencode()}", aria_sort=aria)
    return headers


def _queue(request: AuthenticatedHttpRequest, *, partial: bool, state: Any = None) -> HttpResponse:
    form = QueueFilterForm(request.GET or None)
    if form.is_bound:
        form.is_valid()
    filters = form.filters()
    mine = filters.pop("mine")
    sort = form.order()
    assigned_to = request.user.pk if mine else None
    page = Paginator(
        selectors.claim_queue(**filters, assigned_to=assigned_to, sort=sort), QUEUE_PAGE_SIZE
    ).get_page(request.GET.get("page"))
    claims = list(page.object_list)
    sources = selectors.claim_source_counts(claims=claims)
    progress = selectors.claims_progress(claims=claims)
    proposed = selectors.proposed_outcomes(claims=claims)
    state = state or selectors.queue_state(cli=filters["cli"])
    live = request.GET.copy()
    live["since"] = state.token
    context = {
        "nav": "claims",
        "form": form,
        "page": page,
        "rows": [
            (claim, sources.get(claim.pk, 0), progress.get(claim.pk), proposed.get(claim.pk))
            for claim in claims
        ],
        "filtered": mine or any(filters.values()),
        "sort": sort,
        "sort_words": SORT_WORDS.get(sort, SORT_WORDS["-created"]),
        "outcomes": Outcome.choices,
        "sorted_by": sort_headers(request, current=sort),
        "queue": state,
        "live_url": f"{reverse('claim_queue_live')}?{live.urlencode()}",
        "poll_ms": QUEUE_POLL_MS_ACTIVE if state.active else QUEUE_POLL_MS_IDLE,
    }
    template = "desk/claim_list.html"
    if partial:
        template += "#results"
    else:
        context["channels"] = selectors.claim_channels()
    saved = selectors.saved_queue_query(user=request.user)
    context["saved_queue"] = saved
    context["saved_query"] = queue_query(query=request.GET, keys=frozenset(form.fields))
    context["is_my_queue"] = saved is not None and saved == context["saved_query"]
    # A filter that did not validate is left out of the query and answered 422 with its error.
    status = 422 if form.is_bound and form.errors else 200
    return render(request, template, context, status=status)


@editor_required
@require_http_methods(["GET", "POST"])
def my_queue(request: AuthenticatedHttpRequest) -> HttpResponse:
    """GET: the Claims page with the editor's saved filters and order. POST: keep the filters
    and order in `query` (the Claims page's query string) as the editor's queue."""
    home = reverse("home")
    if request.method == "GET":
        mine = selectors.saved_queue_query(user=request.user)
        if mine is None:
            messages.info(request, "No queue saved yet: filter the claims, then save the view.")
            return redirect(home)
        return redirect(f"{home}?{mine}" if mine else home)
    query = QueryDict(request.POST.get("query", ""))
    form = QueueFilterForm(query)
    if not form.is_valid():
        messages.error(request, "These filters do not validate; fix them before saving.")
        return redirect(f"{home}?{query.urlencode()}")
    try:
        saved = saved_queue_set(
            user=request.user, query=query.urlencode(), keys=frozenset(form.fields)
        )
    except ClaimError as exc:
        messages.error(request, f"Not saved: {exc.message}.")
        return redirect(home)
    messages.success(request, "Saved as your queue: “My queue” opens it.")
    return redirect(f"{home}?{saved.query}" if saved.query else home)


@require_GET
def claim_queue_live(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The queue's poll: 204 while nothing changed (three queries: session, user, queue state),
    else the results as they are now. An open queue keeps polling, more slowly once nothing
    runs, so that new claims and overrides reach it."""
    require_viewer_request(request)
    if not wants_partial(request):
        query = request.GET.copy()
        query.pop("since", None)
        return redirect(f"{reverse('home')}?{query.urlencode()}")
    state = selectors.queue_state(cli=request.GET.get("cli") == "on")
    if request.GET.get("since") == state.token:
        return HttpResponse(status=204)
    return _queue(request, partial=True, state=state)


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


@editor_required
@require_POST
def claims_bulk(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Mark reviewed, re-run or override (to one outcome, with one reason) the claims ticked in
    the queue; the page asked to confirm first."""
    ids = [int(raw) for raw in request.POST.getlist("ids") if raw.isdigit()]
    action = request.POST.get("action", "")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts=None) or not back.startswith("/"):
        back = reverse("home")
    if not ids:
        messages.error(request, "Tick at least one claim first.")
        return redirect(back)
    versions = seen_versions(request, ids)
    if action == "review":
        result = claims_review_many(claim_ids=ids, editor=request.user, versions=versions)
        text = f"{result.done} claim{pluralize(result.done)} marked reviewed"
        why = "not decided yet, or reviewed already"
    elif action == "rerun":
        result = claims_rerun_many(claim_ids=ids, user=request.user, versions=versions)
        text = f"{result.done} claim{pluralize(result.done)} queued again"
        why = "being checked already"
    elif action == "override":
        outcome = request.POST.get("outcome", "")
        try:
            result = verdicts_override_many(
                claim_ids=ids,
                editor=request.user,
                to_outcome=outcome,
                reason=request.POST.get("reason", ""),
                versions=versions,
            )
        except ClaimError as exc:
            messages.error(request, f"Nothing was overridden: {exc.message}.")
            return redirect(back)
        label = Outcome(outcome).label
        text = f"{result.done} claim{pluralize(result.done)} overridden to {label}"
        why = f"no verdict yet, or {label} already"
    else:
        messages.error(request, "Choose an action: mark reviewed, re-run or override.")
        return redirect(back)
    if result.skipped:
        text += f"; {result.skipped} skipped ({why})"
    messages.success(request, text + ".")
    if result.stale:
        named = ", ".join(f"#{pk}" for pk in result.stale)
        messages.warning(
            request,
            f"{len(result.stale)} left alone because another editor or ClaimCheck changed "
            f"{'it' if len(result.stale) == 1 else 'them'} after this page was drawn: {named}. "
            "Look at them again before you act.",
        )
    return redirect(back)

from __future__ import annotations

import sys

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from claimcheck import health
from claimcheck.errors import DatabaseUnavailable


@login_not_required
@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    db_up, db_detail = health.database_ok()
    broker_up, broker_detail = health.broker_ok()
    ok = db_up and broker_up
    return JsonResponse(
        {
            "status": "ok" if ok else "down",
            "database": {"ok": db_up, "detail": db_detail},
            "broker": {"ok": broker_up, "detail": broker_detail},
        },
        status=200 if ok else 503,
    )


class LoginView(auth_views.LoginView):
    """Django's login page, where the wrong password that reaches the failure limit is still
    answered as a wrong password (saying that the next try is refused): django-axes would answer
    that very attempt with its lockout page, so a person saw one "wrong password" fewer than the
    limit. The lock itself is axes's: the attempt after it is refused with 429."""

    redirect_authenticated_user = True

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        # axes counts this attempt's failure on the request; an attempt made while already
        # locked counts past the limit, so only the one that reached it is answered here.
        reached = getattr(self.request, "axes_failures_since_start", None)
        limit = settings.AXES_FAILURE_LIMIT
        if getattr(self.request, "axes_locked_out", False) and reached == limit:
            self.request.axes_locked_out = False  # type: ignore[attr-defined]
            minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
            context = self.get_context_data(form=form, locked_after=limit, locked_minutes=minutes)
            return self.render_to_response(context)
        return super().form_invalid(form)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 handler. A request that failed because the database cannot be reached is answered
    503 with Retry-After (an API client gets the API's error shape, a person the product's
    page): nothing is wrong with it, and the same request succeeds once the database is back."""
    if not health.database_unreachable(sys.exc_info()[1]):
        return defaults.server_error(request)
    refusal = DatabaseUnavailable()
    response: HttpResponse
    if request.path_info.startswith("/api/"):
        response = JsonResponse(refusal.payload(), status=refusal.status)
    else:
        # Like 500.html, rendered with no request context: no user, no session, no database.
        context = {"retry_after": refusal.retry_after_seconds}
        response = HttpResponse(loader.render_to_string("503.html", context), status=refusal.status)
    for name, value in refusal.headers().items():
        response[name] = value
    return response

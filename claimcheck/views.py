from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from claimcheck import health


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

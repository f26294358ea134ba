from typing import Any

from django.conf import settings
from django.contrib.auth.middleware import LoginRequiredMiddleware as _Base
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from claimcheck.errors import ApplicationError, Forbidden, NotFound
from claimcheck.wsgi_input import sent_in_chunks


class LoginRequiredMiddleware(_Base):
    """Every page needs a signed-in user. The JSON API under /api/ is left to its own bearer-token
    auth (answering 401, not a redirect to the login page)."""

    def process_view(
        self, request: HttpRequest, view_func: Any, view_args: Any, view_kwargs: Any
    ) -> Any:
        if request.path_info.startswith("/api/"):
            return None
        return super().process_view(request, view_func, view_args, view_kwargs)


_ERRORS = {411: "length required", 413: "request too large"}


class InputGuardMiddleware:
    """Refuses, before any view runs, a request no view should read: a NUL character in the
    query string or in a page's form body (PostgreSQL text cannot store it, and a filter with
    one failed deep inside the database), a body over DATA_UPLOAD_MAX_MEMORY_SIZE (413, whatever
    its Content-Type), and a body sent in chunks that the server could not read (411).
    The API answers in its {"error", "details"} shape; pages get a short plain-text answer.
    A page's multipart upload keeps Django's own limits (its files may be larger); the API
    takes no uploads, and its JSON bodies are checked field by field by its parser
    (claimcheck.bodies), which names the field."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        refused = self._refusal(request)
        if refused is None:
            return self.get_response(request)
        status, details = refused
        error = _ERRORS.get(status, "invalid request")
        if request.path_info.startswith("/api/"):
            return JsonResponse({"error": error, "details": details}, status=status)
        return HttpResponse(f"{error}: {details}\n", status=status, content_type="text/plain")

    def _refusal(self, request: HttpRequest) -> tuple[int, str] | None:
        query = request.META.get("QUERY_STRING", "")
        if "%00" in query or "\x00" in query:
            return 400, "a NUL character is not allowed in any field"
        if sent_in_chunks(request.META):
            return 411, "this server cannot read a body sent in chunks; send a Content-Length"
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return 400, "the Content-Length header is not a number"
        api = request.path_info.startswith("/api/")
        upload = (request.content_type or "").startswith("multipart/")
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and length > limit and (api or not upload):
            return 413, f"the body must be at most {limit} bytes"
        if api or request.content_type != "application/x-www-form-urlencoded":
            return None
        if any(mark in request.body for mark in (b"\x00", b"%00")):
            return 400, "a NUL character is not allowed in any field"
        return None


class ContentSecurityPolicyMiddleware:
    """Sends settings.CONTENT_SECURITY_POLICY on every response that has none of its own."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        response = self.get_response(request)
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", "")
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response


class ApplicationErrorMiddleware:
    """Maps a service's `ApplicationError` that no view handled to a page, once for every view:
    a missing role to the 403 page (saying which role and how to get it), a missing thing to the
    404 page, anything else to the error page with the error's own status. The API maps the same
    family in its root (`config.api`)."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, ApplicationError):
            return None
        if isinstance(exception, Forbidden):
            raise PermissionDenied(exception.page_message) from exception
        if isinstance(exception, NotFound):
            raise Http404(exception.message) from exception
        return render(request, "error.html", {"error": exception}, status=exception.status)


class ApiErrorShapeMiddleware:
    """An /api/ address no route answers (404) or a method a route does not take (405) is
    refused by Django and ninja before the API root sees it, as an HTML page or a bare line;
    here it gets the API's {"error", "details"} shape like every other refusal."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        response = self.get_response(request)
        if not request.path_info.startswith("/api/") or response.status_code not in (404, 405):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        if response.status_code == 404:
            return JsonResponse(
                {"error": "not found", "details": f"no API route {request.path_info}"}, status=404
            )
        allowed = response.get("Allow", "")
        shaped = JsonResponse(
            {
                "error": "method not allowed",
                "details": f"{request.method} is not allowed here; allowed: {allowed}",
            },
            status=405,
        )
        shaped["Allow"] = allowed
        return shaped

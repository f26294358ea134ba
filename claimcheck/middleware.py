from typing import Any

from django.contrib.auth.middleware import LoginRequiredMiddleware as _Base
from django.http import HttpRequest


class LoginRequiredMiddleware(_Base):
    """Every page needs a signed-in user. The JSON API under /api/ is left to its own bearer-token
    auth (answering 401, not a redirect to the login page)."""

    def process_view(
        self, request: HttpRequest, view_func: Any, view_args: Any, view_kwargs: Any
    ) -> Any:
        if request.path_info.startswith("/api/"):
            return None
        return super().process_view(request, view_func, view_args, view_kwargs)

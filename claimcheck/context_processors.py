from typing import Any

from django.http import HttpRequest

from claimcheck.roles import is_admin, is_editor, is_viewer


def roles(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None:
        return {}
    return {
        "user_is_viewer": is_viewer(user),
        "user_is_editor": is_editor(user),
        "user_is_admin": is_admin(user),
    }

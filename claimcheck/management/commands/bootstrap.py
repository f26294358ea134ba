"""First-run set-up: a first admin user (printed once) and whatever demo data is installed.

Progress goes to stderr and the result (the first admin's login box) to stdout, so that a
script can hold the box back and show it once the server answers (scripts/run does)."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from claimcheck.roles import ADMINS, EDITORS

DEFAULT_URL = "http://127.0.0.1:8000/"


class Command(BaseCommand):
    help = "Create a first admin (if there is no user yet) and load the demo data."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="admin")
        parser.add_argument("--no-demo", action="store_true", help="skip the demo corpus")
        parser.add_argument(
            "--url",
            default=DEFAULT_URL,
            help=f"where the app is served, for the login address it prints ({DEFAULT_URL})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        username = options["username"]
        password = ""
        if not user_model.objects.exists():
            password = secrets.token_urlsafe(12)
            user = user_model.objects.create_superuser(username=username, password=password)
            user.groups.add(*Group.objects.filter(name__in=[EDITORS, ADMINS]))
        if not options["no_demo"] and "load_demo" in _commands():
            # Progress, not the result: plain (not the error colour) on stderr.
            self.stderr.style_func = None
            call_command(
                "load_demo",
                decide_claims=True,
                stdout=self.stderr,
                verbosity=options["verbosity"],
            )
        # The password is shown once, so it comes last, where it cannot scroll away.
        if password:
            box = login_box(username=username, password=password, url=options["url"])
            self.stdout.write(self.style.SUCCESS(box))
        else:
            self.stdout.write(
                "Users exist already; no admin created. A new password: "
                "manage.py changepassword USERNAME"
            )


def login_box(*, username: str, password: str, url: str = DEFAULT_URL) -> str:
    lines = [
        f"First admin created. Log in at {url.rstrip('/')}/login/ as",
        f"  username: {username}",
        f"  password: {password}",
        "This password is shown only once. For a new one, run",
        f"  .venv/bin/python manage.py changepassword {username}",
    ]
    width = max(len(line) for line in lines)
    rule = "+" + "-" * (width + 2) + "+"
    return "\n".join(["", rule, *(f"| {line.ljust(width)} |" for line in lines), rule, ""])


def _commands() -> set[str]:
    from django.core.management import get_commands

    return set(get_commands())

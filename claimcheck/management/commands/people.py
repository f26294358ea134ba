"""Manage who may use the desk from the command line, as the desk's People page does: add a
person with a role (their first password is printed once), change a role, set a new password,
deactivate or reactivate an account, list everyone."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from claimcheck.people import (
    ROLE_NAMES,
    PersonError,
    people,
    person_active_set,
    person_add,
    person_password_reset,
    person_role_change,
)


class Command(BaseCommand):
    help = "Manage people: add NAME --role ROLE | role NAME ROLE | password NAME | " + (
        "deactivate NAME | activate NAME | list"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        add = sub.add_parser("add", help="add a person; prints their first password once")
        add.add_argument("username")
        add.add_argument("--role", choices=ROLE_NAMES, default="editor")
        add.add_argument("--email", default="")
        role = sub.add_parser("role", help="give a person another role")
        role.add_argument("username")
        role.add_argument("role", choices=ROLE_NAMES)
        for name, text in (
            ("password", "set a new password; prints it once"),
            ("deactivate", "stop the account signing in and its API tokens working"),
            ("activate", "let a deactivated account sign in again"),
        ):
            sub.add_parser(name, help=text).add_argument("username")
        sub.add_parser("list", help="everyone, with their role and whether active")

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        try:
            if action == "add":
                user, password = person_add(
                    username=options["username"], role=options["role"], email=options["email"]
                )
                self.stdout.write(
                    f"Added {user.username} ({options['role']}). Password, shown once: {password}"
                )
            elif action == "list":
                for person in people():
                    state = "active" if person.user.is_active else "deactivated"
                    self.stdout.write(
                        f"{person.user.username}\t{person.role or 'no role'}\t{state}"
                    )
            else:
                self._change(action, options)
        except PersonError as exc:
            raise CommandError(exc.message) from exc

    def _change(self, action: str, options: dict[str, Any]) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no user named {options['username']!r}")
        if action == "role":
            person_role_change(user=user, role=options["role"])
            self.stdout.write(f"{user.username} is now {options['role']}.")
        elif action == "password":
            password = person_password_reset(user=user)
            self.stdout.write(f"New password for {user.username}, shown once: {password}")
        else:
            person_active_set(user=user, active=action == "activate")
            self.stdout.write(f"{user.username} {action}d.")

"""Create, list and revoke API bearer tokens. The raw token is printed once, at creation."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from claimcheck.models import ApiToken


class Command(BaseCommand):
    help = "Manage API bearer tokens: create USER --name NAME | list [USER] | revoke PREFIX"

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="issue a token for a user")
        create.add_argument("username")
        create.add_argument("--name", default="api", help="what the token is for")
        listing = sub.add_parser("list", help="list tokens (never their values)")
        listing.add_argument("username", nargs="?")
        revoke = sub.add_parser("revoke", help="revoke a token by its prefix")
        revoke.add_argument("prefix")

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        if action == "create":
            self._create(options["username"], options["name"])
        elif action == "list":
            self._list(options.get("username"))
        else:
            self._revoke(options["prefix"])

    def _create(self, username: str, name: str) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}")
        _, raw = ApiToken.issue(user=user, name=name)
        self.stdout.write(f"Token for {username} ({name}), shown only this once:\n{raw}")

    def _list(self, username: str | None) -> None:
        tokens = ApiToken.objects.select_related("user")
        if username:
            tokens = tokens.filter(user__username=username)
        for token in tokens:
            state = f"revoked {token.revoked_at:%Y-%m-%d}" if token.revoked_at else "active"
            used = f"{token.last_used_at:%Y-%m-%d %H:%M}" if token.last_used_at else "never"
            owner = token.user.get_username()
            self.stdout.write(
                f"{token.prefix}  {owner:<20} {token.name:<20} {state:<18} used {used}"
            )

    def _revoke(self, prefix: str) -> None:
        matches = ApiToken.objects.filter(prefix=prefix, revoked_at__isnull=True)
        count = matches.count()
        if count == 0:
            raise CommandError(f"no active token with prefix {prefix!r}")
        if count > 1:
            raise CommandError(f"{count} tokens share prefix {prefix!r}; revoke them in the admin")
        matches.update(revoked_at=timezone.now())
        self.stdout.write(f"Revoked {prefix}")

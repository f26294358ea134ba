from django.apps import AppConfig


class ClaimcheckConfig(AppConfig):
    name = "claimcheck"
    verbose_name = "ClaimCheck"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Parse the pipeline config at start-up so that a bad file stops the process at once.
        from claimcheck.config import get_config

        get_config()

from django.apps import AppConfig


class ClaimsConfig(AppConfig):
    """A claim and its life: the model, its live event log, and the services that change its
    state."""

    name = "claims"
    default_auto_field = "django.db.models.BigAutoField"

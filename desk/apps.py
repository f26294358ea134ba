from django.apps import AppConfig


class DeskConfig(AppConfig):
    """The review desk: the editors' pages (queue, claim page, submit, dashboard), their forms,
    charts and page selectors, and the claims API. It reaches the engine (`decisions`) only
    through the engine's front doors: `decisions.services`, `decisions.selectors`, its models,
    errors and types."""

    name = "desk"
    default_auto_field = "django.db.models.BigAutoField"

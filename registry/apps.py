from django.apps import AppConfig


class RegistryConfig(AppConfig):
    """Who counts: the domain registry (tiers, allowed or denied) and the entity alias table,
    with their admin pages, CSV files and API."""

    name = "registry"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the signals that drop the in-memory domain table when a row changes.
        from registry import weighing  # noqa: F401

from django.apps import AppConfig


class EvidenceConfig(AppConfig):
    name = "evidence"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from harvester.services import url_marker_register
        from registry.weighing import is_denied

        def denied(url: str) -> str:
            return "denied" if is_denied(url) else ""

        url_marker_register(denied)

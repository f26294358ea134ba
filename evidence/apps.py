from django.apps import AppConfig


class EvidenceConfig(AppConfig):
    name = "evidence"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from evidence.domains import is_denied
        from harvester.marks import url_marker_register

        def denied(url: str) -> str:
            return "denied" if is_denied(url) else ""

        url_marker_register(denied)

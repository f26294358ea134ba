from django.apps import AppConfig


class DecisionsConfig(AppConfig):
    name = "decisions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django_q.signals import post_spawn

        from decisions.tasks import sweeper_start

        post_spawn.connect(sweeper_start, dispatch_uid="decisions-claim-sweeper")

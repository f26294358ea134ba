from django.apps import AppConfig


class DecisionsConfig(AppConfig):
    name = "decisions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django_q.signals import post_spawn

        from claimcheck.cluster import before_fork
        from decisions.tasks import sweeper_start
        from decisions.warm import cluster_warm, worker_warm

        post_spawn.connect(sweeper_start, dispatch_uid="decisions-claim-sweeper")
        post_spawn.connect(worker_warm, dispatch_uid="decisions-worker-warm")
        before_fork.connect(cluster_warm, dispatch_uid="decisions-cluster-warm")

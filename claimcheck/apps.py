from django.apps import AppConfig


class ClaimcheckConfig(AppConfig):
    name = "claimcheck"
    verbose_name = "ClaimCheck"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Parse the pipeline config at start-up so that a bad file stops the process at once.
        from django.db.backends.signals import connection_created
        from django_q.signals import post_spawn

        from claimcheck.config import get_config
        from claimcheck.dbfork import install_fork_guard
        from claimcheck.dbreading import install_safe_timestamp_loader
        from claimcheck.workers import worker_stop_install

        get_config()
        install_fork_guard()
        connection_created.connect(install_safe_timestamp_loader, dispatch_uid="safe-timestamps")
        post_spawn.connect(worker_stop_install, dispatch_uid="claimcheck-worker-stop")

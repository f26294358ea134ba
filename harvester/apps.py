from django.apps import AppConfig


class HarvesterConfig(AppConfig):
    name = "harvester"
    default_auto_field = "django.db.models.BigAutoField"

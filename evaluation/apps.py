from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    """Research code: `manage.py evaluate` and its dataset readers. It may import the product;
    the product never imports it."""

    name = "evaluation"
    default_auto_field = "django.db.models.BigAutoField"

from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The offline demo corpus and `manage.py load_demo`. It may import the product; the product
    never imports it (`bootstrap` runs `load_demo` by name, when it is installed)."""

    name = "demo"
    default_auto_field = "django.db.models.BigAutoField"

"""ASGI entry point, for servers that speak ASGI. The shipped server is gunicorn over WSGI
(`config.wsgi`), which also reads bodies sent in chunks."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()

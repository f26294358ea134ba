import os

from django.core.wsgi import get_wsgi_application

from claimcheck.wsgi_input import chunked_body_buffered

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = chunked_body_buffered(get_wsgi_application())

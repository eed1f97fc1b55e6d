"""WSGI entry point: production HTTP (gunicorn, see ``config/gunicorn.py``).

Websockets are served by the ASGI entry point (:mod:`config.asgi`) in a process of
their own; a proxy routes ``/ws/`` there and everything else here.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

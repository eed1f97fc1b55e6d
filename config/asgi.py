"""ASGI entry point: Django for HTTP, Channels for websockets.

With ``SIMULATE_INTERVAL`` set, demo tables deal inside this process (started by the
ASGI lifespan), so pushes on the in-memory channel layer reach this server's pages.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # as get_asgi_application does, before anything touches models

from config.http import ThreadedASGIHandler  # noqa: E402

django_asgi_app = ThreadedASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from tables.lifespan import ServerLifespan  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
# With a broker, Celery beat deals the demo tables (see settings.CELERY_BEAT_SCHEDULE).
application = ServerLifespan(application, interval=0 if settings.CELERY_BROKER_URL else settings.SIMULATE_INTERVAL)

from config.heap import freeze_startup_heap  # noqa: E402

freeze_startup_heap()

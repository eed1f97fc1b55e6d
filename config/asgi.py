"""ASGI entry point: Django for HTTP, Channels for websockets.

With ``SIMULATE_INTERVAL`` set, demo tables deal inside this process (started by the
ASGI lifespan), so pushes on the in-memory channel layer reach this server's pages.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()  # before importing anything that touches models

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

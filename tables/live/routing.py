from django.urls import path

from .consumers import AlertsConsumer, LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<slug:slug>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/alerts/", AlertsConsumer.as_asgi()),
]

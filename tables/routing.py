"""Websocket routes (consumers for table pages and the lobby arrive with the live dashboard)."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []

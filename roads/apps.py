from django.apps import AppConfig


class RoadsConfig(AppConfig):
    name = "roads"
    verbose_name = "Roads"

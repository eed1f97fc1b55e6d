from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class RoadsConfig(AppConfig):
    name = "roads"
    verbose_name = gettext_lazy("Roads")

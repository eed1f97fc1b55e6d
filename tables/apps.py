from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = gettext_lazy("Tables, shoes and rounds")

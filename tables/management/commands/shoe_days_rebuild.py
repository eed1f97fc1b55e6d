from django.core.management.base import BaseCommand

from ...services.shoe_days import shoe_days_rebuild


class Command(BaseCommand):
    help = (
        "Count every shoe's days again from its rounds (the reviewer statistics kept as rounds are recorded): "
        "after rounds were written or mended outside the services."
    )

    def handle(self, *args: object, **options: object) -> None:
        kept = shoe_days_rebuild()
        self.stdout.write(f"{kept} shoe days kept")

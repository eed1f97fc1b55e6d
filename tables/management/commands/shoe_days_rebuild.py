from django.core.management.base import BaseCommand

from ...services.shoe_days import history_sums_rebuild, shoe_days_rebuild


class Command(BaseCommand):
    help = (
        "Count every shoe's days again from its rounds (the reviewer statistics kept as rounds are recorded): "
        "after rounds were written or mended outside the services; then the sums of all history from them."
    )

    def handle(self, *args: object, **options: object) -> None:
        kept = shoe_days_rebuild()
        history_sums_rebuild()
        self.stdout.write(f"{kept} shoe days kept")

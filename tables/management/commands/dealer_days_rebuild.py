from django.core.management.base import BaseCommand

from ...services.dealer_days import dealer_days_rebuild


class Command(BaseCommand):
    help = (
        "Count every dealer's days again from the rounds, cancelled rounds and refused plaintexts kept "
        "(refused posts, kept nowhere else, are carried over): after rounds were written or mended outside the "
        "services."
    )

    def handle(self, *args: object, **options: object) -> None:
        kept = dealer_days_rebuild()
        self.stdout.write(f"{kept} dealer days kept")

from django.core.management.base import BaseCommand

from caro.tutorials.loader import sync_guides


class Command(BaseCommand):
    help = ("Load the rules guides from caro/tutorials/guides/<lang>/*.md into the database. "
            "Guides edited in the admin are kept unless --force. (Also runs after every migrate.)")

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="overwrite guides edited in the admin")

    def handle(self, *args, force: bool = False, **options):
        report = sync_guides(force=force)
        for what, names in report.items():
            for name in names:
                self.stdout.write(f"{what}: {name}")
        if report["kept"]:
            self.stdout.write(self.style.WARNING("kept guides edited in the admin; use --force to overwrite them"))
        self.stdout.write(self.style.SUCCESS("guides up to date"))

"""Each round names its shoe's table (issue 33): one table's rounds, newest first, read
from an index of their own, not joined through the shoes of a year of history."""

import django.db.models.deletion
from django.db import migrations, models

# Standard SQL, the same on SQLite and PostgreSQL: every round takes its shoe's table.
FILL = "UPDATE tables_round SET table_id = (SELECT table_id FROM tables_shoe WHERE tables_shoe.id = tables_round.shoe_id)"


class Migration(migrations.Migration):
    dependencies = [("tables", "0016_shoe_stretches")]

    operations = [
        migrations.AddField(
            model_name="round",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tables.table",
                verbose_name="table",
            ),
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
        migrations.AlterField(
            model_name="round",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tables.table",
                verbose_name="table",
            ),
        ),
        migrations.AddIndex(
            model_name="round",
            index=models.Index(fields=["table", "-created_at", "-id"], name="round_table_newest"),
        ),
    ]

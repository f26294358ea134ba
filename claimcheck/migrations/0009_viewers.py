from django.db import migrations


def create_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name="viewers")


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="viewers").delete()


class Migration(migrations.Migration):
    dependencies = [("claimcheck", "0008_claim_moved")]

    operations = [migrations.RunPython(create_group, remove_group)]

from django.db import migrations


def schedule_sweep(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.update_or_create(
        name="claims-sweep-stale",
        defaults={
            "func": "decisions.tasks.claims_sweep_stale",
            "schedule_type": "I",
            "minutes": 5,
            "repeats": -1,
        },
    )


def unschedule_sweep(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name="claims-sweep-stale").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("decisions", "0001_initial"),
        ("django_q", "0018_task_success_index"),
    ]

    operations = [migrations.RunPython(schedule_sweep, unschedule_sweep)]

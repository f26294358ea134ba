from django.db import migrations


def schedule_refit(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.update_or_create(
        name="outcome-refit",
        defaults={
            "func": "decisions.tasks.outcome_refit",
            "schedule_type": "W",
            "repeats": -1,
        },
    )


def unschedule_refit(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name="outcome-refit").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("decisions", "0012_outcome_model_versions"),
        ("django_q", "0018_task_success_index"),
    ]

    operations = [migrations.RunPython(schedule_refit, unschedule_refit)]

"""Dashboard charts drawn on the server as SVG, each with the numbers behind it as a table.

No JavaScript and no chart library: `draw` makes the SVG; `dashboard` and `enrichment` choose
what the dashboard shows."""

from desk.charts.dashboard import dashboard_charts
from desk.charts.draw import Chart, Series, bar_chart, meter_chart
from desk.charts.enrichment import enrichment_charts

__all__ = ["Chart", "Series", "bar_chart", "dashboard_charts", "enrichment_charts", "meter_chart"]

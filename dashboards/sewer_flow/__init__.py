"""The flow trace of a user on the sewer page: the means of its readings in buckets of hours that keep to
the page's budget of points, the readings around each slug, the baseline and the gaps. Pure."""

from __future__ import annotations

from dashboards.sewer_flow.buckets import BUCKET_HOURS, choose_bucket_hours, flow_points_per_user
from dashboards.sewer_flow.chart import draw_flow_chart
from dashboards.sewer_flow.inputs import (
    FLOW_PANEL_PX,
    PRINT_FLOW_PX,
    FlowInputs,
    _by_time,
    _mode,
    baseline_arrays,
    flow_arrays,
    flow_inputs,
    gap_arrays,
    resolution_words,
    slug_arrays,
    slug_words,
    split_by_user,
)

__all__ = [
    "BUCKET_HOURS",
    "FLOW_PANEL_PX",
    "FlowInputs",
    "PRINT_FLOW_PX",
    "_by_time",
    "_mode",
    "baseline_arrays",
    "choose_bucket_hours",
    "draw_flow_chart",
    "flow_arrays",
    "flow_inputs",
    "flow_points_per_user",
    "gap_arrays",
    "resolution_words",
    "slug_arrays",
    "slug_words",
    "split_by_user",
]

"""Schedules apart from the algorithm: `hls.customize(k)` (docs/schedules.md)."""

from hls.customize.schedule import Schedule, ScheduledKernel, customize

__all__ = ["Schedule", "ScheduledKernel", "customize"]

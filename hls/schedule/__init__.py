"""Scheduling: operator library, dependence analysis, list and modulo scheduling, the report.

`schedule_module(module, clock_ns=, part=, flow=, pipeline_loops=)` estimates a design (the IR after
passes); `load_report(project_dir)` reads Vitis's own csynth.xml into the same `Report`.
"""

from hls.report.csynth_xml import load_report
from hls.report.report import BreakdownRow, LoopReport, Report, Resources
from hls.schedule.design import schedule_module
from hls.schedule.oplib import OpLib

__all__ = ["BreakdownRow", "LoopReport", "OpLib", "Report", "Resources", "load_report", "schedule_module"]

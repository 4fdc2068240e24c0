"""Scheduling: operator library, dependence analysis, list and modulo scheduling, the report.

`schedule_module(module, clock_ns=, part=, flow=, pipeline_loops=, dataflow=)` estimates a design (the
IR after passes) and returns the finished `Report`: a dataflow top's region is timed from `dataflow`,
the Python-mode trace the golden run recorded (`dataflow.RawRegion`, or `dataflow.Untimed` saying why
there is none). `load_report(project_dir)` reads Vitis's own csynth.xml into the same `Report`.
"""

from hls.report.csynth_xml import load_report
from hls.report.report import BreakdownRow, LoopReport, Report, Resources
from hls.schedule.design import schedule_module
from hls.schedule.oplib import OpLib

__all__ = ["BreakdownRow", "LoopReport", "OpLib", "Report", "Resources", "load_report", "schedule_module"]

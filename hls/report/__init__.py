"""The report: `data.py` its fields, rows and text view (`str()`, `to_dict()`, `compare()`), `html.py`
and `svg.py` the page and its pictures, `report.py` the `Report` class (data plus page),
`csynth_xml.py` Vitis's csynth.xml read into the same `Report`. The schedule stage fills it."""

"""`@hls.struct`, the public name: a class whose annotated fields are hls types becomes a record type.

What the decorated class does in Python mode (a dataclass whose field assignments convert to the field
types, array fields with their own typed storage) is the golden runtime's, hls/golden/structs.py,
which provides it; the frontend reads only the class's `StructType` (`__hls_struct__`).
"""

from __future__ import annotations

from typing import Any

from hls.lang.storage import implementation
from hls.types import StructType


def struct(cls: type, make_type: Any = StructType) -> type:
    """Make `cls` an hls struct type: a dataclass whose fields are hls scalars or arrays of them. A
    scalar field's class-level value is its default (zero when none is given). `make_type` builds the
    type from (name, fields, class): a StructType, or a subclass such as hls.axis's packets."""
    return implementation("struct")(cls, make_type)

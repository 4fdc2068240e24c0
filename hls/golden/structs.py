"""`@hls.struct` in Python mode: a class whose annotated fields are hls types becomes a record type
(the public name is hls/lang/structs.py, which calls `struct` here).

The class stays a Python dataclass (Python mode's struct values are its instances) and gains an
`hls.StructType` (`Pixel.__hls_struct__`); `Pixel[64]` is an array of it. Every field assignment
converts to the field's declared type exactly as the C++ member assignment does (`p.r = 300` keeps
44 in a uint8 field), array fields hold their own typed storage, and omitted fields start at zero,
as a value-initialised C++ struct does.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import sys
import textwrap
from typing import Any

import numpy as np

from hls.errors import HLSTypeError, Loc
from hls.golden.runtime import ArrayView, cast
from hls.lang.storage import provide
from hls.types import ArrayType, FixedType, ScalarType, StructType

RESERVED = ("dtype",)
MAX_FIELD_ELEMENTS = 1024  # elements of one array field: copies of a struct are unrolled element by element


@provide("struct")
def struct(cls: type, make_type: Any = StructType) -> type:
    """Make `cls` an hls struct type: a dataclass whose fields are hls scalars or arrays of them. A
    scalar field's class-level value is its default (zero when none is given). `make_type` builds the
    type from (name, fields, class): a StructType, or a subclass such as hls.axis's packets."""
    if not isinstance(cls, type):
        raise TypeError("@hls.struct decorates a class")
    fields = _field_types(cls)
    t = make_type(cls.__name__, tuple(fields.items()), cls)
    for name, ft in fields.items():
        default = dataclasses.field(default_factory=_zeros_factory(ft)) if isinstance(ft, ArrayType) \
            else ft.convert(cls.__dict__.get(name, 0))
        setattr(cls, name, default)
    cls = dataclasses.dataclass(cls, eq=False, repr=False)
    cls.__hls_struct__ = t
    cls.__hls_struct_type__ = t
    cls.dtype = t.storage_dtype  # numpy's structured dtype: `np.zeros(64, Pixel.dtype)` is a Pixel[64] argument
    cls.__setattr__ = _set_field
    cls.__eq__ = _equal
    cls.__repr__ = _repr
    cls.__class_getitem__ = classmethod(lambda c, shape: c.__hls_struct__[shape])
    return cls


def _field_types(cls: type) -> dict[str, ScalarType | ArrayType]:
    """Each annotated field's hls type, evaluated in the class's module; a field without one is an
    error at its line."""
    module = sys.modules.get(cls.__module__)
    namespace = {**vars(module), **vars(cls)} if module is not None else dict(vars(cls))
    out: dict[str, ScalarType | ArrayType] = {}
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        value = annotation
        if isinstance(annotation, str):
            try:
                value = eval(annotation, namespace)  # noqa: S307 - the user's own annotation
            except Exception:  # noqa: BLE001 - reported at the field's line
                value = None
        if isinstance(value, ArrayType) and isinstance(value.elem, StructType):
            value = None  # structs of structs are not supported (yet)
        if not isinstance(value, (ScalarType, ArrayType)):
            shown = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
            raise HLSTypeError(f"field {name!r} of struct {cls.__name__} is annotated {shown}, not an hls type; "
                               "struct fields are hls scalars or fixed-size arrays of them, e.g. `r: hls.uint8` "
                               "or `taps: hls.int16[4]`", _field_loc(cls, name))
        if name in RESERVED:
            raise HLSTypeError(f"struct {cls.__name__} cannot have a field named {name!r}: `{cls.__name__}.{name}` is "
                               "the struct's numpy dtype", _field_loc(cls, name))
        if isinstance(value, ArrayType) and value.size > MAX_FIELD_ELEMENTS:
            raise HLSTypeError(f"field {name!r} of struct {cls.__name__} has {value.size} elements; struct array "
                               f"fields hold at most {MAX_FIELD_ELEMENTS}", _field_loc(cls, name))
        out[name] = value
    if not out:
        raise HLSTypeError(f"struct {cls.__name__} has no annotated fields", _field_loc(cls, None))
    return out


def _field_loc(cls: type, name: str | None) -> Loc | None:
    """Where field `name` (or the class) is written, for the error message."""
    try:
        lines, first = inspect.getsourcelines(cls)
        file = inspect.getsourcefile(cls) or "<unknown>"
    except (OSError, TypeError):
        return None
    tree = ast.parse(textwrap.dedent("".join(lines)))
    indent = len(lines[0]) - len(lines[0].lstrip())
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return Loc(file, first + node.lineno - 1, node.col_offset + indent)
    return Loc(file, first, indent)


def _zeros_factory(t: ArrayType):
    return lambda: ArrayView(np.zeros(t.shape, dtype=t.elem.storage_dtype), t.elem, name="field")


def convert_field(t: ScalarType | ArrayType, value: Any, site: str | None = None) -> Any:
    """`value` as field type `t` stores it: a converted scalar, or a fresh typed copy of an array."""
    if isinstance(t, ArrayType):
        source = value.data if isinstance(value, ArrayView) else np.asarray(value)
        if source.shape != t.shape:
            raise ValueError(f"array field of shape {t.shape} given shape {source.shape}")
        return ArrayView(t.elem.to_storage(source).copy(), t.elem, name="field")
    return cast(t, value, site)


def _set_field(self: Any, name: str, value: Any) -> None:
    t = type(self).__hls_struct__.field(name)
    if t is None:
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")
    frame = sys._getframe(1)
    while frame.f_back is not None and frame.f_code.co_filename in (__file__, "<string>"):
        frame = frame.f_back  # past the dataclass __init__: the user's line reports a wrap
    object.__setattr__(self, name, convert_field(t, value, f"{frame.f_code.co_filename}:{frame.f_lineno}"))


def _plain(value: Any) -> Any:
    return value.data.tolist() if isinstance(value, ArrayView) else value


def _equal(self: Any, other: Any) -> bool:
    t = type(self).__hls_struct__
    if getattr(other, "__hls_struct_type__", None) != t:
        return NotImplemented
    return all(_plain(getattr(self, n)) == _plain(getattr(other, n)) for n, _ in t.fields)


def _repr(self: Any) -> str:
    t = type(self).__hls_struct__
    parts = []
    for name, ft in t.fields:
        value = _plain(getattr(self, name))
        parts.append(f"{name}={float(value) if isinstance(ft, FixedType) else value!r}")
    return f"{t.name}({', '.join(parts)})"

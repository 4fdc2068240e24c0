"""C++ statements for struct values (a part of FunctionEmitter, hls/backend/cpp/emit.py)."""

from __future__ import annotations

import numpy as np

from hls.backend.cpp.expr import PREC, Expr
from hls.backend.ctype import ctype_of
from hls.backend.names import member
from hls.ir.structops import StructPackOp, flat_fields
from hls.types import ArrayType, StructType


def element_subscripts(element: int | None, shape: tuple[int, ...]) -> str:
    """`[1][2]` for row-major element `element` of an array field of `shape` ('' for a scalar field)."""
    if element is None:
        return ""
    return "".join(f"[{k}]" for k in np.unravel_index(element, shape))


class StructStatements:
    """Mixed into FunctionEmitter, whose line/use/bind/namer/assignable it uses."""

    def pack(self, op: StructPackOp) -> None:
        """A whole struct value: a local whose fields are assigned one by one."""
        t: StructType = op.result.type
        name = self.namer.fresh(op.result.name or t.name.lower())
        self.line(f"{ctype_of(t).spelling} {name};")
        for (field, element, ft), value in zip(flat_fields(t), op.operands, strict=True):
            where = element_subscripts(element, getattr(t.field(field), "shape", ()))
            self.line(f"{name}.{member(t, field)}{where} = {self.assignable(self.use(value), ft).text};")
        self.bind(op.result, Expr(name, PREC["primary"], ctype_of(t), reads=frozenset({name})))

    def zero_fill(self, name: str, shape: tuple[int, ...], t: StructType) -> None:
        """Every field of every element of a local array of structs set to zero, as hls.zeros promises
        (a struct of ap types has no zeroing default constructor)."""
        ivs = [self.namer.fresh("z") for _ in shape]
        loops = "".join(f"for (int {iv} = 0; {iv} < {n}; {iv}++) " for iv, n in zip(ivs, shape, strict=True))
        self.line(f"{loops}{{")
        element = name + "".join(f"[{iv}]" for iv in ivs)
        for field, ft in t.fields:
            name_of = f"{element}.{member(t, field)}"
            if isinstance(ft, ArrayType):
                inner = [self.namer.fresh("k") for _ in ft.shape]
                nested = "".join(f"for (int {iv} = 0; {iv} < {n}; {iv}++) " for iv, n in zip(inner, ft.shape,
                                                                                             strict=True))
                self.line(f"    {nested}{name_of}{''.join(f'[{iv}]' for iv in inner)} = 0;")
            else:
                self.line(f"    {name_of} = 0;")
        self.line("}")

"""C++ statements for struct values (a part of FunctionEmitter, hls/backend/cpp/emit.py)."""

from __future__ import annotations

import numpy as np

from hls.backend.cpp.expr import PREC, Expr
from hls.backend.ctype import ctype_of
from hls.backend.names import Namer, member, sanitize
from hls.ir import LoadOp, StoreOp
from hls.ir.core import Op, Value
from hls.ir.structops import StructGetOp, StructPackOp, flat_fields
from hls.types import ArrayType, StructType


def element_subscripts(element: int | None, shape: tuple[int, ...]) -> str:
    """`[1][2]` for row-major element `element` of an array field of `shape` ('' for a scalar field)."""
    if element is None:
        return ""
    return "".join(f"[{k}]" for k in np.unravel_index(element, shape))


class StructStatements:
    """Mixed into FunctionEmitter, whose line/use/bind/namer/assignable it uses."""

    def struct_read(self, op: Op) -> bool:
        """A field read the frontend named after a struct local (`p.r`, `Structs.name_reads`), written as
        the Python says: `p.r` on the variable a FIFO read or call declared, or for the loads of every
        field of one element `Pixel p = pixels[i];` first. False where the read is not such a one."""
        owner, dot, _ = (op.result.name or "").partition(".")
        if not dot:
            return False
        if isinstance(op, StructGetOp):
            whole = self.exprs.get(id(op.struct))
            if whole is None or not whole.text.isidentifier() or op.struct.name != owner:
                return False
            self.bind_field(op.result, whole.text, op.struct.type, op.field)  # `p.last`, as a variable's read
            return True
        group = self.element_reads(op, owner) if isinstance(op, LoadOp) else None
        if group is None:
            return False
        self.side_effect(op)
        where = self.subscripts(op, op.indices, [self.use(i) for i in op.indices])
        t = op.memref.type.elem
        name = self.namer.fresh(owner)
        self.line(f"{ctype_of(t).spelling} {name} = {self.use(op.memref).text}{where};")
        self.declare_local(name, ctype_of(t))
        for load in group:
            self.bind_field(load.result, name, t, load.field)
        return True

    def bind_field(self, value: Value, var: str, t: StructType, field: str) -> None:
        """`value` is field `field` of struct variable `var`: written `var.field`, a C++ variable of its own
        that a later `p.r = ...` of the Python may assign (cpp/locals.py decides, as for any local)."""
        text = f"{var}.{member(t, field)}"
        self.declare_local(text, ctype_of(value.type))
        self.field_vars[value.name] = text
        self.bind(value, Expr(text, PREC["primary"], ctype_of(value.type), reads=frozenset({var, text})))

    def field_exprs(self, t: StructType, values: list[Value]) -> str | None:
        """The struct variable whose fields, in order, `values` are as written now (`p.r`, `p.g`, ...)."""
        texts = [getattr(self.exprs.get(id(v)), "text", None) for v in values]
        var = (texts[0] or "").partition(".")[0] if texts else ""
        fields = [f for f, _, _ in flat_fields(t)]
        if not var.isidentifier() or any(isinstance(ft, ArrayType) for _, ft in t.fields) \
                or texts != [f"{var}.{member(t, f)}" for f in fields]:
            return None
        return var if any(s.get(var) == ctype_of(t) for s in self.scopes) else None

    @staticmethod
    def element_reads(op: LoadOp, owner: str) -> list[LoadOp] | None:
        """`op` and the loads right after it that read the other fields of the same element into struct
        local `owner`, when they read every field and every field is a scalar; else None."""
        t = op.memref.type.elem
        if not isinstance(t, StructType) or op.field is None or op.attrs.get("word_part") \
                or len(op.indices) != len(op.memref.type.shape) or any(isinstance(f, ArrayType) for _, f in t.fields):
            return None
        ops = op.parent.ops
        group = [op]
        for nxt in ops[ops.index(op) + 1:]:
            same = isinstance(nxt, LoadOp) and nxt.memref is op.memref and nxt.field is not None \
                and len(nxt.indices) == len(op.indices) \
                and all(a is b for a, b in zip(nxt.indices, op.indices, strict=True))
            if not same or nxt.result.name != f"{owner}.{nxt.field}" or not nxt.attrs.get("word_part"):
                break
            group.append(nxt)
        return group if sorted(load.field for load in group) == sorted(n for n, _ in t.fields) else None

    def pack(self, op: StructPackOp) -> None:
        """A whole struct value: the struct local it copies (`out.write(p)`), a maker call where the
        value is handed over by the next statement (`out.write(make_Pixel(r, g, b))`, `struct_maker`),
        else a local whose fields are assigned one by one."""
        t: StructType = op.result.type
        copied = self.copied_struct(op)
        if copied is not None:
            self.bind(op.result, copied)
            return
        ops = op.parent.ops
        uses = op.result.uses
        if not any(isinstance(ft, ArrayType) for _, ft in t.fields) and len(uses) == 1 \
                and ops.index(op) + 1 < len(ops) and uses[0] is ops[ops.index(op) + 1]:
            name = self.makers.setdefault(t.name, struct_maker(t))[0]
            args = [self.assignable(self.use(v), ft) for (_, _, ft), v in zip(flat_fields(t), op.operands, strict=True)]
            self.bind(op.result, Expr(f"{name}({', '.join(a.text for a in args)})", PREC["primary"], ctype_of(t),
                                      reads=frozenset().union(*(a.reads for a in args))))
            return
        name = self.namer.fresh(op.result.name or t.name.lower())
        self.line(f"{ctype_of(t).spelling} {name};")
        for (field, element, ft), value in zip(flat_fields(t), op.operands, strict=True):
            where = element_subscripts(element, getattr(t.field(field), "shape", ()))
            self.line(f"{name}.{member(t, field)}{where} = {self.assignable(self.use(value), ft).text};")
        self.bind(op.result, Expr(name, PREC["primary"], ctype_of(t), reads=frozenset({name})))

    def copied_struct(self, op: StructPackOp) -> Expr | None:
        """The variable whose every field, in order, `op` packs (a struct local handed over whole)."""
        var = self.field_exprs(op.result.type, op.operands)
        if var is None:
            return None
        reads = frozenset().union(*(self.exprs[id(v)].reads for v in op.operands))
        return Expr(var, PREC["primary"], ctype_of(op.result.type), reads=reads)

    def whole_store(self, op: StoreOp) -> bool:
        """`q[i] = p;`: the field stores of one element (`Structs.struct_store_whole`) whose values are the
        fields of struct variable `p` as they are now, in one statement."""
        t = op.memref.type.elem
        if not isinstance(t, StructType) or op.field is None or op.attrs.get("word_part"):
            return False
        ops = op.parent.ops
        group = ops[ops.index(op):ops.index(op) + len(t.fields)]
        same = all(isinstance(s, StoreOp) and s.memref is op.memref and len(s.indices) == len(op.indices)
                   and all(a is b for a, b in zip(s.indices, op.indices, strict=True)) for s in group)
        if not same or [s.field for s in group] != [f for f, _ in t.fields] \
                or not all(s.attrs.get("word_part") for s in group[1:]):
            return False
        var = self.field_exprs(t, [s.value for s in group])
        if var is None:
            return False
        self.side_effect(op)
        where = self.subscripts(op, op.indices, [self.use(i) for i in op.indices])
        self.line(f"{self.use(op.memref).text}{where} = {var};")
        self.done.update(id(s) for s in group)
        return True

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


def struct_maker(t: StructType) -> tuple[str, str, list[str]]:
    """(name, signature, body) of `make_<T>(fields...)`, the struct from its fields in one call (neither
    a user's struct nor hls::axis has a constructor taking them): `out.write(make_X(y, 15, 15, u, l))`
    says in one statement what the Python's `Scaled(data=y, user=u, last=l)` does."""
    c = ctype_of(t)
    name = "make_" + sanitize(t.name)
    members = [member(t, f) for f, _ in t.fields]
    local = Namer(set(members)).fresh("made")
    params = ", ".join(f"{ctype_of(ft).spelling} {m}" for (_, ft), m in zip(t.fields, members, strict=True))
    body = [f"    {c.spelling} {local};", *(f"    {local}.{m} = {m};" for m in members), f"    return {local};"]
    return name, f"static inline {c.spelling} {name}({params})", body

"""IR core: SSA values, ops with regions, blocks, functions and the module.

Values compare by identity and keep their users, so passes can replace uses in O(uses).
Structured control flow only: an op owns regions, a region holds one block, a block's arguments
are the values the region receives (a loop's induction variable and carried values).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from hls.errors import HLSError, Loc
from hls.types import HLSType


class VerifyError(HLSError):
    """The IR broke one of its own rules: a compiler bug, not a user error."""


class Value:
    """An SSA value. `name` is a hint (the Python variable) used by the printer and the C++ emitter."""

    def __init__(self, type: HLSType, name: str | None = None):
        self.type = type
        self.name = name
        self.uses: list[Op] = []

    def replace_all_uses_with(self, other: Value) -> None:
        for user in list(self.uses):
            user.replace_operand(self, other)

    @property
    def owner_block(self) -> Block | None:
        raise NotImplementedError


class OpResult(Value):
    def __init__(self, op: Op, index: int, type: HLSType, name: str | None = None):
        super().__init__(type, name)
        self.op = op
        self.index = index

    @property
    def owner_block(self) -> Block | None:
        return self.op.parent


class BlockArg(Value):
    def __init__(self, block: Block, index: int, type: HLSType, name: str | None = None):
        super().__init__(type, name)
        self.block = block
        self.index = index

    @property
    def owner_block(self) -> Block | None:
        return self.block


class Block:
    def __init__(self, arg_types: list[HLSType] = (), arg_names: list[str | None] | None = None):
        names = arg_names or [None] * len(arg_types)
        self.args = [BlockArg(self, i, t, n) for i, (t, n) in enumerate(zip(arg_types, names, strict=True))]
        self.ops: list[Op] = []
        self.parent: Region | None = None

    def add_arg(self, type: HLSType, name: str | None = None) -> BlockArg:
        arg = BlockArg(self, len(self.args), type, name)
        self.args.append(arg)
        return arg

    def append(self, op: Op) -> Op:
        op.parent = self
        self.ops.append(op)
        return op

    def insert(self, index: int, op: Op) -> Op:
        op.parent = self
        self.ops.insert(index, op)
        return op

    def remove(self, op: Op) -> None:
        self.ops.remove(op)
        op.drop_operands()
        op.parent = None

    def insert_before(self, anchor: Op, op: Op) -> Op:
        """Place `op` right before `anchor`: rewrites put new ops where the old one computed."""
        return self.insert(self.ops.index(anchor), op)

    def erase_arg(self, index: int) -> None:
        """Drop an unused argument (a dead loop-carried value); later arguments shift down."""
        if self.args[index].uses:
            raise VerifyError(f"block argument %{self.args[index].name or 'v'} is still used")
        del self.args[index]
        for i, arg in enumerate(self.args):
            arg.index = i

    @property
    def terminator(self) -> Op | None:
        return self.ops[-1] if self.ops else None


class Region:
    def __init__(self, block: Block | None = None):
        self.block = block or Block()
        self.block.parent = self
        self.parent: Op | None = None

    def walk(self) -> Iterator[Op]:
        for op in list(self.block.ops):
            yield from op.walk()


class Op:
    """Base op. Subclasses set `name`, may add properties over operands/attrs, and extend verify().

    The class traits say which group an op belongs to, so that no stage keeps its own list: `pure`,
    `is_terminator` (ends a block), `is_loop` (a loop with carried values and directive fields),
    `is_fifo_access` (an operation on an existing FIFO; `is_fifo_write` when it writes one); a dataflow
    process is the `traits.DataflowProcess` trait."""

    name: ClassVar[str] = "hls.op"
    pure: ClassVar[bool] = False  # no side effects: removable when unused, mergeable by CSE
    is_terminator: ClassVar[bool] = False
    is_loop: ClassVar[bool] = False
    is_fifo_access: ClassVar[bool] = False
    is_fifo_write: ClassVar[bool] = False

    def __init__(self, operands: list[Value] = (), result_types: list[HLSType] = (),
                 regions: list[Region] = (), attrs: dict[str, Any] | None = None,
                 loc: Loc | None = None, result_names: list[str | None] | None = None):
        self.operands: list[Value] = []
        for value in operands:
            self._add_operand(value)
        names = result_names or [None] * len(result_types)
        self.results = [OpResult(self, i, t, n) for i, (t, n) in enumerate(zip(result_types, names, strict=True))]
        self.regions = list(regions)
        for region in self.regions:
            region.parent = self
        self.attrs: dict[str, Any] = dict(attrs or {})
        self.loc = loc
        self.parent: Block | None = None

    def _add_operand(self, value: Value) -> None:
        if not isinstance(value, Value):
            raise VerifyError(f"{self.name}: operand {value!r} is not an IR value")
        self.operands.append(value)
        value.uses.append(self)

    def replace_operand(self, old: Value, new: Value) -> None:
        for i, value in enumerate(self.operands):
            if value is old:
                self.operands[i] = new
                old.uses.remove(self)
                new.uses.append(self)

    def erase_operand(self, index: int) -> None:
        """Drop one operand (e.g. the init or yield of a dead carried value), keeping use lists right."""
        value = self.operands.pop(index)
        value.uses.remove(self)

    def erase_result(self, index: int) -> None:
        """Drop an unused result; later results shift down."""
        if self.results[index].uses:
            raise self.fail(f"result {index} is still used")
        del self.results[index]
        for i, result in enumerate(self.results):
            result.index = i

    def drop_operands(self) -> None:
        for value in self.operands:
            if self in value.uses:
                value.uses.remove(self)
        for region in self.regions:
            for op in region.block.ops:
                op.drop_operands()

    @property
    def result(self) -> OpResult:
        if len(self.results) != 1:
            raise VerifyError(f"{self.name} has {len(self.results)} results, not one")
        return self.results[0]

    def walk(self) -> Iterator[Op]:
        """This op, then every op nested in its regions, in order."""
        yield self
        for region in self.regions:
            yield from region.walk()

    def parent_op(self) -> Op | None:
        block = self.parent
        if block is None or block.parent is None:
            return None
        return block.parent.parent

    def verify(self) -> None:
        """Check this op's own invariants; subclasses extend."""

    def fail(self, message: str) -> VerifyError:
        return VerifyError(f"{self.name}: {message}", self.loc)


class KindOp(Op):
    """An op whose `kind` attribute says which member of its family it computes; verify() checks
    the kind against the family (`kinds`), naming it `kind_word` in the message."""

    kinds: ClassVar[tuple[str, ...]] = ()
    kind_word: ClassVar[str] = "kind"

    @property
    def kind(self) -> Any:
        return self.attrs["kind"]

    def verify(self) -> None:
        if self.kind not in self.kinds:
            raise self.fail(f"unknown {self.kind_word} {self.kind!r}")


class Function:
    """A kernel: typed arguments (block args of the body) and an optional scalar return type."""

    def __init__(self, name: str, arg_types: list[HLSType], arg_names: list[str],
                 return_type: HLSType | None, loc: Loc | None = None):
        self.name = name
        self.body = Region(Block(arg_types, arg_names))
        self.return_type = return_type
        self.loc = loc
        self.attrs: dict[str, Any] = {}

    @property
    def pipeline(self) -> Any:
        """The function-level `hls.pipeline` (a `directives.Pipeline`), or None."""
        return self.attrs.get("pipeline")

    @property
    def result_names(self) -> list[str | None]:
        """The Python names of a tuple return's elements (the C++ names its reference outputs after them)."""
        return self.attrs.get("result_names") or []

    @property
    def result_array(self) -> str | None:
        """The output argument an array result became (hls/frontend/results.py): written, never read."""
        return self.attrs.get("result_array")

    @property
    def args(self) -> list[BlockArg]:
        return self.body.block.args

    def walk(self) -> Iterator[Op]:
        return self.body.walk()


class Module:
    """Every function of a design; `top` names the top-level kernel. Callees come before callers."""

    def __init__(self, top: str):
        self.top = top
        self.functions: dict[str, Function] = {}

    def add(self, func: Function) -> None:
        self.functions[func.name] = func

    @property
    def top_function(self) -> Function:
        return self.functions[self.top]

"""The codec base: what every boundary codec (hls/backend/codec/__init__.py) is, the family registry, and the
checks and texts the codec classes share. A codec class per type family registers itself here."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from numbers import Real
from typing import Any, ClassVar

import numpy as np

from hls.backend.ctype import ctype_of, storage_ctype
from hls.errors import SimulationError, VerificationError
from hls.golden.runtime import ArrayView
from hls.types import ScalarType, TypeFamily, exact_value, register_family_class
from hls.wording import type_expr

MAX_INT_BITS = 64  # integers travel as int64/uint64 (numpy, cffi, the testbench's strtoll)
MAX_FIXED_BITS = 53  # fixed point travels as float64, exact up to 53 significant bits


CODECS: dict[TypeFamily, type[Codec]] = {}  # a type family -> the codec class of its types


@dataclass(frozen=True)
class Codec:
    """How values of one type cross numpy <-> C++ <-> `.dat` (plain data; see the module docstring).

    One subclass per type family (registry `CODECS`, `class X(Codec, family=...)`); a class leaving one
    of `REQUIRED` undefined fails when it is defined, not at the first csim run. The `cpp_*`/`dat_*`
    methods return C++ expressions converting `expr`.
    """

    elem: ScalarType
    shape: tuple[int, ...]  # () for a scalar or a stream item
    dtype: np.dtype  # numpy storage of one element
    storage: str  # C type of one stored element (what cffi passes)
    c_type: str  # C++ type of one element in the kernel
    dat_type: str  # C type the testbench parses one `.dat` line into
    exact: bool  # compared bit-exactly (else within rtol/atol)
    unsupported: str | None = None  # why this type cannot cross the boundary, or None
    fields: tuple[tuple[str, Codec], ...] = ()  # a composite's field codecs (empty for scalars)

    family: ClassVar[TypeFamily]
    zero_copy: ClassVar[bool] = False  # the kernel reads numpy's buffer in place (same layout), no conversion loop
    REQUIRED: ClassVar[tuple[str, ...]] = ("of", "cpp_out", "dat_in", "dat_out", "to_storage", "exact_number",
                                           "from_storage", "format_dat", "parse_dat", "draw")

    def __init_subclass__(cls, family: TypeFamily | None = None, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        register_family_class(cls, Codec, CODECS, family, Codec.REQUIRED)

    @classmethod
    def of(cls, t: Any) -> Codec:
        """The codec of a type of this family (a scalar: no shape)."""
        raise NotImplementedError

    @classmethod
    def scalar(cls, t: ScalarType, dat_type: str, exact: bool = True, unsupported: str | None = None) -> Codec:
        return cls(t, (), t.storage_dtype, storage_ctype(t), ctype_of(t).spelling, dat_type, exact, unsupported)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1

    # ---- C++ snippets ------------------------------------------------------------------------

    def cpp_in(self, expr: str) -> str:
        """Storage value -> kernel type (csim bridge)."""
        return f"{self.c_type}({expr})"

    def cpp_out(self, expr: str) -> str:
        """Kernel value -> storage type (csim bridge)."""
        raise NotImplementedError

    def dat_in(self, expr: str) -> str:
        """A value parsed from a `.dat` line (of `dat_type`) -> kernel type (testbench)."""
        raise NotImplementedError

    def dat_out(self, expr: str) -> str:
        """Kernel value -> `dat_type`, compared with the golden `.dat` values (testbench)."""
        raise NotImplementedError

    # ---- Python side: cffi scalars and numpy arrays --------------------------------------------

    def to_storage(self, name: str, value: Any) -> Any:
        """A Python scalar argument as the Python number cffi passes in `storage` (a struct: a dict of
        its fields' storage values, which cffi takes as the storage struct); refused as `value` refuses."""
        raise NotImplementedError

    def value(self, name: str, value: Any, item: int | None = None) -> Any:
        """A scalar argument, one stream item (`item`: its index) or one struct field as its exact
        Python-mode value. Only values of the type cross, as `check_range` demands of an array's
        elements: an integer in range (an integral float such as 3.0 counts), a bool or 0/1, a number
        on the fixed-point grid and in range, any real number for a float (rounded as numpy does); a
        struct field by field. Anything else is an error naming the argument before anything runs."""
        if isinstance(value, (np.ndarray, ArrayView)):
            raise SimulationError(f"{argument_text(name, item)} is a scalar {self.elem}, got an array")
        return self.number(argument_text(name, item), value)

    def number(self, where: str, value: Any) -> Any:
        """`value` (any Python or numpy number) as the type's exact value, or an error naming `where`."""
        if isinstance(value, (str, bytes, complex)) or not isinstance(value, (Real, np.number, np.bool_)):
            raise SimulationError(f"{where}: {self.elem} takes a number, got {type(value).__name__}")
        return self.exact_number(where, value)

    def exact_number(self, where: str, value: Any) -> Any:
        """`number` once `value` is known to be a real number."""
        raise NotImplementedError

    def check_stream(self, name: str, stream: Any) -> None:
        """Every item of a stream argument checked as `value` checks a scalar (naming its index) and
        replaced by its exact value: `hls.Stream(T, values)` keeps the values as given until here."""
        if getattr(stream, "elem", None) != self.elem:
            raise SimulationError(f"argument {name!r} is a stream of {self.elem}: pass "
                                  f"hls.Stream({type_expr(self.elem)}, values), got {stream!r}")
        stream.items = type(stream.items)(self.value(name, v, i) for i, v in enumerate(stream.items))

    def from_storage(self, raw: Any) -> Any:
        """A stored value (from cffi or numpy) as the exact Python-mode value (a struct: from a cffi
        storage struct, a numpy record or the tuple `tolist()` gives, as the dataclass instance)."""
        raise NotImplementedError

    def check(self, name: str, arg: Any) -> np.ndarray:
        """Shape, dtype, layout and range checks of an array argument: a wrong array never reaches C++."""
        if not isinstance(arg, np.ndarray):
            raise SimulationError(f"argument {name!r} must be a numpy array of shape {self.shape} and dtype "
                                  f"{self.dtype}, got {type(arg).__name__}")
        if arg.shape != self.shape:
            raise SimulationError(f"argument {name!r} has shape {arg.shape}, the kernel declares {self.shape}")
        if arg.dtype != self.dtype:
            raise SimulationError(f"argument {name!r} has dtype {arg.dtype}; {self.elem} arrays travel as "
                                  f"{self.dtype} (use .astype(np.{self.dtype}))")
        if not arg.flags.c_contiguous:
            raise SimulationError(f"argument {name!r} is not C-contiguous; pass np.ascontiguousarray(...)")
        if not arg.flags.writeable:
            raise SimulationError(f"argument {name!r} is read-only; csim writes array outputs in place")
        for n, f in self.fields:  # a struct: each field holds its own type's values
            f.check_range(f"{name}.{n}", arg[n])
        self.check_range(name, arg)
        return arg

    def check_range(self, name: str, values: np.ndarray) -> None:
        """Every stored value is one of the type's values (the dtype alone allows more)."""

    # ---- .dat text -----------------------------------------------------------------------------

    def format_dat(self, values: Any) -> str:
        """One value per line, exact: decimal integers, %.9g/%.17g floats (round-trip), fixed as float64."""
        raise NotImplementedError

    def parse_dat(self, text: str) -> np.ndarray:
        """The values of a `.dat` text in storage form (1-D; blank lines ignored), as the testbench reads it."""
        raise NotImplementedError

    # ---- random inputs and comparison ----------------------------------------------------------

    def random(self, rng: np.random.Generator) -> Any:
        """Inputs spanning the type: full range for integers and fixed point, [-1, 1) for floats; a
        struct field by field (a structured array, or one dataclass instance)."""
        values = self.draw(rng)
        if self.shape:
            return np.ascontiguousarray(values)
        return self.item(values.item() if isinstance(values, np.ndarray) else values)

    def draw(self, rng: np.random.Generator) -> Any:
        """Random stored values of `shape` (`random` without the scalar's Python-mode value)."""
        raise NotImplementedError

    def item(self, stored: Any) -> Any:
        """One drawn scalar (a Python number) as the Python-mode value `random` returns."""
        return stored

    def compare(self, name: str, golden: Any, actual: Any, rtol: float, atol: float) -> None:
        """Exact for integers, bools and fixed point; floats within rtol/atol; a struct field by field
        (`name.field`). Names the first mismatch."""
        g = np.asarray(golden)
        a = np.asarray(actual)
        if g.shape != a.shape:
            raise VerificationError(f"{name}: golden shape {g.shape} but csim shape {a.shape}")
        if self.exact:
            bad = g != a
        else:
            with np.errstate(all="ignore"):
                bad = ~np.isclose(a.astype(np.float64), g.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
        if np.any(bad):
            index = tuple(int(i) for i in np.argwhere(bad)[0]) if g.ndim else ()
            count = int(np.count_nonzero(bad))
            where = f"{name}[{', '.join(map(str, index))}]" if index else name
            gv, av = (g[index], a[index]) if index else (golden, actual)
            raise VerificationError(f"{where}: golden {show(gv)} but csim {show(av)} ({count} of {bad.size} "
                                    f"element{'s' if bad.size != 1 else ''} differ; {self.elem})")


def finite_exact(where: str, value: Any, elem: Any) -> int | Fraction:
    """A real number as an exact int or Fraction; infinities and NaN are refused (`elem` holds none)."""
    if isinstance(value, (float, np.floating)) and not np.isfinite(value):
        raise SimulationError(f"{where}: {show(value)} is not a finite number, and {elem} holds none")
    return exact_value(value)


def flat_values(values: Any) -> list[Any]:
    return values.ravel().tolist() if isinstance(values, np.ndarray) else [values]


def dat_text(lines: Any) -> str:
    return "".join(line + "\n" for line in lines)


def dat_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def not_fit(t: Any) -> str:
    return f"not fit {t} ({t.min}..{t.max}); convert with {type_expr(t)}(x) if the wrap is intended"


def quantize_hint(t: Any) -> str:
    return f"quantize with {type_expr(t)}(x) first"


def argument_text(name: str, item: int | None) -> str:
    return f"argument {name!r}" + (f" item {item}" if item is not None else "")


def show(value: Any) -> str:
    if isinstance(value, (np.floating, float)):
        return repr(float(value))
    if isinstance(value, Fraction):
        return f"{float(value)!r}"
    return repr(value.item() if isinstance(value, np.generic) else value)



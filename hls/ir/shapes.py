"""numpy's shape rules for whole-array statements, in one place: the result shape of broadcasting,
slicing, transposing, reducing and contracting, and how each operand's dimensions map onto the
result's loop indices. Pure functions on tuples of ints; the frontend lowers array expressions with
them (hls.frontend.arrayexpr) and a backend writing indexing maps can read the same facts.

An index map is a tuple with one entry per operand dimension: the result dimension it follows, or
None where a size-1 operand dimension is broadcast (it is always read at 0).
"""

from __future__ import annotations

from dataclasses import dataclass

Shape = tuple[int, ...]
IndexMap = tuple[int | None, ...]


class ShapeMismatch(ValueError):
    """Two shapes numpy's rules refuse to combine (the message names both)."""


def broadcast(*shapes: Shape) -> Shape:
    """The broadcast of `shapes` (trailing dimensions equal or 1), as numpy.broadcast_shapes."""
    rank = max(len(s) for s in shapes)
    out: list[int] = []
    for back in range(rank, 0, -1):
        sizes = {s[len(s) - back] for s in shapes if len(s) >= back}
        sizes.discard(1)
        if len(sizes) > 1:
            raise ShapeMismatch(" and ".join(str(s) for s in shapes) + " cannot be broadcast together")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def broadcast_map(shape: Shape, result: Shape) -> IndexMap:
    """Which result dimension each dimension of `shape` follows when it is broadcast to `result`."""
    offset = len(result) - len(shape)
    if offset < 0:
        raise ShapeMismatch(f"{shape} cannot be broadcast to {result}")
    out: list[int | None] = []
    for dim, size in enumerate(shape):
        if size == result[offset + dim]:
            out.append(offset + dim)
        elif size == 1:
            out.append(None)
        else:
            raise ShapeMismatch(f"{shape} cannot be broadcast to {result}")
    return tuple(out)


@dataclass(frozen=True)
class SliceDim:
    """One sliced dimension: element k of the view is element `start + step * k` of the base."""

    start: int
    step: int
    length: int


def slice_dim(size: int, start: int | None, stop: int | None, step: int | None) -> SliceDim:
    """`[start:stop:step]` of a dimension of `size` elements, with Python's negative and clipped bounds."""
    if step == 0:
        raise ShapeMismatch("slice step cannot be zero")
    first, _, stride = slice(start, stop, step).indices(size)
    length = len(range(*slice(start, stop, step).indices(size)))
    return SliceDim(first, stride, length)


def transpose_axes(rank: int, axes: tuple[int, ...] | None) -> tuple[int, ...]:
    """`np.transpose(x, axes)`: the permutation (reversed when None), negative axes normalised."""
    if axes is None:
        return tuple(range(rank - 1, -1, -1))
    norm = tuple(a + rank if a < 0 else a for a in axes)
    if sorted(norm) != list(range(rank)):
        raise ShapeMismatch(f"axes {axes} are not a permutation of the {rank} dimensions")
    return norm


def reduce_axes(rank: int, axis: int | tuple[int, ...] | None) -> tuple[int, ...]:
    """The reduced dimensions of `axis=` (None: all of them), each checked to be in range."""
    if axis is None:
        return tuple(range(rank))
    axes = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for a in axes:
        if not -rank <= a < rank:
            raise ShapeMismatch(f"axis {a} is out of range for an array of {rank} dimensions")
        out.append(a + rank if a < 0 else a)
    if len(set(out)) != len(out):
        raise ShapeMismatch(f"axis {axis} repeats a dimension")
    return tuple(sorted(out))


def reduced_shape(shape: Shape, axes: tuple[int, ...], keepdims: bool) -> Shape:
    """The shape left after reducing `axes` (kept as 1s with keepdims)."""
    if keepdims:
        return tuple(1 if d in axes else s for d, s in enumerate(shape))
    return tuple(s for d, s in enumerate(shape) if d not in axes)


@dataclass(frozen=True)
class Contraction:
    """`A @ B` with numpy's matmul rules: the result shape, the reduced length, and for each operand
    which result dimension (or the reduction, -1) each of its dimensions follows."""

    shape: Shape
    length: int
    left: IndexMap
    right: IndexMap


def matmul(a: Shape, b: Shape) -> Contraction:
    """numpy.matmul's shapes: vectors are promoted and the promoted dimension dropped again; leading
    (batch) dimensions broadcast."""
    if not a or not b:
        raise ShapeMismatch("matmul needs arrays, not scalars")
    a2 = (1, *a) if len(a) == 1 else a
    b2 = (*b, 1) if len(b) == 1 else b
    if a2[-1] != b2[-2]:
        raise ShapeMismatch(f"matmul of {a} and {b}: inner dimensions {a2[-1]} and {b2[-2]} differ")
    try:
        batch = broadcast(a2[:-2], b2[:-2])
    except ShapeMismatch:
        raise ShapeMismatch(f"matmul of {a} and {b}: the batch dimensions {a2[:-2]} and {b2[:-2]} cannot be "
                            "broadcast together") from None
    full = (*batch, a2[-2], b2[-1])
    rank = len(full)
    left = [*broadcast_map(a2[:-2], batch), rank - 2, -1]
    right = [*broadcast_map(b2[:-2], batch), -1, rank - 1]
    keep = [d for d in range(rank) if not (d == rank - 2 and len(a) == 1) and not (d == rank - 1 and len(b) == 1)]
    renumber = {old: new for new, old in enumerate(keep)}
    left = left[1:] if len(a) == 1 else left
    right = right[:-1] if len(b) == 1 else right
    remap = lambda dims: tuple(None if d is None else -1 if d == -1 else renumber[d] for d in dims)  # noqa: E731
    return Contraction(tuple(full[d] for d in keep), a2[-1], remap(left), remap(right))


def dot(a: Shape, b: Shape) -> Contraction:
    """numpy.dot's shapes: up to 2-D, matmul's; above, the sum runs over a's last dimension and b's
    second-to-last (b's only one for a vector), and the result is a's other dimensions followed by b's
    (no batch broadcasting: `dot((2, 3, 4), (5, 4, 6))` is (2, 3, 5, 6))."""
    if not a or not b:
        raise ShapeMismatch("dot of arrays needs arrays, not scalars")
    if len(a) <= 2 and len(b) <= 2:
        return matmul(a, b)
    k_b = -2 if len(b) >= 2 else -1
    if a[-1] != b[k_b]:
        raise ShapeMismatch(f"np.dot of {a} and {b}: the summed dimensions (the last of {a}, {a[-1]}, and "
                            f"the {'second-to-last' if len(b) >= 2 else 'only'} of {b}, {b[k_b]}) differ")
    lead = len(a) - 1
    out = (*a[:-1], *b[:-2], *b[-1:]) if len(b) >= 2 else a[:-1]
    left = (*range(lead), -1)
    right = (*range(lead, lead + len(b) - 2), -1, len(out) - 1) if len(b) >= 2 else (-1,)
    return Contraction(out, a[-1], left, right)


def concatenate(parts: list[Shape], axis: int, name: str = "np.concatenate") -> tuple[Shape, int]:
    """`np.concatenate(parts, axis)`: the result shape and the axis normalised (negative counts from the
    end); every part has the same rank and the same sizes outside `axis`."""
    if not parts:
        raise ShapeMismatch(f"{name} needs at least one array")
    rank = len(parts[0])
    if rank == 0:
        raise ShapeMismatch(f"{name} of scalars: zero-dimensional arrays cannot be concatenated")
    if not -rank <= axis < rank:
        raise ShapeMismatch(f"axis {axis} is out of range for an array of {rank} dimensions")
    axis += rank if axis < 0 else 0
    for shape in parts[1:]:
        same = len(shape) == rank and all(shape[d] == parts[0][d] for d in range(rank) if d != axis)
        if not same:
            raise ShapeMismatch(f"{name} along axis {axis}: {parts[0]} and {shape} differ outside that "
                                "axis (every other dimension must be equal)")
    size = sum(shape[axis] for shape in parts)
    return (*parts[0][:axis], size, *parts[0][axis + 1:]), axis


def reshaped(shape: Shape, new: tuple[int, ...]) -> Shape:
    """`x.reshape(new)` (one -1 inferred): the same elements in row-major order."""
    size = 1
    for n in shape:
        size *= n
    known = 1
    for n in new:
        known *= n if n != -1 else 1
    if list(new).count(-1) > 1 or any(n < -1 or n == 0 for n in new):
        raise ShapeMismatch(f"cannot reshape {shape} to {new}")
    out = tuple(size // known if n == -1 else n for n in new)
    total = 1
    for n in out:
        total *= n
    if total != size:
        raise ShapeMismatch(f"cannot reshape an array of shape {shape} (size {size}) to {new}")
    return out


def strides(shape: Shape) -> tuple[int, ...]:
    """Row-major element strides of `shape`."""
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))

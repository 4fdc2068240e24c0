"""Op dispatch: each walker over the IR declares one rule per op class, and a table finds it.

A walker is a `Walker` subclass whose methods are marked `@rule(ForOp)` (xDSL's `@impl`). The rules
are collected when the class is defined, inherited by subclasses (which may override a rule by
redefining the method of the same name), and looked up by the op's class along its MRO, so a rule for
a base class (`FifoOp`, `KindOp`) serves every subclass unless a closer rule exists. Ops that mean
nothing to a walker are named in `not_applicable`; reaching one calls `inapplicable` (an internal
error by default; a walker may answer otherwise, as constant folding answers "not foldable").
`uncovered` lists the op classes a walker forgets, and tests/test_architecture.py asserts it is empty
for every walker and every concrete op class of `hls/ir` (`concrete_ops`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeVar

from hls.ir.core import Op, VerifyError

F = TypeVar("F", bound=Callable[..., Any])


class NoRule(VerifyError):
    """A walker met an op it has no rule for: a compiler bug (a new op class without its rules)."""


def rule(*op_classes: type[Op]) -> Callable[[F], F]:
    """Mark a walker method as the rule for `op_classes` (and their subclasses without a closer rule)."""
    if not op_classes or not all(isinstance(c, type) and issubclass(c, Op) for c in op_classes):
        raise TypeError(f"@rule takes op classes, got {op_classes!r}")

    def mark(method: F) -> F:
        method.__rule_for__ = (*getattr(method, "__rule_for__", ()), *op_classes)  # type: ignore[attr-defined]
        return method

    return mark


class Walker:
    """Base of every walker over ops: `dispatch(op, ...)` calls the rule for op's class."""

    rules: ClassVar[dict[type[Op], str]] = {}  # op class -> name of the method that handles it
    own_rules: ClassVar[dict[type[Op], str]] = {}  # the rules this class itself marks
    not_applicable: ClassVar[tuple[type[Op], ...]] = ()
    _found: ClassVar[dict[type[Op], str | None]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own: dict[type[Op], str] = {}
        for name, member in vars(cls).items():
            for op_class in getattr(member, "__rule_for__", ()):
                if op_class in own:
                    raise TypeError(f"{cls.__name__}: {own[op_class]} and {name} are both rules for "
                                    f"{op_class.__name__}")
                own[op_class] = name
        cls.own_rules = own
        table: dict[type[Op], str] = {}
        for base in reversed(cls.__mro__):  # every base walker's rules, the closer ones winning, then its own
            table.update(vars(base).get("own_rules", {}))
        cls.rules = table
        cls._found = {}

    @classmethod
    def rule_name(cls, op_class: type[Op]) -> str | None:
        """The method handling `op_class`: its own rule or the closest base class's (None: no rule)."""
        try:
            return cls._found[op_class]
        except KeyError:
            name = next((cls.rules[c] for c in op_class.__mro__ if c in cls.rules), None)
            cls._found[op_class] = None if issubclass(op_class, cls.not_applicable) else name
            return cls._found[op_class]

    def dispatch(self, op: Op, *args: Any, **kwargs: Any) -> Any:
        """Run the rule for `op`; an op declared not applicable goes to `inapplicable`."""
        name = self.rule_name(type(op))
        if name is None:
            if isinstance(op, self.not_applicable):
                return self.inapplicable(op, *args, **kwargs)
            raise NoRule(f"{type(self).__name__} has no rule for {type(op).__name__} ({op.name})", op.loc)
        return getattr(self, name)(op, *args, **kwargs)

    def inapplicable(self, op: Op, *args: Any, **kwargs: Any) -> Any:
        """What reaching an op declared not applicable here means; by default a compiler bug."""
        raise NoRule(f"{type(self).__name__}: {type(op).__name__} ({op.name}) is not applicable here", op.loc)


def uncovered(walker: type[Walker], op_classes: Iterable[type[Op]]) -> list[type[Op]]:
    """The op classes `walker` neither has a rule for nor declares not applicable."""
    return [c for c in op_classes if not issubclass(c, walker.not_applicable) and walker.rule_name(c) is None]


def both_ways(walker: type[Walker], op_classes: Iterable[type[Op]]) -> list[type[Op]]:
    """The op classes `walker` declares not applicable and marks a rule for itself (a contradiction; a
    rule inherited from a base walker may be switched off this way)."""
    return [c for c in op_classes if issubclass(c, walker.not_applicable) and c in walker.own_rules]


def concrete_ops(root: type[Op] = Op, package: str = "hls.ir") -> list[type[Op]]:
    """Every op class of `package` that can be built: a subclass of `root` that names itself (`name` in
    its own body; `FifoOp`, `KindOp` do not)."""
    found, work = [], list(root.__subclasses__())
    while work:
        cls = work.pop()
        work.extend(cls.__subclasses__())
        if "name" in vars(cls) and cls.__module__.startswith(package) and cls not in found:
            found.append(cls)
    return sorted(found, key=lambda c: (c.__module__, c.__name__))


__all__ = ["NoRule", "Walker", "both_ways", "concrete_ops", "rule", "uncovered"]

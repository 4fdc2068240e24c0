"""Latency ranges: (min, max) cycles, None when unknown (a loop without a known trip count)."""

from __future__ import annotations

from dataclasses import dataclass


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _mul(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a * b


@dataclass(frozen=True)
class Span:
    min: int | None
    max: int | None

    def __add__(self, other: Span) -> Span:
        return Span(_add(self.min, other.min), _add(self.max, other.max))

    def plus(self, cycles: int) -> Span:
        return self + Span(cycles, cycles)

    def times(self, trip: Span) -> Span:
        """`trip` iterations of this span each."""
        return Span(_mul(self.min, trip.min), _mul(self.max, trip.max))

    @staticmethod
    def either(a: Span, b: Span) -> Span:
        """One of two branches: the shorter bounds the minimum, the longer the maximum."""
        low = None if a.min is None or b.min is None else min(a.min, b.min)
        high = None if a.max is None or b.max is None else max(a.max, b.max)
        return Span(low, high)

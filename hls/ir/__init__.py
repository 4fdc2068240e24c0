"""Typed SSA IR with structured regions."""

from hls.ir.bitops import *  # noqa: F403
from hls.ir.core import Block, BlockArg, Function, Module, Op, OpResult, Region, Value, VerifyError
from hls.ir.ops import *  # noqa: F403
from hls.ir.printer import print_function, print_module
from hls.ir.stream_ops import *  # noqa: F403
from hls.ir.structops import *  # noqa: F403
from hls.ir.verify import verify_function, verify_module

__all__ = ["Block", "BlockArg", "Function", "Module", "Op", "OpResult", "Region", "Value", "VerifyError",
           "print_function", "print_module", "verify_function", "verify_module"]

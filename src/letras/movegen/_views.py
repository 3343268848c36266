"""Intrinsics for the compiled searches' hot paths: views of arrays without an owner, and a
prefetch.

Numba counts the references of every array a compiled function is handed, with atomic
operations, on entry to each call and on its way out: for a function with some thirty array
arguments called once per anchor (:func:`letras.movegen._kernels._dfs`), those counts were a
third of a lane search's time (``bench/README.md``). A view made by :func:`unowned` has no
owner (no memory-info block), so its counts cost nothing: the move generator and the lane
searches of the endgame and the sim hand the searches such views. :func:`prefetch` asks the
processor for a cache line before the search needs it (the search reads the word graph in an
order the processor cannot guess).
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array


def _unowned_intrinsic(typingctx: Any, arr: Any) -> Any:  # pragma: no cover - compiled
    """The same array (data, shape, strides) without an owner: no memory-info block, so the
    compiled code counts no references to it. The caller must keep the array itself alive
    while the view is used (a variable of the array used after the view's last use), and
    never hand the view back to Python."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        cls = context.make_array(arr)
        src = cls(context, builder, value=args[0])
        out = cls(context, builder)
        populate_array(out, data=src.data, shape=src.shape,  # type: ignore[no-untyped-call]
                       strides=src.strides, itemsize=src.itemsize, meminfo=None)
        return out._getvalue()

    return arr(arr), codegen


unowned: Any = intrinsic(_unowned_intrinsic)
"""``unowned(array)`` in compiled code: :func:`_unowned_intrinsic`."""

def _prefetch_intrinsic(typingctx: Any, arr: Any, row: Any) -> Any:  # pragma: no cover
    """Ask the processor to bring the cache line of ``arr[row, 0]`` (or ``arr[row]``) into
    its caches (LLVM's ``llvm.prefetch``: a read, kept in every level), without waiting for
    it and without a fault when the row is out of bounds (the address is not checked)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(arr)(context, builder, args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        zero = context.get_constant(types.intp, 0)
        shape = cgutils.unpack_tuple(builder, ary.shape)  # type: ignore[no-untyped-call]
        strides = cgutils.unpack_tuple(builder, ary.strides)  # type: ignore[no-untyped-call]
        ptr = cgutils.get_item_pointer2(  # type: ignore[no-untyped-call]
            context, builder, ary.data, shape, strides, arr.layout, [index, zero][: arr.ndim])
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(arr, row), codegen


prefetch: Any = intrinsic(_prefetch_intrinsic)
"""``prefetch(array, row)`` in compiled code: :func:`_prefetch_intrinsic`."""

__all__ = ["prefetch", "unowned"]

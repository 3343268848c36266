"""Views of arrays without an owner, for the compiled searches' hot calls.

Numba counts the references of every array a compiled function is handed, with atomic
operations, on entry to each call and on its way out: for a function with some thirty array
arguments called once per anchor (:func:`letras.movegen._kernels._dfs`), those counts were a
third of a lane search's time (``bench/README.md``). A view made by :func:`unowned` has no
owner (no memory-info block), so its counts cost nothing: the move generator and the lane
searches of the endgame and the sim hand the searches such views.
"""

from __future__ import annotations

from typing import Any

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

__all__ = ["unowned"]

"""uopc.dtype on uop: dtypes.f32, .i32, .f16, .bool and DType."""
from uop import DType, dtypes

__all__ = ["DType", "dtypes"]

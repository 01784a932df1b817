# Precompiled headers for the libraries whose sources parse MLIR's IR
# headers: a clean build spent 20-40% of each such file's compile time
# parsing them again (Rangeify.cpp 23.4 -> 17.8 s, Layout.cpp 5.0 -> 2.9 s
# with a PCH of these headers, clang-22 -O3, 2026-12-03), and CI has a
# 15-minute budget for a clean build and the tests on 2 cores. One PCH per
# library (its object library, obj.<name>); -fno-pch-timestamp keeps the PCH
# cacheable by ccache (CMakeLists.txt sets the sloppiness it needs).
option(UOP_ENABLE_PCH "Precompile MLIR's IR headers for uop's MLIR libraries" ON)

set(UOP_PCH_HEADERS
  <mlir/IR/Builders.h>
  <mlir/IR/PatternMatch.h>
  <mlir/IR/Matchers.h>
  <mlir/Dialect/Func/IR/FuncOps.h>
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/MemRef/IR/MemRef.h>
  <mlir/Dialect/SCF/IR/SCF.h>
  <mlir/Transforms/GreedyPatternRewriteDriver.h>
  <mlir/Pass/Pass.h>
  "${PROJECT_SOURCE_DIR}/include/Uop/IR/UopOps.h")

function(uop_precompile_headers lib)
  if(UOP_ENABLE_PCH AND TARGET obj.${lib})
    target_precompile_headers(obj.${lib} PRIVATE ${UOP_PCH_HEADERS})
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      target_compile_options(obj.${lib} PRIVATE -Xclang -fno-pch-timestamp)
    endif()
  endif()
endfunction()

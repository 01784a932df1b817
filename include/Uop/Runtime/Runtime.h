//===- Runtime.h - The uop runtime library ----------------------*- C++ -*-===//
//
// Part of the uop project. The runtime (namespace uop::rt, library
// UopRuntime) has no LLVM or MLIR dependency: it builds alone with
// -DUOP_RUNTIME_ONLY=ON. It provides typed host buffers, .npy I/O, the
// on-disk cache of compiled code, the CPU loader, the CUDA driver API
// (loaded at run time), executables and bundles.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_RUNTIME_H
#define UOP_RUNTIME_RUNTIME_H

#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Bundle.h"
#include "Uop/Runtime/Cache.h"
#include "Uop/Runtime/Cuda.h"
#include "Uop/Runtime/Device.h"
#include "Uop/Runtime/Driver.h"
#include "Uop/Runtime/Executable.h"
#include "Uop/Runtime/File.h"
#include "Uop/Runtime/Loader.h"
#include "Uop/Runtime/Memory.h"
#include "Uop/Runtime/Npy.h"
#include "Uop/Runtime/Plan.h"
#include "Uop/Runtime/Result.h"
#include "Uop/Runtime/Step.h"

#endif // UOP_RUNTIME_RUNTIME_H

// RUN: uop-opt %s --uop-attach-target=target=skylake-avx512 | FileCheck %s --check-prefix=SKX
// RUN: uop-opt %s --uop-attach-target=target=x86-64-v3 | FileCheck %s --check-prefix=V3
// RUN: uop-opt %s --uop-attach-target=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: uop-opt %s --uop-attach-target=kind=cuda | FileCheck %s --check-prefix=CUDA
// RUN: env UOP_HOST_CPU=znver3 uop-opt %s --uop-attach-target | FileCheck %s --check-prefix=HOST
// RUN: env UOP_HOST_CPU=znver3 uop-opt %s --uop-attach-target=target=host | FileCheck %s --check-prefix=HOST
// RUN: uop-opt %s --uop-attach-target=target=haswell --uop-attach-target | FileCheck %s --check-prefix=KEEP
// RUN: uop-opt %s --uop-attach-target=target=haswell --uop-attach-target=target=znver4 | FileCheck %s --check-prefix=NEW
// RUN: uop-opt %s --uop-attach-target=target=haswell --uop-attach-target=kind=cuda | FileCheck %s --check-prefix=CUDA
// RUN: not uop-opt %s --uop-attach-target=target=pentium9 2>&1 | FileCheck %s --check-prefix=BADCPU
// RUN: not uop-opt %s --uop-attach-target=target=sm_75 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not uop-opt %s --uop-attach-target=kind=tpu 2>&1 | FileCheck %s --check-prefix=BADKIND
// RUN: not uop-opt %s '--uop-attach-target=target={#uop.target<cpu>}' 2>&1 | FileCheck %s --check-prefix=BADATTR
//
// uop-attach-target names the machine: a CPU LLVM's x86 table knows (its
// features from the table: no such machine is needed), a CUDA chip, the host
// (UOP_HOST_CPU plays another), or a printed #uop.target. Without a target
// a module keeps its own target of the kind asked for.

// SKX: module attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "skylake-avx512", features = "{{.*}}+avx512f{{.*}}", vector_bits = 512, vector_registers = 32, cache_line = 64>}
// V3: #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "x86-64-v3", features = "{{.*}}+avx2{{.*}}", vector_bits = 256, vector_registers = 16, cache_line = 64>
// V3-NOT: avx512
// SM80: #uop.target<cuda, chip = "sm_80", features = "+ptx80", cache_line = 128, warp = 32, max_threads = 1024, max_block = [1024, 1024, 64], max_grid = [2147483647, 65535, 65535], shared_memory = 49152, shared_memory_optin = 166912, registers = 65536, multiprocessors = 108, local_memory = 524288, mma = [#uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>
// SM80-NOT: warpgroup
// CUDA: #uop.target<cuda, chip = "sm_90",
// HOST: #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "znver3", {{.*}}vector_bits = 256
// KEEP: cpu = "haswell"
// NEW: cpu = "znver4"
// BADCPU: error: uop-attach-target: unknown CPU 'pentium9' (a name LLVM's x86 backend knows, e.g. znver5, skylake-avx512, x86-64-v3; or host)
// BADCHIP: error: uop-attach-target: unknown CUDA chip 'sm_75' (expected sm_80, sm_86, sm_89, sm_90 or sm_90a)
// BADKIND: error: uop-attach-target: unknown kind 'tpu' (expected cpu or cuda)
// BADATTR: error: uop-attach-target: '#uop.target<cpu>' is not a #uop.target<...>: a cpu target needs a triple and a cpu
module {}
// RUN: not uop-opt %s --uop-attach-target="target=znver5 kind=cuda" 2>&1 | FileCheck %s --check-prefix=WRONGKIND
// RUN: not uop-opt %s --uop-cuda-pipeline=target=znver5 2>&1 | FileCheck %s --check-prefix=WRONGKIND
// WRONGKIND: error: uop-attach-target: 'znver5' is a cpu target, but a cuda target is needed here
// RUN: uop-opt %s --uop-attach-target=target=sm_90 --uop-attach-target | FileCheck %s --check-prefix=CUDA

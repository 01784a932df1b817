// RUN: uop-opt %s -split-input-file -verify-diagnostics
//
// One case per rule of the seed's `_infer` (uopc/uop.py), plus the checks the
// MLIR encoding adds (address spaces, slots, parameters as block arguments).

// BUFFER is flat.
func.func @buffer_not_flat() {
  // expected-error @+1 {{'uop.buffer' op must be flat (1-D), got tensor<2x3xf32>}}
  %0 = uop.buffer 0 : tensor<2x3xf32>
  return
}

// -----

func.func @buffer_not_global() {
  // expected-error @+1 {{'uop.buffer' op is global memory, got address space local}}
  %0 = uop.buffer 0 : memref<4xf32, #uop.addrspace<local>>
  return
}

// -----

func.func @buffer_negative_slot() {
  // expected-error @+1 {{'uop.buffer' op slot must be non-negative, got -1}}
  %0 = uop.buffer -1 : tensor<4xf32>
  return
}

// -----

func.func @buffer_no_addrspace() {
  // expected-error @+1 {{'uop.buffer' op result #0 must be statically shaped tensor of uop dtype, rank >= 1 or static identity-layout memref in a #uop.addrspace, but got 'memref<4xf32>'}}
  %0 = uop.buffer 0 : memref<4xf32>
  return
}

// -----

func.func @buffer_dynamic() {
  // expected-error @+1 {{'uop.buffer' op result #0 must be statically shaped tensor}}
  %0 = uop.buffer 0 : memref<?xf32, #uop.addrspace<global>>
  return
}

// -----

func.func @alloc_strided() {
  // expected-error @+1 {{'uop.alloc' op result #0 must be static identity-layout memref in a #uop.addrspace}}
  %0 = uop.alloc 0 : memref<4xf32, strided<[2]>, #uop.addrspace<local>>
  return
}

// -----

func.func @dynamic_tensor(%x: tensor<?xf32>) {
  // expected-error @+1 {{'uop.sqrt' op operand #0 must be uop value}}
  %0 = uop.sqrt %x : tensor<?xf32>
  return
}

// -----

func.func @reshape_overflow(%x: tensor<4xf32>) {
  // expected-error @+1 {{'uop.reshape' op cannot reshape [4] to [4611686018427387904, 4]}}
  %0 = uop.reshape %x, [4611686018427387904, 4] : tensor<4xf32>
  return
}

// -----

// ALLOC is flat.
func.func @alloc_not_flat() {
  // expected-error @+1 {{'uop.alloc' op must be flat (1-D), got memref<2x2xf32, #uop.addrspace<local>>}}
  %0 = uop.alloc 0 : memref<2x2xf32, #uop.addrspace<local>>
  return
}

// -----

func.func @alloc_global() {
  // expected-error @+1 {{'uop.alloc' op is local or shared memory, got address space global}}
  %0 = uop.alloc 0 : memref<4xf32, #uop.addrspace<global>>
  return
}

// -----

// CALL needs params 0..n-1 (test_call_type_checks: param(0) + param(1) called
// with one argument).
func.func @call_param_count() -> i32 {
  %c1 = uop.const 1 : i32
  // expected-error @+1 {{'uop.call' op needs params 0..0, body has [0, 1]}}
  %0 = uop.call "f"(%c1 : i32) {
  ^bb0(%p0: i32, %p1: i32):
    %1 = uop.add %p0, %p1 : i32
    uop.yield %1 : i32
  }
  return %0 : i32
}

// -----

// CALL arg i must match param i in shape and dtype.
func.func @call_arg_type() -> f32 {
  %c1 = uop.const 1 : i32
  // expected-error @+1 {{'uop.call' op arg 0: i32 != param f32}}
  %0 = uop.call "f"(%c1 : i32) {
  ^bb0(%p0: f32):
    uop.yield %p0 : f32
  }
  return %0 : f32
}

// -----

// A call body sees only its parameters (uop.call is IsolatedFromAbove): a
// value from outside is passed as an argument, as the seed's CALL does.
func.func @call_captures(%x: i32) -> i32 {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = uop.call "f"() {
    // expected-error @+1 {{'uop.add' op using value defined outside the region}}
    %1 = uop.add %x, %x : i32
    uop.yield %1 : i32
  }
  return %0 : i32
}

// -----

func.func @call_no_args_but_param() -> f32 {
  // expected-error @+1 {{'uop.call' op needs params 0..-1, body has [0]}}
  %0 = uop.call "f"() {
  ^bb0(%p0: f32):
    uop.yield %p0 : f32
  }
  return %0 : f32
}

// -----

func.func @param_in_call() -> f32 {
  %0 = uop.call "f"() {
    // expected-error @+1 {{'uop.param' op inside a uop.call body: the body's parameters are its block arguments}}
    %1 = uop.param 0 : f32
    uop.yield %1 : f32
  }
  return %0 : f32
}

// -----

func.func @param_negative_slot() {
  // expected-error @+1 {{'uop.param' op slot must be non-negative, got -2}}
  %0 = uop.param -2 : f32
  return
}

// -----

// STACK of nothing.
func.func @stack_of_nothing() {
  // expected-error @+1 {{'uop.stack' op of nothing: needs at least one source}}
  %0 = "uop.stack"() : () -> tensor<0xf32>
  return
}

// -----

// STACK srcs must agree in shape and dtype (test_shape_dtype_inference: stack(1, 2.0)).
func.func @stack_dtype() {
  %a = uop.const 1 : i32
  %b = uop.const 2.0 : f32
  // expected-error @+1 {{'uop.stack' op sources must agree in shape and dtype: i32 vs f32}}
  %0 = uop.stack %a, %b : i32, f32
  return
}

// -----

func.func @stack_shape(%a: tensor<2xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'uop.stack' op sources must agree in shape and dtype: tensor<2xi32> vs tensor<3xi32>}}
  %0 = uop.stack %a, %b : tensor<2xi32>, tensor<3xi32>
  return
}

// -----

// INDEX: more indices than axes.
func.func @index_too_many(%t: tensor<3xf32>, %i: i32) {
  // expected-error @+1 {{'uop.index' op 2 indices into shape [3] of tensor<3xf32>}}
  %0 = uop.index %t[%i, %i] : tensor<3xf32>
  return
}

// -----

// INDEX indices are i32 scalars.
func.func @index_float(%t: tensor<3xf32>, %i: f32) {
  // expected-error @+1 {{'uop.index' op indices are i32 scalars, got f32}}
  %0 = uop.index %t[%i] : tensor<3xf32>, f32
  return
}

// -----

func.func @index_tensor(%t: tensor<3xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'uop.index' op indices are i32 scalars, got tensor<2xi32>}}
  %0 = uop.index %t[%i] : tensor<3xf32>, tensor<2xi32>
  return
}

// -----

// WHERE condition must be bool.
func.func @where_cond(%c: i32, %a: f32, %b: f32) {
  // expected-error @+1 {{'uop.where' op condition must be bool, got i32}}
  %0 = uop.where %c, %a, %b : i32, f32, f32
  return
}

// -----

// WHERE branches disagree.
func.func @where_branches(%c: i1, %a: f32, %b: i32) {
  // expected-error @+1 {{'uop.where' op branches disagree: f32 vs i32}}
  %0 = uop.where %c, %a, %b : i1, f32, i32
  return
}

// -----

// WHERE shape mismatch.
func.func @where_shape(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'uop.where' op shape mismatch: [] [4] [4]}}
  %0 = uop.where %c, %a, %b : i1, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

// Unary ops need a float.
func.func @recip_int(%x: i32) {
  // expected-error @+1 {{'uop.recip' op needs a float, got i32}}
  %0 = uop.recip %x : i32
  return
}

// -----

func.func @exp2_int(%x: tensor<2xi32>) {
  // expected-error @+1 {{'uop.exp2' op needs a float, got i32}}
  %0 = uop.exp2 %x : tensor<2xi32>
  return
}

// -----

func.func @log2_bool(%x: i1) {
  // expected-error @+1 {{'uop.log2' op needs a float, got i1}}
  %0 = uop.log2 %x : i1
  return
}

// -----

func.func @sqrt_int(%x: i32) {
  // expected-error @+1 {{'uop.sqrt' op needs a float, got i32}}
  %0 = uop.sqrt %x : i32
  return
}

// -----

func.func @sin_int(%x: i32) {
  // expected-error @+1 {{'uop.sin' op needs a float, got i32}}
  %0 = uop.sin %x : i32
  return
}

// -----

// Binary ops: shape mismatch (test_shape_dtype_inference: stack(1, 2) + stack(1, 2, 3)).
func.func @add_shape(%a: tensor<2xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'uop.add' op shape mismatch: tensor<2xi32> vs tensor<3xi32> (broadcast with uop.expand)}}
  %0 = uop.add %a, %b : tensor<2xi32>, tensor<3xi32>
  return
}

// -----

func.func @mul_scalar_tensor(%a: f32, %b: tensor<3xf32>) {
  // expected-error @+1 {{'uop.mul' op shape mismatch: f32 vs tensor<3xf32> (broadcast with uop.expand)}}
  %0 = uop.mul %a, %b : f32, tensor<3xf32>
  return
}

// -----

// Binary ops: dtype mismatch (test_shape_dtype_inference: const(1) + const(1.0)).
func.func @add_dtype() {
  %a = uop.const 1 : i32
  %b = uop.const 1.0 : f32
  // expected-error @+1 {{'uop.add' op dtype mismatch: i32 vs f32 (use uop.cast)}}
  %0 = uop.add %a, %b : i32, f32
  return
}

// -----

func.func @cmplt_dtype(%a: tensor<2xf16>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'uop.cmplt' op dtype mismatch: f16 vs f32 (use uop.cast)}}
  %0 = uop.cmplt %a, %b : tensor<2xf16>, tensor<2xf32>
  return
}

// -----

func.func @cmpne_shape(%a: tensor<2xi32>, %b: tensor<2x1xi32>) {
  // expected-error @+1 {{'uop.cmpne' op shape mismatch}}
  %0 = uop.cmpne %a, %b : tensor<2xi32>, tensor<2x1xi32>
  return
}

// -----

func.func @max_dtype(%a: i1, %b: i32) {
  // expected-error @+1 {{'uop.max' op dtype mismatch: i1 vs i32 (use uop.cast)}}
  %0 = uop.max %a, %b : i1, i32
  return
}

// -----

// FLOORDIV / FLOORMOD are integer only.
func.func @floordiv_float(%a: f32, %b: f32) {
  // expected-error @+1 {{'uop.floordiv' op is integer only, got f32}}
  %0 = uop.floordiv %a, %b : f32
  return
}

// -----

func.func @floormod_bool(%a: tensor<2xi1>, %b: tensor<2xi1>) {
  // expected-error @+1 {{'uop.floormod' op is integer only, got i1}}
  %0 = uop.floormod %a, %b : tensor<2xi1>
  return
}

// -----

// LOAD needs memory.
func.func @load_value(%x: tensor<4xf32>) {
  // expected-error @+1 {{'uop.load' op needs memory, got tensor<4xf32>}}
  %0 = uop.load %x : tensor<4xf32>
  return
}

// -----

// STORE needs memory.
func.func @store_value(%x: f32, %v: f32) {
  // expected-error @+1 {{'uop.store' op needs memory, got f32}}
  %0 = uop.store %x, %v : f32, f32
  return
}

// -----

// STORE of a dtype into memory of another.
func.func @store_dtype(%i: i32, %v: i32) {
  %b = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %p = uop.index %b[%i] : memref<4xf32, #uop.addrspace<global>>
  // expected-error @+1 {{'uop.store' op stores i32 into f32 memory}}
  %0 = uop.store %p, %v : !uop.ptr<f32, global>, i32
  return
}

// -----

// RANGE end is i32.
func.func @range_end(%n: f32) {
  // expected-error @+1 {{'uop.range' op end must be i32, got f32}}
  %0 = uop.range %n idx 0 <loop> : f32
  return
}

// -----

func.func @range_idx(%n: i32) {
  // expected-error @+1 {{'uop.range' op idx must be non-negative, got -1}}
  %0 = uop.range %n idx -1 <loop>
  return
}

// -----

// RESHAPE keeps the element count.
func.func @reshape_count(%x: tensor<6xf32>) {
  // expected-error @+1 {{'uop.reshape' op cannot reshape [6] to [4]: element counts 6 vs 4}}
  %0 = uop.reshape %x, [4] : tensor<6xf32>
  return
}

// -----

func.func @reshape_negative(%x: tensor<6xf32>) {
  // expected-error @+1 {{'uop.reshape' op shape [-1, -6] has a negative size}}
  %0 = uop.reshape %x, [-1, -6] : tensor<6xf32>
  return
}

// -----

// EXPAND: same rank, only size-1 axes grow.
func.func @expand_rank(%x: tensor<3xf32>) {
  // expected-error @+1 {{'uop.expand' op cannot expand [3] to [2, 3]: same rank, and only size-1 axes grow}}
  %0 = uop.expand %x, [2, 3] : tensor<3xf32>
  return
}

// -----

func.func @expand_non_one(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'uop.expand' op cannot expand [2, 3] to [4, 3]: same rank, and only size-1 axes grow}}
  %0 = uop.expand %x, [4, 3] : tensor<2x3xf32>
  return
}

// -----

// PERMUTE needs a permutation of the axes.
func.func @permute_dup(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'uop.permute' op [0, 0] is not a permutation of the 2 axes of [2, 3]}}
  %0 = uop.permute %x, [0, 0] : tensor<2x3xf32>
  return
}

// -----

func.func @permute_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'uop.permute' op [1, 0, 2] is not a permutation of the 2 axes of [2, 3]}}
  %0 = uop.permute %x, [1, 0, 2] : tensor<2x3xf32>
  return
}

// -----

// SHRINK: one begin:end per axis, 0 <= begin <= end <= size.
func.func @shrink_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{'uop.shrink' op bounds [0:5] do not fit shape [4]: one begin:end per axis, 0 <= begin <= end <= size}}
  %0 = uop.shrink %x [0:5] : tensor<4xf32>
  return
}

// -----

func.func @shrink_reversed(%x: tensor<4xf32>) {
  // expected-error @+1 {{'uop.shrink' op bounds [3:1] do not fit shape [4]}}
  %0 = uop.shrink %x [3:1] : tensor<4xf32>
  return
}

// -----

func.func @shrink_rank(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'uop.shrink' op bounds [0:1] do not fit shape [4, 4]}}
  %0 = uop.shrink %x [0:1] : tensor<4x4xf32>
  return
}

// -----

// REDUCE pops 0..rank axes.
func.func @reduce_too_many(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'uop.reduce' op cannot reduce 3 axes of shape [4, 4]}}
  %0 = uop.reduce %x <add> pop 3 : tensor<4x4xf32>
  return
}

// -----

func.func @reduce_negative(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'uop.reduce' op cannot reduce -1 axes of shape [4, 4]}}
  %0 = uop.reduce %x <max> pop -1 : tensor<4x4xf32>
  return
}

// -----

// Only the seed's dtypes.
func.func @bad_dtype(%a: i64, %b: i64) {
  // expected-error @+1 {{'uop.add' op operand #0 must be uop value (dtype or tensor of dtype), but got 'i64'}}
  %0 = uop.add %a, %b : i64
  return
}

// -----

// A rank-0 tensor is spelled as the bare scalar.
func.func @rank0(%a: tensor<f32>) {
  // expected-error @+1 {{'uop.exp2' op operand #0 must be uop value (dtype or tensor of dtype), but got 'tensor<f32>'}}
  %0 = uop.exp2 %a : tensor<f32>
  return
}

// -----

func.func @const_shaped_scalar() {
  // expected-error @+1 {{'uop.const' op failed to verify that all of {value, result} have same type}}
  %0 = "uop.const"() <{value = 1.0 : f32}> : () -> tensor<1xf32>
  return
}

// -----

func.func @opts_bad_field() {
  // expected-error @+1 {{unknown opts field 'vectorize' (expected upcast, thread, unroll, tile, gpu, local, merge, vector, prefetch, stash, prefetch_next, stages or tc)}}
  %0 = uop.const {opts = #uop.opts<vectorize = 4>} 1 : i32
  return
}

// -----

func.func @opts_bad_vector() {
  // expected-error @+1 {{opts vector 0 must be in [1, 1024] lanes}}
  %0 = uop.const {opts = #uop.opts<vector = 0>} 1 : i32
  return
}

// -----

func.func @opts_bad_factor() {
  // expected-error @+1 {{opts upcast factor 0 for axis 1 must be >= 1}}
  %0 = uop.const {opts = #uop.opts<upcast = {1: 0}>} 1 : i32
  return
}

// -----

func.func @opts_dup_axis() {
  // expected-error @+1 {{opts tile names axis 0 twice}}
  %0 = uop.const {opts = #uop.opts<tile = {0: 4, 0: 8}>} 1 : i32
  return
}

// -----

// Inference must not trip over memory outside the uop address spaces.
func.func @index_plain_memref(%m: memref<4xf32>, %i: i32) {
  // expected-error @+1 {{'uop.index' op operand #0 must be uop value, memory or effect, but got 'memref<4xf32>'}}
  %0 = uop.index %m[%i] : memref<4xf32>
  return
}

// -----

// Element counts must fit in an int64 (getNumElements would overflow).
func.func @shape_overflows_int64() {
  // expected-error @+1 {{'uop.param' op shape [1099511627776, 1099511627776] of tensor<1099511627776x1099511627776xf32> has more elements than an int64 counts}}
  %0 = uop.param 0 : tensor<1099511627776x1099511627776xf32>
  return
}

// -----

func.func @operand_shape_overflows_int64(%x: tensor<1099511627776x1099511627776xf32>) {
  // expected-error @+1 {{'uop.exp2' op shape [1099511627776, 1099511627776] of tensor<1099511627776x1099511627776xf32> has more elements than an int64 counts}}
  %0 = uop.exp2 %x : tensor<1099511627776x1099511627776xf32>
  return
}

// -----

// An empty shape whose other dimensions overflow is no shape either, as in
// numpy (issue 32: uop-opt accepted a reshape of an empty buffer to
// (0, 2^62), and HostBuffer's constructor aborted on it at run time).
func.func @empty_reshape_overflows(%x: tensor<0xf32>) {
  // expected-error @+1 {{'uop.reshape' op shape [0, 4611686018427387904] of tensor<0x4611686018427387904xf32> is too large: its non-zero dimensions' product times its element size overflows an int64}}
  %0 = uop.reshape %x, [0, 4611686018427387904] : tensor<0xf32>
  return
}

// -----

func.func @empty_param_overflows() {
  // expected-error @+1 {{'uop.param' op shape [0, 3074457345618258602, 4] of tensor<0x3074457345618258602x4xi32> is too large}}
  %0 = uop.param 0 : tensor<0x3074457345618258602x4xi32>
  return
}

// -----

// The seed's index arithmetic is i32: a buffer or alloc of more than
// INT32_MAX elements would wrap its indices (and silently write nothing).
func.func @buffer_too_large_for_i32() {
  // expected-error @+1 {{'uop.buffer' op 2147483656 elements do not fit the i32 index arithmetic of the seed}}
  %0 = uop.buffer 0 : tensor<2147483656xf32>
  return
}

// -----

func.func @buffer_memory_too_large_for_i32() {
  // expected-error @+1 {{'uop.buffer' op 2147483656 elements do not fit the i32 index arithmetic of the seed}}
  %0 = uop.buffer 0 : memref<2147483656xf32, #uop.addrspace<global>>
  return
}

// -----

func.func @alloc_too_large_for_i32() {
  // expected-error @+1 {{'uop.alloc' op 2147483656 elements do not fit the i32 index arithmetic of the seed}}
  %0 = uop.alloc 0 : memref<2147483656xf32, #uop.addrspace<local>>
  return
}

// -----

// INT32_MAX elements still fit.
func.func @buffer_int32_max() {
  %0 = uop.buffer 0 : tensor<2147483647xf32>
  return
}

// -----

// A reshape's source must count its elements too.
func.func @reshape_from_overflow(%x: tensor<1099511627776x1099511627776xf32>) {
  // expected-error @+1 {{'uop.reshape' op shape [1099511627776, 1099511627776] of tensor<1099511627776x1099511627776xf32> has more elements than an int64 counts}}
  %0 = uop.reshape %x, [2199023255552, 549755813888] : tensor<1099511627776x1099511627776xf32>
  return
}

// -----

func.func @opts_bad_prefetch() {
  // expected-error @+1 {{opts prefetch -1 must be in [0, 1024] iterations}}
  %0 = uop.const {opts = #uop.opts<prefetch = -1>} 1 : i32
  return
}

// -----

func.func @opts_bad_prefetch_next() {
  // expected-error @+1 {{opts prefetch_next -16 must be in [0, 1048576] elements}}
  %0 = uop.const {opts = #uop.opts<prefetch_next = -16>} 1 : i32
  return
}

// -----

func.func @opts_merge_without_gpu() {
  // expected-error @+1 {{opts merge needs gpu (it merges grid dimensions)}}
  %0 = uop.const {opts = #uop.opts<merge = {0: 2}>} 1 : i32
  return
}

// -----

func.func @opts_merge_one_axis() {
  // expected-error @+1 {{opts merge of axis 1 must group >= 2 axes, got 1}}
  %0 = uop.const {opts = #uop.opts<gpu, merge = {1: 1}>} 1 : i32
  return
}

// -----

func.func @opts_merge_overlap() {
  // expected-error @+1 {{opts merge groups of axes 0 and 2 overlap}}
  %0 = uop.const {opts = #uop.opts<gpu, merge = {0: 3, 2: 2}>} 1 : i32
  return
}

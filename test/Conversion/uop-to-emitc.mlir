// RUN: uop-opt %s -split-input-file -uop-to-emitc | FileCheck %s
// RUN: uop-opt %s -split-input-file -uop-to-emitc | uop-translate --mlir-to-cpp -split-input-file | FileCheck %s --check-prefix=C

// A kernel (uop.kernel) named main is the seed's `kernel`; its buffers are
// restrict pointers indexed by the i32 the kernel computed; a one-element
// alloca is a scalar variable; constants are literals.
// CHECK-LABEL: emitc.func @kernel
// CHECK-SAME: (%[[A:.*]]: !emitc.opaque<"float* restrict">, %[[B:.*]]: !emitc.opaque<"float* restrict">)
// CHECK: %[[INF:.*]] = literal "-INFINITY" : f32
// CHECK: %[[ACC:.*]] = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> !emitc.lvalue<f32>
// CHECK: assign %[[INF]] : f32 to %[[ACC]] : <f32>
// CHECK: for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK:   %[[X:.*]] = subscript %[[A]][%[[I]]] : (!emitc.opaque<"float* restrict">, i32) -> !emitc.lvalue<f32>
// CHECK:   cmp gt,
// C-LABEL: /* kernel: v1 = data0 (64 x float), v2 = data1 (1 x float) */
// C-NEXT:  void kernel(float* restrict v1, float* restrict v2) {
// C-NEXT:    float v3;
// C-NEXT:    v3 = -INFINITY;
// C-NEXT:    for (int32_t i4 = 0; i4 < 64; i4 += 1) {
// C-NEXT:      float v5 = v3;
// C-NEXT:      float v6 = v1[i4];
// C-NEXT:      v3 = v5 > v6 ? v5 : v6;
// C-NEXT:    }
// C-NEXT:    float v7 = v3;
// C-NEXT:    v2[0] = v7;
func.func @main(%a: memref<64xf32>, %out: memref<1xf32>) attributes {uop.kernel, uop.slots = array<i64: 0, 1>} {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c64_i32 = arith.constant 64 : i32
  %ninf = arith.constant 0xFF800000 : f32
  %acc = memref.alloca() : memref<1xf32>
  memref.store %ninf, %acc[%c0] : memref<1xf32>
  scf.for %i = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %m = memref.load %acc[%c0] : memref<1xf32>
    %ii = arith.index_cast %i : i32 to index
    %x = memref.load %a[%ii] : memref<64xf32>
    %gt = arith.cmpf ogt, %m, %x : f32
    %s = arith.select %gt, %m, %x : f32
    memref.store %s, %acc[%c0] : memref<1xf32>
  }
  %r = memref.load %acc[%c0] : memref<1xf32>
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

// -----

// Floor division and modulo are the seed's helpers (the prelude defines
// those called); an array alloca is a C array.
// C:      static inline int floordiv_i32(int a, int b)
// C:      static inline int floormod_i32(int a, int b)
// C-LABEL: void kernel(int32_t* restrict v1, int32_t* restrict v2) {
// C-NEXT:   int32_t v3 = v1[0];
// C-NEXT:   int32_t v4 = v1[1];
// C-NEXT:   int32_t v5[2];
// C-NEXT:   int32_t v6 = floordiv_i32(v3, v4);
// C-NEXT:   v5[0] = v6;
// C-NEXT:   int32_t v7 = floormod_i32(v3, v4);
// C-NEXT:   v5[1] = v7;
func.func @main(%a: memref<2xi32>, %b: memref<2xi32>) attributes {uop.kernel, uop.slots = array<i64: 0, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %x = memref.load %a[%c0] : memref<2xi32>
  %y = memref.load %a[%c1] : memref<2xi32>
  %t = memref.alloca() : memref<2xi32>
  %q = arith.floordivsi %x, %y : i32
  memref.store %q, %t[%c0] : memref<2xi32>
  %r = arith.remsi %x, %y : i32
  %ne = arith.cmpi ne, %r, %c0_i32 : i32
  %rn = arith.cmpi slt, %r, %c0_i32 : i32
  %yn = arith.cmpi slt, %y, %c0_i32 : i32
  %sx = arith.xori %rn, %yn : i1
  %fix = arith.andi %ne, %sx : i1
  %ry = arith.addi %r, %y : i32
  %m = arith.select %fix, %ry, %r : i32
  memref.store %m, %t[%c1] : memref<2xi32>
  %t0 = memref.load %t[%c0] : memref<2xi32>
  memref.store %t0, %b[%c0] : memref<2xi32>
  %t1 = memref.load %t[%c1] : memref<2xi32>
  memref.store %t1, %b[%c1] : memref<2xi32>
  return
}

// -----

// A CPU thread range is an int loop under the seed's OpenMP pragma; a
// run-time check's record is bumped atomically; large per-thread memory is
// malloc'd; a host named main is `uop_main`; an operand C would want
// parenthesized (a comparison inside `|`) is its own variable.
// C-LABEL: static void k(float* restrict v1, int32_t* restrict v2) {
// C-NEXT:    #pragma omp parallel for
// C-NEXT:    for (int32_t i3 = 0; i3 < 4; i3 += 1) {
// C-NEXT:      float* restrict v4 = (float*) malloc(1000000 * sizeof(float));
// C:           bool v{{[0-9]+}} = i3 < 0;
// C:           bool v{{[0-9]+}} = i3 >= 1000000;
// C:           if (v{{[0-9]+}} | v{{[0-9]+}}) {
// C-NEXT:        int32_t* v7 = &v2[0];
// C-NEXT:        __atomic_fetch_add(v7, 1, __ATOMIC_SEQ_CST);
// C:           free(v4);
// C-LABEL: void uop_main(float* restrict v1, int32_t* restrict v2) {
// C-NEXT:    k(v1, v2);
func.func private @k(%a: memref<4xf32>, %rec: memref<4xi32>) attributes {uop.kernel, uop.slots = array<i64: 0>, uop.checks = []} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %big = arith.constant 1000000 : i32
  scf.parallel (%t) = (%c0) to (%c4) step (%c1) {
    %buf = memref.alloc() : memref<1000000xf32>
    %ti = arith.index_cast %t : index to i32
    %neg = arith.cmpi slt, %ti, %c0_i32 : i32
    %far = arith.cmpi sge, %ti, %big : i32
    %bad = arith.ori %neg, %far : i1
    scf.if %bad {
      %old = memref.atomic_rmw addi %c1_i32, %rec[%c0] : (i32, memref<4xi32>) -> i32
    }
    %f = arith.sitofp %ti : i32 to f32
    memref.store %f, %buf[%t] : memref<1000000xf32>
    %v = memref.load %buf[%t] : memref<1000000xf32>
    memref.store %v, %a[%t] : memref<4xf32>
    memref.dealloc %buf : memref<1000000xf32>
    scf.reduce
  }
  return
}
func.func @main(%a: memref<4xf32>, %rec: memref<4xi32>) attributes {uop.host} {
  call @k(%a, %rec) : (memref<4xf32>, memref<4xi32>) -> ()
  return
}


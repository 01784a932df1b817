// RUN: uop-opt %s --uop-gradient="func=two wrt=1 grad-name=d_two" | FileCheck %s --check-prefix=WRT
// RUN: uop-opt %s --uop-gradient=func=two | FileCheck %s --check-prefix=TWO
//
// uop-gradient on a function of arguments.

// Arguments: by default every float one (not the i32 %n); only the values
// on a path to a target get rules, so wrt=1 builds nothing for %a's side
// (exp2 of %a is not differentiated: no mul by ln 2). x*y and y*x stay two
// values (the seed's consing keeps operand order), so d/d%b adds two terms
// (equal ones: g * e twice, one value).
// TWO-LABEL: func.func @two_grad(%arg0: f32, %arg1: f32, %arg2: i32) -> (f32, f32, f32)
// TWO:         %[[E:.*]] = uop.exp2 %arg0 : f32
// TWO:         %[[LN2:.*]] = uop.const 0.693147182 : f32
// TWO-NEXT:    %[[DA:.*]] = uop.mul %{{.*}}, %[[LN2]] : f32
// TWO-NEXT:    return %{{.*}}, %[[DA]], %{{.*}} : f32, f32, f32
// WRT-LABEL: func.func @d_two(%arg0: f32, %arg1: f32, %arg2: i32) -> (f32, f32)
// WRT-DAG:     %[[E:.*]] = uop.exp2 %arg0 : f32
// WRT-DAG:     %[[XY:.*]] = uop.mul %[[E]], %arg1 : f32
// WRT-DAG:     %[[YX:.*]] = uop.mul %arg1, %[[E]] : f32
// WRT:         %[[S:.*]] = uop.add %[[XY]], %[[YX]] : f32
// WRT-NEXT:    %[[ONE:.*]] = uop.const 1.000000e+00 : f32
// WRT-NEXT:    %[[G:.*]] = uop.mul %[[ONE]], %[[E]] : f32
// WRT-NEXT:    %[[D:.*]] = uop.add %[[G]], %[[G]] : f32
// WRT-NEXT:    return %[[S]], %[[D]] : f32, f32
func.func @two(%a: f32, %b: f32, %n: i32) -> f32 {
  %e = uop.exp2 %a : f32
  %0 = uop.mul %e, %b : f32
  %1 = uop.mul %b, %e : f32
  %2 = uop.add %0, %1 : f32
  return %2 : f32
}


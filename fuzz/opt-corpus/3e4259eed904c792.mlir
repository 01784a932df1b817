4// Only the seed's dtypes.
func.func @bad_dtype(%a: i64, %b: i64) {
  %0 = uop.add %a, %b : i64
  return
}

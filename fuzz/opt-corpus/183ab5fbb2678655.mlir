4// Kernel graphs are already lowered: left alone.
func.func @kernel() -> !uop.void {
  %k = uop.sink()
  return %k : !uop.void
}

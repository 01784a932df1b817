5func.func @barrier_on_cpu() -> !uop.void {
  %b = uop.barrier()
  %k = uop.sink(%b : !uop.void)
  return %k : !uop.void
}

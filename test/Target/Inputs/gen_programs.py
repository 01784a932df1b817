"""Writes generated .uir programs: `chain N` (an N-long add chain), `nest N`
(N calls nested in one another), `l1chain N` (a shaped program: an N-long
elementwise chain over a 16-float buffer, `x * 1.0001` and `x + 0.0001` in
turn), `mlirnest N` (MLIR: N uop.calls nested in one another, each adding 1
to what the one inside it yields, around 0: the result is N). Used by deep-programs.test and the deep tests of the passes."""
import sys
kind, n = sys.argv[1], int(sys.argv[2])
if kind == "chain":
    print("%0 = param : slot=0 dtype=i32")
    for i in range(1, n + 1):
        print(f"%{i} = add %{i-1}, 1")
elif kind == "nest":
    print("%p = param : slot=0 dtype=i32")
    print("%c0 = call %p, %p")
    for i in range(1, n):
        print(f"%c{i} = call %c{i-1}, %p")
elif kind == "l1chain":
    print("%0 = buffer 16 : dtype=f32 slot=0")
    for i in range(1, n + 1):
        op, c = ("mul", "1.0001") if i % 2 else ("add", "0.0001")
        print(f"%{i} = {op} %{i-1}, {c}")
elif kind == "mlirnest":
    print("func.func @main() -> i32 {")
    print("  %x = uop.const 0 : i32")
    arg = "%x"
    for i in range(n):
        print(f"  %r{i} = uop.call \"f\"({arg} : i32) {{")
        print(f"  ^bb0(%p{i}: i32):")
        arg = f"%p{i}"
    print(f"  uop.yield {arg} : i32")
    for i in reversed(range(n)):
        print("  }")
        print(f"  %c{i} = uop.const 1 : i32")
        print(f"  %a{i} = uop.add %r{i}, %c{i} : i32")
        print(f"  " + ("return" if i == 0 else "uop.yield") + f" %a{i} : i32")
    print("}")

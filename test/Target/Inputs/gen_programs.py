"""Writes generated .uir programs: `chain N` (an N-long add chain), `nest N`
(N calls nested in one another), `l1chain N` (a shaped program: an N-long
elementwise chain over a 16-float buffer, `x * 1.0001` and `x + 0.0001` in
turn). Used by deep-programs.test and the deep tests of the passes."""
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

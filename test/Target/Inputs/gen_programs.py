"""Writes generated .uir programs: `chain N` (an N-long add chain), `nest N`
(N calls nested in one another). Used by deep-programs.test."""
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

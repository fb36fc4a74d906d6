set breakpoint pending on
set pagination off
set confirm off
set width 0
break dbg_vars.cu:44
run
ptype counter
whatis counter
print &counter
ptype coef
whatis coef
whatis coef[1]
print &coef[1]
whatis &coef
ptype t
whatis t
whatis i
ptype acc
whatis in
whatis in[0]
whatis *in
ptype out
whatis n
ptype n
ptype tile
whatis tile[1] + 1
whatis p
whatis p.x
whatis p.s
whatis b.f
whatis &p
print &p
print &b
print &tile
whatis pts[1]
whatis pts[1].y
whatis r
ptype *pts
ptype pts[1]
ptype kern
whatis kern
ptype addk
whatis struct Pt
whatis pt_t
ptype pt_t
whatis union Bits
info locals
info args
display acc
display/x t
next
info display
undisplay 1
next
kill

set breakpoint pending on
set pagination off
set confirm off
set width 0
break dbg_vars.cu:35
run
info locals
info args
print t
print i
print n
print tile
print tile[3]
print tile[3]@4
print in[0]@4
print *in@3
print *pts
print pts[1]
print pts[1].s
print pts[1].s[1]
print pts->y
print (pts+2)->x
print &tile[2]
print &pts[1]
print &t
print $2 + 1
print $
print $$2
print t * 2 + 1
print (float)i / 2
print i / 2.0
print i < n
print i == 0 && n > 3
print -i
print !t
print ~t
print i % 7
print (char)65
print threadIdx
print blockIdx.x
print blockDim
print gridDim.x
print warpSize
print $pc
ptype pts
ptype pt_t
ptype struct Pt
ptype union Bits
ptype in
ptype tile
ptype int
whatis pts
whatis *pts
whatis tile
whatis tile[0]
whatis pts->s
whatis &tile
print counter
print coef
print coef[1]
print sizeof(pt_t)
print sizeof(tile)
print nosuch
print pts->nosuch
print t.x
print *t
print tile[
output t
output pts[1]
print/x t
print/x tile[3]@4
print/x pts[1]
print/d coef[1]
print/f i
print/c 65
print/t 10
print/o 8
print -pretty -- pts[1]
info frame
info line
info source
info symbol pts
x/4dw tile
x/2f coef
display t
display/x i
info display
cuda thread (5,0,0)
print t
print i
print tile[5]
info locals
kill

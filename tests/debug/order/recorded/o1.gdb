set breakpoint pending on
set pagination off
set confirm off
set width 0
break order
run
info locals
info args
print alpha
print delta
print local_arr
next
info locals
next
next
next
info locals
break dbg_order.cu:32
continue
info locals
print u1
print w1
continue
info locals
delete
break dbg_order.cu:36
continue
info locals
continue
info locals
delete
break dbg_order.cu:41
continue
info locals
ptype sh
whatis sh
whatis sh[1]
whatis &sh[1]
print &sh[1]
print sh[1]
ptype g_dev
whatis g_dev[1]
print &g_dev[1]
whatis &g_dev
print g_dev
ptype c_tab
whatis c_tab[1]
print &c_tab[1]
ptype local_arr
whatis local_arr[1]
print &local_arr[1]
whatis &local_arr
ptype alpha
whatis alpha
whatis delta
ptype c
whatis mask
ptype out
whatis out[1]
whatis *out
whatis &out[1]
whatis n
ptype order
ptype four
whatis threadIdx
ptype threadIdx
whatis threadIdx.x
whatis blockDim
whatis alpha + 1
whatis (float)alpha
whatis sh[1] * 2
output local_arr
print local_arr
print/x mask
p/f 0x3f800000
p/f alpha
p/x -1
p/c c
x/4dw &c_tab[0]
x/2dw local_arr
frame
frame 0
break four
continue
bt
info args
info locals
print aa
ptype first
whatis first
ptype aa
finish
print f
info locals
kill

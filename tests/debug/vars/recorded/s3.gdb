set breakpoint pending on
set pagination off
set confirm off
break dbg_vars.cu:40 if t == 3
run
print t
print threadIdx.x
info cuda threads
delete
watch acc
break dbg_vars.cu:44
continue
info locals
print acc
print out[0]@2
kill
run
info breakpoints
kill

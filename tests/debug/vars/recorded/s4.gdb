set breakpoint pending on
set pagination off
set confirm off
break dbg_vars.cu:38
run
step
bt
info locals
print a
finish
print t
print acc
info args
kill

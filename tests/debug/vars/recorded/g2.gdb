set breakpoint pending on
set pagination off
set confirm off
set width 0
break kern
run
info locals
print t
print i
print acc
print r
print p
next
info locals
next
info locals
next
next
info locals
break dbg_vars.cu:37
continue
info locals
print v
continue
print v
info locals
kill

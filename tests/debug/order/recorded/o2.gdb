set breakpoint pending on
set pagination off
set confirm off
set width 0
break dbg_order.cu:29
run
watch g_dev[2]
watch sh[3]
info breakpoints
continue
continue
continue
info breakpoints
kill
info breakpoints
run
info breakpoints
continue
continue
continue
info breakpoints
kill

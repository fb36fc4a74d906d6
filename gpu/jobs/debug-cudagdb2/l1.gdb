set breakpoint pending on
set pagination off
set confirm off
set width 0
break dbg_vars.cu:20
run
bt
info frame
frame 1
frame 0
finish
bt
next
bt
kill
delete
break addk
run
bt
finish
kill
delete
break dbg_vars.cu:25
run
bt
finish
bt
kill

set breakpoint pending on
set pagination off
set confirm off
set width 0
break dbg_vars.cu:38
break scalef
run
info locals
print v
print k
print acc
step
bt
info frame
info locals
info args
print a
print r
up
print acc
down
finish
delete 1
continue
bt
info args
print *p
print p->s
print p->s[1]
print f
print r
finish
next
print r
print b
print b.u
print/x b
print p
print p.s[0]
ptype p
ptype b
ptype scalef
whatis scalef
info locals
next
next
cuda thread (3,0,0)
print i
print r
print p
kill
